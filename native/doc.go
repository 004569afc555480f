// Package native reads and writes clc's native trace format
// (docs/format.md): a directory with a JSON manifest (clc.json) and, per
// location, a stream of CRC-checked, optionally zstd-compressed blocks of
// events, several locations' streams sharing a bundle file above 64
// locations.
//
// ReadDir and WriteDir read and write whole traces (package trace's
// model); OpenDir and CreateDir read and write location by location with
// bounded memory.
package native
