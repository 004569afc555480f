package otf

// Byte-order conversion of record payloads the model keeps as they are
// (opaque event records and attribute lists). The model holds them in
// little-endian order whatever the source's byte order, so that a trace
// read from a big-endian archive can be written anywhere.

// swapEvent returns a copy of an event record's payload with the byte
// order reversed; outBE is the byte order of the result. ok is false for
// record types whose layout is unknown or payloads that do not fit their
// layout exactly (fields added by later versions); then the payload is
// returned unchanged.
func swapEvent(typ uint8, payload []byte, outBE bool) ([]byte, bool) {
	if !knownEvent[typ] {
		return payload, false
	}
	if eventLayouts[typ] == "" {
		return payload, len(payload) == 0
	}
	return swapLayout(eventLayouts[typ], payload, outBE)
}

// swapAttributeList returns a copy of an ATTRIBUTE_LIST payload with the
// byte order reversed: count c, then per entry id c, type b and a value
// whose encoding depends on the type.
func swapAttributeList(payload []byte, outBE bool) ([]byte, bool) {
	out := append([]byte(nil), payload...)
	w := layoutWalker{b: out, be: !outBE, swap: true}
	n := w.compressed(4)
	for i := uint64(0); i < n && w.err == nil; i++ {
		w.compressed(4)
		w.last = w.raw(1)
		w.field('v')
	}
	if w.err != nil || w.p != len(out) {
		return payload, false
	}
	return out, true
}
