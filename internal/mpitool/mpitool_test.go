package mpitool

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnv(t *testing.T) {
	assert.Equal(t, OpenMPI, FlavourOfEnv([]string{"A=1", "OMPI_COMM_WORLD_RANK=3"}), "FlavourOfEnv, Open MPI")
	assert.Equal(t, MPICH, FlavourOfEnv([]string{"PMI_RANK=2"}), "FlavourOfEnv, MPICH")
	assert.Equal(t, Flavour(""), FlavourOfEnv([]string{"SLURM_PROCID=2"}), "FlavourOfEnv, srun alone")
	assert.Equal(t, 2, RankOfEnv([]string{"PMI_RANK=2"}), "RankOfEnv")
	assert.Equal(t, 5, RankOfEnv([]string{"PMIX_RANK=5"}), "RankOfEnv, PMIx")
	assert.Equal(t, -1, RankOfEnv([]string{"SLURM_PROCID=1"}), "RankOfEnv: a batch script is no launched process (clc-trace -- srun ./app there)")
	assert.Equal(t, 3, RankOfEnv([]string{"SLURM_PROCID=1", "OMPI_COMM_WORLD_RANK=3"}), "RankOfEnv: the MPI's variable")
	assert.Equal(t, 1, StepRankOfEnv([]string{"SLURM_PROCID=1", "SLURM_STEP_NUM_TASKS=2"}), "StepRankOfEnv, srun")
	assert.Equal(t, -1, StepRankOfEnv([]string{"SLURM_PROCID=0", "SLURM_NTASKS=2"}), "StepRankOfEnv in a batch script")
	assert.Equal(t, -1, RankOfEnv([]string{"HOME=/"}), "RankOfEnv without launcher")
	assert.Equal(t, 4, SizeOfEnv([]string{"OMPI_COMM_WORLD_SIZE=4"}), "SizeOfEnv, Open MPI")
	assert.Equal(t, 3, SizeOfEnv([]string{"PMI_SIZE=3"}), "SizeOfEnv, MPICH")
	assert.Equal(t, 2, SizeOfEnv([]string{"SLURM_NTASKS=2", "SLURM_STEP_NUM_TASKS=2", "PMIX_RANK=0"}), "SizeOfEnv, srun with PMIx")
	assert.Equal(t, 0, SizeOfEnv([]string{"SLURM_NTASKS=2", "SLURM_PROCID=0"}), "SizeOfEnv in a batch script: no step")
	assert.Equal(t, 0, SizeOfEnv([]string{"PMI_SIZE=x", "HOME=/"}), "SizeOfEnv without launcher")
}

func TestHeaderOf(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mpi.h"), []byte("#define MPI_VERSION 3\n#define MPICH_VERSION \"4.0.2\"\n"), 0o644))
	h := headerOf("gcc -I/nonexistent -I" + dir + " -lmpich")
	assert.Contains(t, h, `MPICH_VERSION="4.0.2"`)
	assert.Contains(t, h, filepath.Join(dir, "mpi.h"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mpi.h"), []byte("#define MPI_VERSION 3\n#define MPICH_VERSION \"4.0.3\"\n"), 0o644))
	assert.NotEqual(t, h, headerOf("gcc -I"+dir), "another mpi.h, another identity")
}

// Concurrent callers build once, and every one gets the file; a failed
// build leaves nothing in the cache.
func TestCached(t *testing.T) {
	cache := t.TempDir()
	c := &Compiler{Path: "/bin/true", Flavour: MPICH, Show: "gcc -lmpich"}
	src := fstest.MapFS{"a.c": {Data: []byte("int a;")}, "b.h": {Data: []byte("")}, "x.txt": {Data: []byte("no")}}
	key, err := Key("test 1", src, c)
	require.NoError(t, err)
	var builds atomic.Int32
	var wg sync.WaitGroup
	paths := make([]string, 8)
	for i := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := Cached(cache, c, key, "out", nil, func(tmp string) error {
				builds.Add(1)
				names, err := WriteSources(src, tmp)
				if err != nil {
					return err
				}
				assert.Equal(t, []string{"a.c"}, names)
				return os.WriteFile(filepath.Join(tmp, "out"), []byte("built"), 0o644)
			})
			assert.NoError(t, err)
			paths[i] = p
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, builds.Load(), "builds")
	for _, p := range paths {
		assert.Equal(t, filepath.Join(cache, "mpich-"+key, "out"), p)
	}
	other, err := Key("test 1", fstest.MapFS{"a.c": {Data: []byte("int b;")}}, c)
	require.NoError(t, err)
	assert.NotEqual(t, key, other, "another source, another key")
	c2 := *c
	c2.Header = "mpi.h 2"
	other, err = Key("test 1", src, &c2)
	require.NoError(t, err)
	assert.NotEqual(t, key, other, "another mpi.h, another key")

	_, err = Cached(cache, c, other, "out", nil, func(tmp string) error { return errors.New("compiler said no") })
	assert.ErrorContains(t, err, "compiler said no")
	_, err = os.Stat(filepath.Join(cache, "mpich-"+other))
	assert.ErrorIs(t, err, os.ErrNotExist, "a failed build leaves nothing")
	_, err = Cached(cache, c, other, "out", nil, func(tmp string) error { return nil })
	assert.ErrorContains(t, err, "made no out")
}
