// Command genpmpi writes the generated sources of clc-trace's PMPI library
// (tracer/mpifn) into the directory given as its argument. It is run by
// go generate in cmd/clc-trace.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/clc-tools/clc/tracer/mpifn"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genpmpi DIR")
		os.Exit(2)
	}
	files, err := mpifn.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genpmpi:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(os.Args[1], n), files[n], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genpmpi:", err)
			os.Exit(1)
		}
	}
}
