package native

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// decodeLocations decodes the elements of a piece of the manifest's
// locations array (the elements between the brackets, commas between
// them) into out, for the shape the writers make: the known keys in lower
// case, each once; numbers that fit their fields; strings without escapes
// or control characters, in valid UTF-8. It reports false on anything
// else, and the caller then has encoding/json decode the piece: what it
// returns with true is what json.Unmarshal gives, in a third of the time.
func decodeLocations(data []byte, out *[]jsonLocation) bool {
	d := fastDec{b: data}
	for {
		var l jsonLocation
		if !d.location(&l) {
			return false
		}
		*out = append(*out, l)
		d.space()
		if d.i == len(d.b) {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// fastDec is decodeLocations' cursor.
type fastDec struct {
	b []byte
	i int
}

func (d *fastDec) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte skips white space and then c, if it is there.
func (d *fastDec) byte(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object decodes an object whose members field decodes, by key; a key
// that comes twice, or a ninth key (more than any of the manifest's
// objects has), gives up.
func (d *fastDec) object(field func(key string) bool) bool {
	if !d.byte('{') {
		return false
	}
	if d.byte('}') {
		return true
	}
	var seen [8]string
	n := 0
	for {
		key, ok := d.str()
		if !ok || !d.byte(':') || n == len(seen) {
			return false
		}
		for _, k := range seen[:n] {
			if k == key {
				return false
			}
		}
		seen[n] = key
		n++
		d.space()
		if !field(key) {
			return false
		}
		if d.byte('}') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// array decodes an array whose elements elem decodes.
func (d *fastDec) array(elem func() bool) bool {
	if !d.byte('[') {
		return false
	}
	if d.byte(']') {
		return true
	}
	for {
		d.space()
		if !elem() {
			return false
		}
		if d.byte(']') {
			return true
		}
		if !d.byte(',') {
			return false
		}
	}
}

// str decodes a string without escapes or control characters, in valid
// UTF-8.
func (d *fastDec) str() (string, bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := d.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			d.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// number returns the next JSON number's text, checked against JSON's
// grammar.
func (d *fastDec) number() ([]byte, bool) {
	b, i := d.b, d.i
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	d.i = i
	return b[start:i], true
}

// integer decodes a number that is an integer within [lo, hi], written
// without fraction or exponent (anything else goes to encoding/json,
// which refuses or rounds it as it does).
func (d *fastDec) integer(lo, hi int64) (int64, bool) {
	s, ok := d.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, false
	}
	return v, true
}

// uinteger decodes a number that is a non-negative integer without
// fraction or exponent.
func (d *fastDec) uinteger() (uint64, bool) {
	s, ok := d.number()
	if !ok || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s), 10, 64)
	return v, err == nil
}

// location decodes one element of the locations array.
func (d *fastDec) location(l *jsonLocation) bool {
	return d.object(func(key string) bool {
		var ok bool
		switch key {
		case "id":
			var v uint64
			v, ok = d.uinteger()
			l.ID = &v
		case "name":
			l.Name, ok = d.str()
		case "node", "process":
			var v int64
			v, ok = d.integer(math.MinInt32, math.MaxInt32)
			n := int32(v)
			if key == "node" {
				l.Node = &n
			} else {
				l.Process = &n
			}
		case "kind":
			l.Kind, ok = d.str()
		case "events":
			var v uint64
			v, ok = d.uinteger()
			l.Events = &v
		case "offsets":
			l.Offsets = []jsonOffset{}
			ok = d.array(func() bool {
				var o jsonOffset
				l.Offsets = append(l.Offsets, o)
				return d.offset(&l.Offsets[len(l.Offsets)-1])
			})
		case "extents":
			ext := []jsonExtent{}
			ok = d.array(func() bool {
				var e jsonExtent
				ext = append(ext, e)
				return d.extent(&ext[len(ext)-1])
			})
			l.Extents = &ext
		}
		return ok
	})
}

// offset decodes a clock offset record.
func (d *fastDec) offset(o *jsonOffset) bool {
	return d.object(func(key string) bool {
		var ok bool
		switch key {
		case "time":
			o.Time, ok = d.integer(math.MinInt64, math.MaxInt64)
		case "offset":
			o.Offset, ok = d.integer(math.MinInt64, math.MaxInt64)
		case "rtt":
			o.RTT, ok = d.integer(math.MinInt64, math.MaxInt64)
		case "stddev":
			var s []byte
			if s, ok = d.number(); ok {
				var err error
				o.StdDev, err = strconv.ParseFloat(string(s), 64)
				ok = err == nil
			}
		}
		return ok
	})
}

// extent decodes an extent of a bundle file.
func (d *fastDec) extent(e *jsonExtent) bool {
	return d.object(func(key string) bool {
		var ok bool
		switch key {
		case "file":
			e.File, ok = d.str()
		case "offset", "length":
			var v uint64
			v, ok = d.uinteger()
			if key == "offset" {
				e.Offset = &v
			} else {
				e.Length = &v
			}
		}
		return ok
	})
}
