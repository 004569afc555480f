package otf

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeLocalDefs replaces a location's local definition file with mapping
// tables (type, then sparse local→global pairs).
func writeLocalDefs(t *testing.T, path string, dense bool, tables map[uint8][][2]uint64) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	cw := newChunkWriter("test.def", f, MinChunkSize, false, false, nil)
	for _, typ := range []uint8{mapRegion, mapComm} {
		pairs, ok := tables[typ]
		if !ok {
			continue
		}
		e := enc{}
		e.u8(typ)
		e.u64c(uint64(len(pairs)))
		if dense {
			e.u8(0)
			for i, p := range pairs {
				require.Equal(t, uint64(i), p[0], "dense tables list local ids 0, 1, …")
				e.u64c(p[1])
			}
		} else {
			e.u8(1)
			for _, p := range pairs {
				e.u64c(p[0])
				e.u64c(p[1])
			}
		}
		require.NoError(t, cw.def(defMappingTable, e.b))
	}
	require.NoError(t, cw.close())
}

// MappingTables (dense and sparse, for regions and communicators): the
// events of a location whose local ids are remapped read as the reference
// library reads them.
func TestMappingTables(t *testing.T) {
	for _, dense := range []bool{true, false} {
		t.Run("dense="+strconv.FormatBool(dense), func(t *testing.T) {
			dir := genRef(t, 20)
			// Location 1: local regions 0 and 1 swap (main ↔ MPI_Init), local
			// region 2 is global 5; communicators 0 and 1 swap (world ↔ odd).
			regions := [][2]uint64{{0, 1}, {1, 0}, {2, 5}}
			comms := [][2]uint64{{0, 1}, {1, 0}}
			writeLocalDefs(t, filepath.Join(dir, "traces", "4294967297.def"), dense, map[uint8][][2]uint64{mapRegion: regions, mapComm: comms})
			a, err := Open(dir)
			require.NoError(t, err)
			tr, err := a.Read(context.Background(), nil)
			require.NoError(t, err)
			want := pyDump(t, filepath.Join(dir, "traces.otf2"))
			got := modelLines(tr)
			require.Equal(t, len(want), len(got))
			for i := range want {
				require.Equal(t, want[i], got[i], "event line %d", i)
			}
			// The table did act: location 1 enters "main" first, which its
			// local id 0 now names MPI_Init.
			for _, l := range got {
				if strings.HasPrefix(l, "4294967297 ") && strings.Contains(l, " Enter ") {
					require.Contains(t, l, "Enter MPI_Init")
					break
				}
			}
		})
	}
}
