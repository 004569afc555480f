package truthfile

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

func TestRead(t *testing.T) {
	d := t.TempDir()
	p := filepath.Join(d, Name)
	require.NoError(t, os.WriteFile(p, []byte(`{"resolution": 1000, "7": [1, 2], "9": []}`), 0o644))
	tt, err := Read(p, 1000, []uint64{7, 9}, []int{2, 0})
	require.NoError(t, err)
	assert.Equal(t, [][]int64{{1, 2}, {}}, tt)
	_, err = Read(p, 1000, []uint64{7, 9}, []int{3, 0})
	require.ErrorContains(t, err, "location 7 has 2 times for 3 events")
}

// A truth file is read only if it is a regular file (a named pipe blocked
// the read for ever) and of a size the times can take (issue 26).
func TestReadRefusesSpecialAndOversizedFiles(t *testing.T) {
	d := t.TempDir()
	fifo := filepath.Join(d, "fifo.json")
	testenv.MakeSpecial(t, fifo, testenv.SpecialFIFO)
	_, err := Read(fifo, 1000, []uint64{0}, []int{1})
	require.ErrorIs(t, err, infile.ErrNotRegular)
	big := filepath.Join(d, Name)
	require.NoError(t, os.WriteFile(big, []byte(`{"resolution": 1000, "0": [1]`+strings.Repeat(" ", 2<<20)+`}`), 0o644))
	_, err = Read(big, 1000, []uint64{0}, []int{1})
	require.ErrorIs(t, err, infile.ErrTooLarge)
	assert.Contains(t, err.Error(), big)
}
