package native

import (
	"bytes"
	"encoding/json"

	"github.com/clc-tools/clc/internal/par"
)

// parallelManifestBytes is the manifest size from which decodeManifest
// decodes the locations in parallel: below it one json.Unmarshal is as
// fast (a manifest grows by about 290 bytes per location: 65,536
// locations make 19 MB, which encoding/json decodes in 0.6 s).
const parallelManifestBytes = 1 << 20

// decodeManifest unmarshals the manifest data into m as json.Unmarshal
// does. From minBytes on, the "locations" array is cut at its elements
// into pieces that np goroutines decode at once, and the rest of the
// document apart. Whenever that does not go through (no single top-level
// "locations" array, a piece that does not decode), it decodes the whole
// document with json.Unmarshal, whose error then names the place.
func decodeManifest(data []byte, m *jsonManifest, np, minBytes int) error {
	if len(data) >= minBytes && np > 1 {
		if ok := decodeSplit(data, m, np); ok {
			return nil
		}
		*m = jsonManifest{}
	}
	return json.Unmarshal(data, m)
}

// decodeSplit is decodeManifest's parallel path; it reports whether it
// decoded everything.
func decodeSplit(data []byte, m *jsonManifest, np int) bool {
	lo, hi, commas, ok := locationsArray(data)
	if !ok || len(commas) == 0 {
		return false
	}
	// Pieces of whole elements: element k lies between bounds[k] and
	// bounds[k+1] (the array's brackets and the commas between elements).
	bounds := make([]int, 0, len(commas)+2)
	bounds = append(bounds, lo)
	bounds = append(bounds, commas...)
	bounds = append(bounds, hi-1)
	elems := len(bounds) - 1
	pieces := min(elems, 4*np)
	parts := make([][]jsonLocation, pieces)
	errs := make([]error, pieces+1)
	for i := range pieces {
		// "[]" would accept a piece that is one empty element (",,").
		if a, b := bounds[i*elems/pieces], bounds[(i+1)*elems/pieces]; skipSpace(data, a+1) >= b {
			return false
		}
	}
	par.ForEach(pieces+1, np, func(i int) {
		if i == pieces {
			// The document with an empty array in place of the locations.
			rest := make([]byte, 0, len(data)-(hi-lo)+2)
			rest = append(append(append(rest, data[:lo]...), "[]"...), data[hi:]...)
			errs[i] = json.Unmarshal(rest, m)
			return
		}
		a, b := bounds[i*elems/pieces], bounds[(i+1)*elems/pieces]
		if decodeLocations(data[a+1:b], &parts[i]) {
			return
		}
		parts[i] = nil
		piece := make([]byte, 0, b-a+1)
		piece = append(append(append(piece, '['), data[a+1:b]...), ']')
		errs[i] = json.Unmarshal(piece, &parts[i])
	})
	for _, err := range errs {
		if err != nil {
			return false
		}
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	m.Locations = make([]jsonLocation, 0, n)
	for _, p := range parts {
		m.Locations = append(m.Locations, p...)
	}
	return true
}

// locationsArray finds the value of the top-level key "locations" of the
// JSON object in data when it is an array, the key appears once (in any
// case) and no top-level key has an escape: the array's extent [lo, hi) (brackets
// included) and the offsets of the commas between its elements. It
// checks no more of the syntax than it needs to find them.
func locationsArray(data []byte) (lo, hi int, commas []int, ok bool) {
	depth := 0
	lo, hi = -1, -1
	inArray := false // inside the locations array
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return 0, 0, nil, false
			}
			if depth == 1 && isKey(data, end) && bytes.IndexByte(data[i+1:end-1], '\\') >= 0 {
				// A key with an escape may or may not be "locations":
				// json.Unmarshal decides.
				return 0, 0, nil, false
			}
			if depth == 1 && isKey(data, end) && isLocationsKey(data[i+1:end-1]) {
				if lo >= 0 {
					return 0, 0, nil, false // a second "locations"
				}
				v := skipSpace(data, skipSpace(data, end)+1)
				if v >= len(data) || data[v] != '[' {
					return 0, 0, nil, false
				}
				lo, inArray = v, true
				depth++
				end = v + 1
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if inArray && depth == 1 {
				if c != ']' {
					return 0, 0, nil, false // the array closed by a brace
				}
				hi, inArray = i+1, false
			}
			if depth < 0 {
				return 0, 0, nil, false
			}
		case ',':
			if inArray && depth == 2 {
				commas = append(commas, i)
			}
		}
	}
	return lo, hi, commas, lo >= 0 && hi > lo && depth == 0
}

// isLocationsKey reports whether the key (between its quotes, without
// escapes) names the locations field as encoding/json matches keys
// (ignoring case, Unicode folds included).
func isLocationsKey(key []byte) bool {
	return bytes.EqualFold(key, []byte("locations"))
}

// stringEnd returns the offset just past the string that starts with the
// quote at data[i], or −1 if it does not end.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// isKey reports whether the string ending before data[end] is an object
// key: a colon follows it.
func isKey(data []byte, end int) bool {
	j := skipSpace(data, end)
	return j < len(data) && data[j] == ':'
}

// skipSpace returns the offset of the first byte at or after i that is
// not JSON white space.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
