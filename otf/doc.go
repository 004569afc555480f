// Package otf reads and writes OTF2 trace archives in pure Go.
//
// Open reads an archive's anchor and global definitions; Archive.Read
// decodes every location's local definitions and events into the trace
// model (package trace), translating Score-P's local ids through the
// MappingTables and keeping every record the model does not interpret as an
// Opaque event, so nothing is lost. Archive.Rewrite writes a copy of the
// archive with corrected event times, streaming the source's event files.
// Create (a trace.Sink) and WriteTrace write a new archive from a model.
//
// The on-disk format is described in docs/otf2.md; every error about bad
// input is a *FormatError naming the file and the byte offset.
package otf
