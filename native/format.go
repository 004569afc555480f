package native

import (
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/clc-tools/clc/internal/par"

	"github.com/clc-tools/clc/trace"
)

// This file holds what the native format's encoder, decoder and directory
// code share: constants of docs/format.md, options and errors.

// Codec selects the block compression of the native format.
type Codec uint8

// Block codecs (docs/format.md, "Block").
const (
	// CodecNone stores blocks as they are.
	CodecNone Codec = 0
	// CodecZstd compresses each block as one zstd frame (RFC 8878).
	CodecZstd Codec = 1
)

// String returns "none" or "zstd".
func (c Codec) String() string {
	switch c {
	case CodecNone:
		return "none"
	case CodecZstd:
		return "zstd"
	}
	return fmt.Sprintf("codec(%d)", uint8(c))
}

// Native format constants (docs/format.md).
const (
	// NativeFormat is the manifest's "format" field.
	NativeFormat = "clc-native"
	// NativeVersion is the newest manifest version this package reads and
	// writes. Version 2 adds bundles (locations whose streams are extents of
	// shared files); version 3 adds processes, location kinds, region roles
	// and paradigms, communicator paradigms and the thread records; version
	// 4 adds the data of the source format a trace carries (CarriedName).
	// Writers write the lowest version that holds the trace (1 for an MPI
	// trace without bundles, byte for byte as before), and readers read all
	// four (docs/format.md, "Versions").
	NativeVersion = 4
	// nativeVersion1 is the manifest version of traces without bundles.
	nativeVersion1 = 1
	// nativeVersion2 is the manifest version of bundled MPI traces.
	nativeVersion2 = 2
	// nativeVersion3 is the manifest version of hybrid traces.
	nativeVersion3 = 3
	// streamVersion is the version in every stream header, of per-location
	// files and extents alike (the stream encoding is that of version 1).
	streamVersion = 1
	// ManifestName is the manifest's file name inside a native trace directory.
	ManifestName = "clc.json"
	// EventsDirName is the directory of the stream files inside a native trace directory.
	EventsDirName = "events"
	// StreamExt is the extension of a stream file (events/<i>.clce).
	StreamExt = ".clce"
	// BundleExt is the extension of the bundle files Go writers write
	// (events/bundle-<k>.clcb); readers accept any name the manifest gives
	// (docs/format.md, "Bundles").
	BundleExt = ".clcb"
	// BundleThreshold is the number of locations up to which writers write
	// one stream file per location when WriteOptions.Bundles is 0; above
	// it they group the streams into bundles (chosen by measurement,
	// docs/format.md "Performance").
	BundleThreshold = 64
	// maxBundles bounds the number of bundle files a writer writes (and
	// keeps open until Close).
	maxBundles = 64

	fileHeaderSize  = 32
	blockHeaderSize = 24
	// maxBlockBytes bounds both the stored and the raw length of a block.
	maxBlockBytes = 64 << 20
	// maxManifestBytes bounds the size of clc.json a reader accepts.
	maxManifestBytes = 1 << 30

	// DefaultBlockSize is the raw block size writers use when
	// WriteOptions.BlockSize is 0 and the trace has at most
	// blockMemoryBudget/DefaultBlockSize locations (chosen by measurement,
	// docs/format.md "Performance").
	DefaultBlockSize = 256 << 10
	// MaxBlockSize is the largest WriteOptions.BlockSize accepted.
	MaxBlockSize = 16 << 20
	// minAutoBlockSize is the smallest block size chosen automatically for
	// traces with very many locations.
	minAutoBlockSize = 16 << 10
	// blockMemoryBudget bounds locations × block size when the block size
	// is chosen automatically, so a writer's buffers stay below it.
	blockMemoryBudget = 4 << 30

	// kindAttachment is the record kind of an attachment (not an event).
	kindAttachment = 255
)

var (
	streamMagic = [8]byte{0x89, 'C', 'L', 'C', 'E', 'V', 'T', '\n'}
	blockMagic  = [4]byte{'C', 'L', 'C', 'B'}
	castagnoli  = crc32.MakeTable(crc32.Castagnoli)
)

// WriteOptions tunes the native writers. A nil *WriteOptions means the
// defaults.
type WriteOptions struct {
	// Codec is the block compression. Its zero value is CodecNone: a
	// non-nil WriteOptions that leaves Codec unset writes uncompressed
	// blocks. Start from DefaultWriteOptions (or pass nil) for zstd.
	Codec Codec
	// Level is the zstd level (klauspost zstd.EncoderLevel: 1 fastest,
	// 2 default, 3 better, 4 best); 0 means 1, chosen by measurement.
	Level int
	// BlockSize is the number of raw bytes per block; 0 means
	// DefaultBlockSize, reduced for traces with very many locations so
	// that locations × BlockSize stays under 4 GiB (but not below 16 KiB).
	BlockSize int
	// Parallel is the number of files written at once; 0 means GOMAXPROCS.
	Parallel int
	// Bundles is the number of bundle files the streams are grouped into
	// (docs/format.md, "Bundles"). 0 chooses: one file per location up to
	// BundleThreshold locations, above that one bundle per BundleThreshold
	// locations (at least 8, at most 64), whatever Parallel is, so the
	// layout does not depend on the machine. A negative value writes one file per location
	// however many there are; a positive value asks for that many bundles
	// (at most one per location and 64). A trace with bundles has manifest
	// version 2.
	Bundles int
}

// DefaultWriteOptions returns the options a nil *WriteOptions stands for:
// zstd at the fastest level, the default block size, GOMAXPROCS files at once.
func DefaultWriteOptions() *WriteOptions {
	return &WriteOptions{Codec: CodecZstd}
}

// ReadOptions tunes ReadDir and a DirReader's reads (trace.ReadOptions,
// the options of every trace.Source). A nil *ReadOptions means the
// defaults.
type ReadOptions = trace.ReadOptions

func parallelism(n int) int {
	return par.Workers(n)
}

// FormatError is every error the native reader returns about the content of
// a trace (and the writer about events it cannot encode). It names the file
// and, where known, the byte offset, location, block and event; unknown
// fields are -1.
type FormatError struct {
	// Path is the file, as the caller named the directory joined with the
	// file's name inside it.
	Path string
	// Offset is the byte offset in the file: of the block for errors inside
	// a block, of the JSON token for manifest errors.
	Offset int64
	// Location is the location index.
	Location int
	// Block is the block index within the stream, counting from 0.
	Block int
	// Event is the event index within the location, counting from 0.
	Event int64
	Err   error
}

// Error returns "path: location L: block B (byte offset O): event E: err",
// leaving out what is unknown.
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Location >= 0 {
		fmt.Fprintf(&b, ": location %d", e.Location)
	}
	if e.Block >= 0 {
		fmt.Fprintf(&b, ": block %d", e.Block)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " (byte offset %d)", e.Offset)
	}
	if e.Event >= 0 {
		fmt.Fprintf(&b, ": event %d", e.Event)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("format error")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }

// Errors wrapped by FormatError for the common kinds of damage.
var (
	// ErrChecksum is a CRC mismatch.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrTruncated is a file that ends inside a header or block.
	ErrTruncated = errors.New("truncated")
)

func formatErr(path string, off int64, loc, block int, event int64, format string, args ...any) *FormatError {
	return &FormatError{Path: path, Offset: off, Location: loc, Block: block, Event: event, Err: fmt.Errorf(format, args...)}
}
