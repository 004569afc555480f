// Package scalestudy studies clc-correct's correction divided among P
// processes, each holding the locations of some nodes (a partition.Plan),
// as the distributed engine over MPI runs it (docs/scale.md). It measures
// on the trace's real happened-before relation and the real algorithms
// what crosses the division: messages and collective instances, the
// rounds and bytes of a bulk-synchronous forward replay of the CLC (run by
// package replay's engine over the matched graph) and of its backward
// amortization, what pre-synchronisation and the clock model's bounds and
// solve exchange (clockmodel.Layout), and each process's share of the
// events.
//
// Nothing here corrects a trace; tools/partition runs the measurements.
package scalestudy
