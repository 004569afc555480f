package otf

// Byte-order conversion of record payloads the model keeps as they are
// (opaque event records and attribute lists). The model holds them in
// little-endian order whatever the source's byte order, so that a trace
// read from a big-endian archive can be written anywhere.

// eventLayouts gives, per event record type, its fields in on-disk order
// (docs: shared/otf2/records.txt): B = uint8, C = compressed integer,
// T = raw 8 bytes (timestamp). Metric (31) and ProgramBegin (83) have
// arrays and are handled apart; the elements of parallel arrays are
// interleaved on disk (Metric: type, value, type, value …).
var eventLayouts = [256]string{
	10: "T", 11: "B", 12: "C", 13: "C", 14: "CCCC", 15: "CCCCC", 16: "C", 17: "C",
	18: "CCCC", 19: "CCCCC", 20: "C", 21: "C", 22: "-", 23: "BCCCC", 24: "C", 25: "-",
	26: "CC", 27: "CC", 28: "C", 29: "C", 30: "C", 32: "CC", 33: "CC", 34: "CC",
	35: "C", 36: "C", 37: "-", 38: "BCCCCC", 39: "CCC", 40: "CCCB", 41: "CCCB",
	42: "CCCB", 43: "CCC", 44: "CCB", 45: "C", 46: "CCCC", 47: "CCCC", 48: "CCBCCC",
	49: "CC", 50: "CC", 51: "CC", 52: "CC", 53: "BC", 54: "B", 55: "C", 56: "C",
	57: "BCC", 58: "BCC", 59: "CCC", 60: "CCC", 61: "CCC", 62: "CC", 63: "CC",
	64: "CC", 65: "CC", 66: "CC", 67: "C", 68: "CCC", 69: "CBCC", 70: "C", 71: "CCC",
	72: "CCBC", 73: "CC", 74: "BC", 75: "CBCCC", 76: "CC", 77: "CC", 78: "CCC",
	79: "CC", 80: "CB", 81: "CB", 82: "CB", 84: "C", 85: "C", 86: "BCCCCC", 87: "C",
	88: "C",
}

// swapper reverses the byte order of the fields it walks, in place in out.
type swapper struct {
	b     []byte
	p     int
	ok    bool
	outBE bool // the byte order of the result
}

func (s *swapper) raw(n int) {
	if !s.ok || s.p+n > len(s.b) {
		s.ok = false
		return
	}
	for i, j := s.p, s.p+n-1; i < j; i, j = i+1, j-1 {
		s.b[i], s.b[j] = s.b[j], s.b[i]
	}
	s.p += n
}

func (s *swapper) u8() uint8 {
	if !s.ok || s.p >= len(s.b) {
		s.ok = false
		return 0
	}
	s.p++
	return s.b[s.p-1]
}

// compressed swaps a compressed integer and returns its value, read in
// the result's byte order.
func (s *swapper) compressed() uint64 {
	n := int(s.u8())
	if !s.ok || n == 0 || n == 0xFF {
		if n == 0xFF {
			return undefined64
		}
		return 0
	}
	if n > 8 {
		s.ok = false
		return 0
	}
	start := s.p
	s.raw(n)
	if !s.ok {
		return 0
	}
	var v uint64
	if s.outBE {
		for i := 0; i < n; i++ {
			v = v<<8 | uint64(s.b[start+i])
		}
		return v
	}
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(s.b[start+i])
	}
	return v
}

// swapEvent returns a copy of an event record's payload with the byte
// order reversed; outBE is the byte order of the result. ok is false for
// record types whose layout is unknown or payloads that do not fit their
// layout (fields added by later versions); then the payload is returned
// unchanged.
func swapEvent(typ uint8, payload []byte, outBE bool) ([]byte, bool) {
	out := append([]byte(nil), payload...)
	s := &swapper{b: out, ok: true, outBE: outBE}
	switch typ {
	case 31: // Metric: metric C; count B; then per value: type B, value C
		s.compressed()
		n := int(s.u8())
		for i := 0; i < n && s.ok; i++ {
			s.u8()
			s.compressed()
		}
	case 83: // ProgramBegin: name C; count C; arguments C[count]
		s.compressed()
		n := s.compressed()
		for i := uint64(0); i < n && s.ok; i++ {
			s.compressed()
		}
	default:
		l := eventLayouts[typ]
		if l == "" {
			return payload, false
		}
		for _, f := range l {
			switch f {
			case 'B':
				s.u8()
			case 'C':
				s.compressed()
			case 'T':
				s.raw(8)
			}
		}
	}
	if !s.ok || s.p != len(s.b) {
		return payload, false
	}
	return out, true
}

// swapAttributeList returns a copy of an ATTRIBUTE_LIST payload with the
// byte order reversed: count C, then per entry id C, type B and a value
// whose encoding depends on the type.
func swapAttributeList(payload []byte, outBE bool) ([]byte, bool) {
	out := append([]byte(nil), payload...)
	s := &swapper{b: out, ok: true, outBE: outBE}
	n := s.compressed()
	for i := uint64(0); i < n && s.ok; i++ {
		s.compressed()
		switch s.u8() {
		case 1, 5: // uint8, int8
			s.u8()
		case 2, 6: // uint16, int16
			s.raw(2)
		case 9: // float
			s.raw(4)
		case 10: // double
			s.raw(8)
		default: // 32/64-bit integers and references: compressed
			s.compressed()
		}
	}
	if !s.ok || s.p != len(s.b) {
		return payload, false
	}
	return out, true
}
