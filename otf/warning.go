package otf

import (
	"fmt"
	"sort"
	"sync"
)

// A Warning is something the reader found wrong in an archive but read past,
// as the reference reader (the OTF2 library, otf2-print) does: a duplicate
// definition (the first one counts), a Location definition whose event count
// differs from its event file (the file counts), an anchor whose location
// count differs from the definitions. File is relative to the archive
// directory; Offset is the byte offset of the record concerned.
type Warning struct {
	File   string
	Offset int64
	Msg    string
}

// String returns "FILE: byte offset N: message".
func (w Warning) String() string {
	return fmt.Sprintf("%s: byte offset %d: %s", w.File, w.Offset, w.Msg)
}

// warnings collects warnings from concurrent readers.
// A warning given twice (by a second Read) is kept once.
type warnings struct {
	mu   sync.Mutex
	list []Warning
	seen map[Warning]bool
}

func (w *warnings) add(file string, off int64, format string, args ...any) {
	x := Warning{File: file, Offset: off, Msg: fmt.Sprintf(format, args...)}
	w.mu.Lock()
	if !w.seen[x] {
		if w.seen == nil {
			w.seen = map[Warning]bool{}
		}
		w.seen[x] = true
		w.list = append(w.list, x)
	}
	w.mu.Unlock()
}

// sorted returns a copy of the warnings ordered by file and offset.
func (w *warnings) sorted() []Warning {
	w.mu.Lock()
	out := append([]Warning(nil), w.list...)
	w.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Offset < out[j].Offset
	})
	return out
}
