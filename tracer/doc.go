// Package tracer is the Go side of clc-trace: it finds the MPI flavour of a
// program or launcher, builds the embedded PMPI library with the matching MPI
// compiler into a per-user cache, prepares the environment that injects the
// library into every rank, and writes the manifest of a trace whose run did
// not finish (docs/tracer.md).
//
// The C library itself (cmd/clc-trace/pmpi) writes the native format of
// docs/format.md; this package reads only the block headers of its streams.
package tracer
