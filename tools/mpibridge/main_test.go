package main

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
)

// TestMain runs a rank when the driver started the test binary as one.
func TestMain(m *testing.M) {
	if workerFromEnv() {
		return
	}
	os.Exit(m.Run())
}

// Under both MPIs, two ranks' Go processes make MPI calls through their
// helpers: the ranks check the allreduce's sum and every byte of the
// all-to-all, and rank 0 reports every figure.
func TestBridge(t *testing.T) {
	for _, fl := range flavours {
		t.Run(fl.name, func(t *testing.T) {
			for _, tool := range []string{fl.mpicc, fl.mpirun} {
				if _, err := exec.LookPath(tool); err != nil {
					testenv.Unavailable(t, "libopenmpi-dev openmpi-bin libmpich-dev mpich", "%s not found", tool)
				}
			}
			res, err := drive(context.Background(), &fl, 2, 20, 4096)
			require.NoError(t, err)
			for k, v := range res {
				assert.Positive(t, v, k)
			}
		})
	}
}
