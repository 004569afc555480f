package trace

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// fuzzLimits are the definitions fuzzed payloads are checked against.
func fuzzLimits() *refLimits { return &refLimits{regions: 4, commSize: []uint64{0, 1, 3}} }

// FuzzDecodeRecords decodes arbitrary raw block payloads. It must never
// panic; whatever decodes must be consistent and re-encode to exactly the
// same bytes (the encoding is canonical: shortest varints, no slack).
func FuzzDecodeRecords(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	tr := smallTrace()
	for _, l := range tr.Locations {
		raw, err := encodeAll(&l.Events)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, uint32(l.Events.Len()))
	}
	for range 20 {
		rt := randTrace(rng)
		for _, l := range rt.Locations {
			if l.Events.Len() > 0 && l.Events.Len() < 100 {
				raw, err := encodeAll(&l.Events)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(raw, uint32(l.Events.Len()))
			}
		}
	}
	f.Add([]byte{1, 0, 0}, uint32(1))
	f.Fuzz(func(t *testing.T, raw []byte, n uint32) {
		// Block headers guarantee N <= R/2; stay within that.
		nn := int(n % uint32(len(raw)/2+2))
		var e Events
		var ar arena
		lim := fuzzLimits()
		err := decodeRecords(raw, nn, &e, lim, &ar)
		if err != nil {
			var de *decodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *decodeError", err)
			}
			if de.off < 0 || de.off > len(raw) {
				t.Fatalf("error offset %d outside [0,%d]", de.off, len(raw))
			}
			return
		}
		if e.Len() != nn {
			t.Fatalf("decoded %d events, want %d", e.Len(), nn)
		}
		if err := e.check(); err != nil {
			t.Fatalf("decoded events inconsistent: %v", err)
		}
		again, err := encodeAll(&e)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		if string(again) != string(raw) {
			t.Fatalf("re-encoding differs:\n got % x\nwant % x", again, raw)
		}
	})
}

// fixCRCs recomputes the file header CRC and the CRC of every block whose
// header lies within data, so the fuzzer can reach past the checksums.
// It reports false if a block claims a raw length above 1 MiB (to keep
// fuzzing fast; the limit itself is tested elsewhere).
func fixCRCs(data []byte) bool {
	if len(data) < fileHeaderSize {
		return true
	}
	binary.LittleEndian.PutUint32(data[28:], crc32.Checksum(data[:28], castagnoli))
	for off := fileHeaderSize; len(data)-off >= blockHeaderSize; {
		h := data[off : off+blockHeaderSize]
		s := int(binary.LittleEndian.Uint32(h[8:]))
		if binary.LittleEndian.Uint32(h[12:]) > 1<<20 {
			return false
		}
		if s > len(data)-off-blockHeaderSize {
			break
		}
		binary.LittleEndian.PutUint32(h[20:], blockCRC(h, data[off+blockHeaderSize:off+blockHeaderSize+s]))
		off += blockHeaderSize + s
	}
	return true
}

// FuzzDecodeStream decodes arbitrary stream files (optionally with their
// checksums repaired). It must never panic, every error must be a
// *FormatError, and whatever decodes must be consistent.
func FuzzDecodeStream(f *testing.F) {
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		dir := f.TempDir()
		out := filepath.Join(dir, "tr")
		if err := WriteDir(out, smallTrace(), &WriteOptions{Codec: codec, BlockSize: 150}); err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(out, EventsDirName, "0"+StreamExt))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, false, true)
		f.Add(data[:len(data)-3], true, false)
	}
	f.Add(streamHeader(0), false, true)
	dec, err := newDecoder(1)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, fix, complete bool) {
		if fix && !fixCRCs(data) {
			return
		}
		var e Events
		e.AppendCollBegin(-1) // decoding appends after existing events
		_, err := decodeStream(data, 0, complete, fuzzLimits(), dec, &e)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if fe.Location != 0 || fe.Path == "" {
				t.Fatalf("error %v does not name the stream", err)
			}
			if e.Len() < 1 || e.Kind[0] != KindCollBegin {
				t.Fatal("decoding destroyed existing events")
			}
			return
		}
		if err := e.check(); err != nil {
			t.Fatalf("decoded events inconsistent: %v", err)
		}
	})
}

// FuzzParseManifest decodes arbitrary manifests: never a panic, every
// error a *FormatError naming the file, and what is accepted is valid.
func FuzzParseManifest(f *testing.F) {
	for _, dir := range []string{"testdata/native/small-none", "testdata/native/small-zstd"} {
		data, err := os.ReadFile(filepath.Join(dir, ManifestName))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"format":"clc-native","version":1,"complete":false,"timer_resolution":1,"locations":[{"id":0,"node":0}],"nodes":[{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest("clc.json", data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Path != "clc.json" {
				t.Fatalf("error %v is not a *FormatError naming clc.json", err)
			}
			return
		}
		if err := m.defs.Validate(); err != nil {
			t.Fatalf("accepted an invalid manifest: %v", err)
		}
		if len(m.counts) != len(m.defs.Locations) {
			t.Fatal("counts and locations differ")
		}
		for _, c := range m.counts {
			if c < -1 || c > MaxEvents || (m.complete && c < 0) {
				t.Fatalf("bad count %d", c)
			}
		}
	})
}
