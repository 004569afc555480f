// Package bench holds clc's benchmark harness, which is not part of the
// product: run.sh (builds the tools, generates the benchmark traces with
// clc-sim and times clc-correct against the reference OTF2 library) and
// otf2copy/otf2copy.c (the reference library's plain read + rewrite of an
// OTF2 archive, the yardstick). The package's test keeps otf2copy honest: its
// copies must print the same events and definitions as their inputs in
// otf2-print. It runs only with CLC_TEST_FULL=1 (as .ci/run sets it): the
// harness is not part of the product. See docs/performance.md.
package bench
