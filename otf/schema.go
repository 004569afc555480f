package otf

import (
	"fmt"
	"slices"
)

// Record layouts: the on-disk fields of every record type of OTF2 3.x, as a
// compact code per field (generated from the specification that python3-otf2
// installs; TestLayoutsMatchSpecification compares them):
//
//	b  uint8              h  uint16 (raw)       i  uint32 or float (raw)
//	T  8 raw bytes (timestamp, full uint64, double)
//	c  compressed integer of at most 4 bytes (uint32, int32, references)
//	S  the same, a reference to a String definition (definitions only)
//	C  compressed integer of at most 8 bytes (uint64, int64, metric values)
//	s  NUL-terminated string
//	v  attribute value, encoded by the OTF2_Type of the preceding b field
//	M  id map (MappingTable): count C, mode b, then count (dense) or 2·count (sparse) C
//	X(…)  the count field X, then its array elements count times
//	|  the fields after it were added by a later version: the reference
//	   reader reads them only if the record has bytes left
//
// Bytes after the last field are skipped (fields of later versions).
var (
	globalDefLayouts = defLayouts(map[uint8]string{5: "CCC|C", 6: "bSb", 7: "bbbv", 8: "bSSbcb(bbv)"})
	localDefLayouts  = defLayouts(map[uint8]string{5: "bM", 6: "TCT"})
	eventLayouts     = [256]string{
		10: "T", 11: "b", 12: "c", 13: "c", 14: "cccC", 15: "cccCC", 16: "C", 17: "C",
		18: "cccC", 19: "cccCC", 20: "C", 21: "C", 22: "", 23: "bccCC", 24: "c", 25: "",
		26: "cc", 27: "cc", 28: "C", 29: "C", 30: "C", 31: "cb(bC)", 32: "cc", 33: "cC", 34: "cC",
		35: "c", 36: "c", 37: "", 38: "bcccCC", 39: "ccc", 40: "ccCb", 41: "ccCb",
		42: "ccCb", 43: "ccC", 44: "ccb", 45: "c", 46: "ccCC", 47: "ccCC", 48: "ccbCCC",
		49: "cC", 50: "cC", 51: "cC", 52: "cC", 53: "bc", 54: "b", 55: "c", 56: "c",
		57: "bcc", 58: "bcc", 59: "ccc", 60: "ccc", 61: "ccc", 62: "cC", 63: "cC",
		64: "cC", 65: "cC", 66: "cc", 67: "c", 68: "ccc", 69: "cbcc", 70: "c", 71: "ccc",
		72: "cCbC", 73: "cc", 74: "bc", 75: "cbcCC", 76: "cC", 77: "cC", 78: "cCC",
		79: "cC", 80: "cb", 81: "cb", 82: "cb", 83: "cc(c)", 84: "C", 85: "C", 86: "bccCCC",
		87: "c", 88: "c",
	}
	// knownEvent tells the event types of eventLayouts (some have no fields).
	knownEvent = func() (k [256]bool) {
		for t := 10; t <= 88; t++ {
			k[t] = true
		}
		return k
	}()
)

// sharedDefLayouts are the definition records that global and local
// definition files have in common (types 10 and up).
var sharedDefLayouts = map[uint8]string{
	10: "cs", 11: "cSb|S", 12: "cSSc", 13: "cSbc|c", 14: "CSbCc", 15: "cSSbScc|Sbbc", 16: "cSccc",
	17: "ccc", 18: "cSbc(C)|bbc", 19: "cSSbbbbCS", 20: "cb(c)b|b", 21: "ccCbC", 22: "cScc|c",
	23: "cSb", 24: "cSc|c", 25: "cC", 26: "cSS|bv", 27: "cb", 28: "cSS|bv", 29: "CSS|bv",
	30: "cScb", 31: "cScb(c)", 32: "ccb(c)", 33: "cSc", 34: "cccc", 35: "cSbv", 36: "cSbbCC",
	37: "cSbv", 38: "cSc", 39: "cSc", 40: "cScbccc", 41: "cbc", 42: "ccbv", 43: "cScccc",
}

func defLayouts(own map[uint8]string) (l [256]string) {
	for t, s := range sharedDefLayouts {
		l[t] = s
	}
	for t, s := range own {
		l[t] = s
	}
	return l
}

// Names of the definition and event record types, for error messages.
var (
	globalDefNames = defNames(map[uint8]string{5: "ClockProperties", 6: "Paradigm", 7: "ParadigmProperty", 8: "IoParadigm"})
	localDefNames  = defNames(map[uint8]string{5: "MappingTable", 6: "ClockOffset"})
)

func defNames(own map[uint8]string) (n [256]string) {
	shared := map[uint8]string{
		10: "String", 11: "Attribute", 12: "SystemTreeNode", 13: "LocationGroup", 14: "Location",
		15: "Region", 16: "Callsite", 17: "Callpath", 18: "Group", 19: "MetricMember",
		20: "MetricClass", 21: "MetricInstance", 22: "Comm", 23: "Parameter", 24: "RmaWin",
		25: "MetricClassRecorder", 26: "SystemTreeNodeProperty", 27: "SystemTreeNodeDomain",
		28: "LocationGroupProperty", 29: "LocationProperty", 30: "CartDimension",
		31: "CartTopology", 32: "CartCoordinate", 33: "SourceCodeLocation", 34: "CallingContext",
		35: "CallingContextProperty", 36: "InterruptGenerator", 37: "IoFileProperty",
		38: "IoRegularFile", 39: "IoDirectory", 40: "IoHandle", 41: "IoPreCreatedHandleState",
		42: "CallpathParameter", 43: "InterComm",
	}
	for t, s := range shared {
		n[t] = s
	}
	for t, s := range own {
		n[t] = s
	}
	return n
}

// recordName returns "Name (type N)" or "type N" for a record type.
func recordName(names *[256]string, t uint8) string {
	if names != nil && names[t] != "" {
		return fmt.Sprintf("%s (type %d)", names[t], t)
	}
	return fmt.Sprintf("type %d", t)
}

// eventNames are the names of the event record types, for error messages.
var eventNames = [256]string{
	10: "BufferFlush", 11: "MeasurementOnOff", 12: "Enter", 13: "Leave", 14: "MpiSend",
	15: "MpiIsend", 16: "MpiIsendComplete", 17: "MpiIrecvRequest", 18: "MpiRecv", 19: "MpiIrecv",
	20: "MpiRequestTest", 21: "MpiRequestCancelled", 22: "MpiCollectiveBegin",
	23: "MpiCollectiveEnd", 24: "OmpFork", 25: "OmpJoin", 26: "OmpAcquireLock",
	27: "OmpReleaseLock", 28: "OmpTaskCreate", 29: "OmpTaskSwitch", 30: "OmpTaskComplete",
	31: "Metric", 32: "ParameterString", 33: "ParameterInt", 34: "ParameterUnsignedInt",
	35: "RmaWinCreate", 36: "RmaWinDestroy", 37: "RmaCollectiveBegin", 38: "RmaCollectiveEnd",
	39: "RmaGroupSync", 40: "RmaRequestLock", 41: "RmaAcquireLock", 42: "RmaTryLock",
	43: "RmaReleaseLock", 44: "RmaSync", 45: "RmaWaitChange", 46: "RmaPut", 47: "RmaGet",
	48: "RmaAtomic", 49: "RmaOpCompleteBlocking", 50: "RmaOpCompleteNonBlocking", 51: "RmaOpTest",
	52: "RmaOpCompleteRemote", 53: "ThreadFork", 54: "ThreadJoin", 55: "ThreadTeamBegin",
	56: "ThreadTeamEnd", 57: "ThreadAcquireLock", 58: "ThreadReleaseLock", 59: "ThreadTaskCreate",
	60: "ThreadTaskSwitch", 61: "ThreadTaskComplete", 62: "ThreadCreate", 63: "ThreadBegin",
	64: "ThreadWait", 65: "ThreadEnd", 66: "CallingContextEnter", 67: "CallingContextLeave",
	68: "CallingContextSample", 69: "IoCreateHandle", 70: "IoDestroyHandle",
	71: "IoDuplicateHandle", 72: "IoSeek", 73: "IoChangeStatusFlags", 74: "IoDeleteFile",
	75: "IoOperationBegin", 76: "IoOperationTest", 77: "IoOperationIssued",
	78: "IoOperationComplete", 79: "IoOperationCancelled", 80: "IoAcquireLock", 81: "IoReleaseLock",
	82: "IoTryLock", 83: "ProgramBegin", 84: "ProgramEnd", 85: "NonBlockingCollectiveRequest",
	86: "NonBlockingCollectiveComplete", 87: "CommCreate", 88: "CommDestroy",
}

// OTF2_Type codes of attribute values whose encoding is not a compressed
// 64-bit integer.
const (
	typeUint8    = 1
	typeUint16   = 2
	typeUint32   = 3
	typeUint64   = 4
	typeInt8     = 5
	typeInt16    = 6
	typeInt32    = 7
	typeInt64    = 8
	typeFloat    = 9
	typeDouble   = 10
	typeString   = 11
	typeLocation = 13
	// Definition references from typeString up to typeLocGroup, except
	// typeLocation, are compressed 32-bit integers.
	typeLocGroup = 25
)

// valueCode returns the layout code of an attribute value of OTF2_Type t:
// the reference reader decodes unknown types as compressed 64-bit integers.
func valueCode(t uint8) byte {
	switch {
	case t == typeUint8 || t == typeInt8:
		return 'b'
	case t == typeUint16 || t == typeInt16:
		return 'h'
	case t == typeUint32 || t == typeInt32:
		return 'c'
	case t == typeFloat:
		return 'i'
	case t == typeDouble:
		return 'T'
	case t >= typeString && t <= typeLocGroup && t != typeLocation:
		return 'c'
	}
	return 'C'
}

// layoutWalker decodes a payload field by field after a layout. It checks
// what the reference reader would fail on (compressed integers wider than
// their field, strings without NUL, id-map modes) and, stricter than it,
// that every field lies inside the record. If swap is set, it reverses the
// byte order of every multi-byte field in place.
type layoutWalker struct {
	b    []byte
	p    int
	be   bool // byte order of b while walking
	swap bool
	err  error
	at   int // position of the first error
	last uint64
	// strRef, if set, is called with every string reference (S fields and
	// attribute values of type STRING) and its position.
	strRef func(id uint64, at int)
}

func (w *layoutWalker) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
		w.at = w.p
	}
}

func (w *layoutWalker) need(n int) bool {
	if w.err != nil {
		return false
	}
	if n > len(w.b)-w.p {
		w.fail("the record ends inside a field (%d bytes needed, %d left)", n, len(w.b)-w.p)
		return false
	}
	return true
}

// raw skips (and maybe swaps) n raw bytes and returns their value in the
// byte order of the walk (n ≤ 8).
func (w *layoutWalker) raw(n int) uint64 {
	if !w.need(n) {
		return 0
	}
	seg := w.b[w.p : w.p+n]
	var v uint64
	if w.be {
		for _, c := range seg {
			v = v<<8 | uint64(c)
		}
	} else {
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(seg[i])
		}
	}
	if w.swap {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			seg[i], seg[j] = seg[j], seg[i]
		}
	}
	w.p += n
	return v
}

func (w *layoutWalker) compressed(max int) uint64 {
	if !w.need(1) {
		return 0
	}
	n := int(w.b[w.p])
	switch {
	case n == 0:
		w.p++
		return 0
	case n == 0xFF:
		w.p++
		return undefined64
	case n > max:
		w.fail("compressed integer of %d bytes in a field of at most %d", n, max)
		return 0
	}
	if !w.need(1 + n) {
		return 0
	}
	w.p++
	return w.raw(n)
}

func (w *layoutWalker) str() {
	if w.err != nil {
		return
	}
	for i := w.p; i < len(w.b); i++ {
		if w.b[i] == 0 {
			w.p = i + 1
			return
		}
	}
	w.fail("string without terminating NUL")
}

// field walks one field of code f and returns its value (for counts and
// types).
func (w *layoutWalker) field(f byte) uint64 {
	switch f {
	case 'b':
		return w.raw(1)
	case 'h':
		return w.raw(2)
	case 'i':
		return w.raw(4)
	case 'T':
		return w.raw(8)
	case 'c':
		return w.compressed(4)
	case 'S':
		at := w.p
		v := w.compressed(4)
		if w.strRef != nil && w.err == nil {
			w.strRef(v, at)
		}
		return v
	case 'C':
		return w.compressed(8)
	case 's':
		w.str()
	case 'v':
		if uint8(w.last) == typeString {
			return w.field('S')
		}
		return w.field(valueCode(uint8(w.last)))
	case 'M':
		w.idMap()
	default:
		w.fail("internal error: layout code %q", f)
	}
	return 0
}

func (w *layoutWalker) idMap() {
	n := w.compressed(8)
	mode := w.raw(1)
	if w.err != nil {
		return
	}
	if n == 0 {
		// The reference library cannot create an id map without entries.
		w.fail("id map without entries")
		return
	}
	per := uint64(1)
	switch mode {
	case 0:
	case 1:
		per = 2
	default:
		w.fail("id map mode %d (0 dense, 1 sparse)", mode)
		return
	}
	if n > uint64(len(w.b)-w.p)/per {
		w.fail("id map of %d entries cannot fit in %d bytes", n, len(w.b)-w.p)
		return
	}
	for i := uint64(0); i < n*per && w.err == nil; i++ {
		w.compressed(8)
	}
}

// walk walks the layout l from its position i and returns the position
// after it (the end of l or a closing parenthesis).
func (w *layoutWalker) walk(l string, i int) int {
	for i < len(l) && w.err == nil {
		f := l[i]
		switch f {
		case ')':
			return i
		case '|':
			if w.p == len(w.b) {
				return len(l) // a record of an earlier version
			}
			i++
			continue
		}
		v := w.field(f)
		if f == 'b' {
			w.last = v
		}
		i++
		if i < len(l) && l[i] == '(' {
			end := matchParen(l, i)
			if w.err == nil && v > uint64(len(w.b)-w.p) {
				w.fail("array of %d elements cannot fit in %d bytes", v, len(w.b)-w.p)
			}
			for k := uint64(0); k < v && w.err == nil; k++ {
				w.walk(l, i+1)
			}
			i = end + 1
		}
	}
	return i
}

func matchParen(l string, i int) int {
	depth := 0
	for j := i; j < len(l); j++ {
		switch l[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(l) - 1
}

// checkLayout checks payload against layout l. On failure it returns the
// error and the offset within payload where it was found. strRef, if not
// nil, is called with every string reference.
func checkLayout(l string, payload []byte, be bool, strRef func(id uint64, at int)) (int, error) {
	w := layoutWalker{b: payload, be: be, strRef: strRef}
	w.walk(l, 0)
	return w.at, w.err
}

// checkAttributeList checks an ATTRIBUTE_LIST payload as the reference
// reader reads it: count c, then per entry id c, type b and a value of that
// type; no attribute id twice; the record no longer than the count allows.
// The ids of a short list are compared one by one; a longer list (more than
// shortAttributeList) uses *seen, made if nil and cleared otherwise, so
// that a caller checking many lists keeps one map.
func checkAttributeList(payload []byte, be bool, seen *map[uint64]bool) (int, error) {
	w := layoutWalker{b: payload, be: be}
	n := w.compressed(4)
	if w.err == nil && uint64(len(payload)) > n*15+5 {
		w.fail("attribute list of %d bytes for %d attributes", len(payload), n)
	}
	if w.err == nil && n > uint64(len(payload))/3 {
		w.fail("%d attributes cannot fit in %d bytes", n, len(payload))
	}
	var short [shortAttributeList]uint64
	var long map[uint64]bool
	if w.err == nil && n > shortAttributeList {
		if *seen == nil {
			*seen = make(map[uint64]bool, n)
		} else {
			clear(*seen)
		}
		long = *seen
	}
	for i := uint64(0); i < n && w.err == nil; i++ {
		at := w.p
		id := w.compressed(4)
		t := w.raw(1)
		w.field(valueCode(uint8(t)))
		if w.err != nil {
			break
		}
		var twice bool
		if long != nil {
			twice = long[id]
			long[id] = true
		} else {
			twice = slices.Contains(short[:i], id)
			short[i] = id
		}
		if twice {
			w.p = at
			w.fail("attribute %d twice in one list", id)
		}
	}
	return w.at, w.err
}

// shortAttributeList is the longest attribute list checkAttributeList
// checks for repeated ids without a map.
const shortAttributeList = 16
