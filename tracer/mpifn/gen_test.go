package mpifn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedUpToDate: the committed sources of the PMPI library are what
// the table generates (run go generate ./cmd/clc-trace after editing
// functions.tbl or the generator).
func TestGeneratedUpToDate(t *testing.T) {
	files, err := Generate()
	require.NoError(t, err)
	for name, want := range files {
		path := filepath.Join("..", "..", "cmd", "clc-trace", "pmpi", name)
		got, err := os.ReadFile(path)
		if !assert.NoError(t, err, "%s (run go generate ./cmd/clc-trace)", path) {
			continue
		}
		assert.True(t, bytes.Equal(got, want), "%s is out of date: run go generate ./cmd/clc-trace", path)
	}
}

// TestResolve maps every name Open MPI and MPICH export for a function to
// it, and nothing else.
func TestResolve(t *testing.T) {
	for sym, want := range map[string]string{
		"MPI_Send": "MPI_Send", "PMPI_Send": "MPI_Send", "mpi_send_": "MPI_Send", "mpi_send__": "MPI_Send",
		"MPI_SEND": "MPI_Send", "mpi_send": "MPI_Send", "pmpi_send_": "MPI_Send", "mpi_send_f08_": "MPI_Send",
		"mpi_send_f08ts_": "MPI_Send", "ompi_send_f": "MPI_Send", "MPI_Send_c": "MPI_Send_c",
		"MPI_Ialltoallw": "MPI_Ialltoallw", "MPI_Comm_spawn": "MPI_Comm_spawn", "MPI_Isendrecv@MPI_4.0": "MPI_Isendrecv",
	} {
		r, ok := Resolve(sym)
		if assert.True(t, ok, "Resolve(%q) resolves", sym) {
			assert.Equal(t, want, r.Name, "Resolve(%q)", sym)
		}
	}
	for _, sym := range []string{"MPI_Type_size", "MPI_Wtime", "malloc", "mpi_fortran_in_place_", "ompi_mpi_comm_world", "MPI_Sendx"} {
		r, ok := Resolve(sym)
		assert.False(t, ok, "Resolve(%q) = %q, want nothing", sym, r.Name)
	}
	r, _ := Resolve("MPI_Send_c")
	assert.True(t, r.LargeCount, "MPI_Send_c is a large-count variant")
}

// TestTable checks what the table promises: every group of MPI-3.1 the
// issue names is covered, the hooks only use parameters of their function
// (the generator converts them for Fortran), and bad tables are refused.
func TestTable(t *testing.T) {
	need := []string{
		// point to point, probes, completion
		"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Ibsend", "MPI_Irsend",
		"MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Send_init", "MPI_Recv_init", "MPI_Start",
		"MPI_Startall", "MPI_Probe", "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv", "MPI_Wait",
		"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
		"MPI_Request_get_status", "MPI_Cancel", "MPI_Request_free",
		// communicators, groups, topologies
		"MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_create", "MPI_Comm_free", "MPI_Group_incl", "MPI_Cart_create",
		"MPI_Dist_graph_create_adjacent", "MPI_Intercomm_merge",
	}
	for _, c := range []string{"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
		"alltoall", "alltoallv", "alltoallw", "allreduce", "reduce", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"} {
		name := strings.ToUpper(c[:1]) + c[1:]
		need = append(need, "MPI_"+name, "MPI_I"+c)
	}
	for _, c := range []string{"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"} {
		need = append(need, "MPI_Neighbor_"+c, "MPI_Ineighbor_"+c)
	}
	for _, n := range need {
		f := Lookup(n)
		if !assert.NotNil(t, f, "%s is in the table", n) || !assert.True(t, f.Recorded, "%s is recorded", n) {
			continue
		}
		assert.True(t, f.Fortran() || f.Special, "%s has a Fortran wrapper", n)
	}
	for _, f := range Funcs() {
		if !f.Recorded {
			continue
		}
		for id := range idents(f.Pre, f.Post) {
			if strings.HasPrefix(id, "h_") || strings.HasPrefix(id, "b_") || strings.HasPrefix(id, "clc_") || strings.HasPrefix(id, "OP_") ||
				strings.HasPrefix(id, "MPI_") || id == "t0" || id == "t1" || id == "rc" || id == "h" || id == "mc" || id == "NULL" || id == "const" {
				continue
			}
			assert.NotNil(t, f.param(id), "%s (line %d): the hooks use %s, which is no parameter", f.Name, f.Line, id)
		}
	}
	for _, bad := range []string{
		"MPI_Send | p2p | | const void *buf, int count |", // fine, then a duplicate
		"MPI_X | nogroup | | int a | |",
		"MPI_X | p2p | odd | int a | |",
		"MPI_X | p2p | poll | int a | |", // a poll is one by its hooks: no flag says so
		"MPI_X | p2p | none | int a | h_x(a); |",
		"MPI_X | p2p | len=q:1 | int a | |",
		"MPI_X | p2p | | int 9a | |",
	} {
		text := bad
		if strings.HasPrefix(bad, "MPI_Send") {
			text = bad + "\n" + bad
		}
		_, err := Parse(text)
		assert.Error(t, err, "Parse(%q)", text)
	}
}
