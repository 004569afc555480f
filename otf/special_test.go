package otf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/internal/testenv"
)

// Every file of an archive that is a named pipe or a device is refused at
// once, naming the file: a FIFO blocked open(2) for ever, a symbolic link
// to /dev/zero was read without end.
func TestSpecialFilesAreRefused(t *testing.T) {
	for _, f := range []string{"traces.otf2", "traces.def", "traces/0.evt", "traces/1.def"} {
		for _, kind := range []string{testenv.SpecialFIFO, testenv.SpecialZero} {
			t.Run(f+" "+kind, func(t *testing.T) {
				dir := copyArchive(t)
				p := filepath.Join(dir, f)
				testenv.MakeSpecial(t, p, kind)
				err := readAll(dir)
				require.ErrorIs(t, err, infile.ErrNotRegular)
				assert.Contains(t, err.Error(), p)
			})
		}
	}
}

// An anchor file above MaxAnchorSize is refused before it is read.
func TestHugeAnchorIsRefused(t *testing.T) {
	dir := copyArchive(t)
	p := filepath.Join(dir, "traces.otf2")
	require.NoError(t, os.Truncate(p, MaxAnchorSize+1)) // sparse: no disk used
	_, err := Open(dir)
	require.ErrorIs(t, err, infile.ErrTooLarge)
	assert.True(t, strings.Contains(err.Error(), p), err.Error())
}
