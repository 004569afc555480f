package tracer

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/clc-tools/clc/internal/mpitool"
)

// Flavour is an MPI implementation family (package mpitool).
type Flavour = mpitool.Flavour

// The MPI flavours clc-trace supports.
const (
	OpenMPI = mpitool.OpenMPI
	MPICH   = mpitool.MPICH
)

// ParseFlavour accepts "openmpi"/"ompi"/"open-mpi" and "mpich"/"hydra".
func ParseFlavour(s string) (Flavour, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "openmpi", "ompi", "open-mpi", "open mpi":
		return OpenMPI, nil
	case "mpich", "hydra":
		return MPICH, nil
	}
	return "", fmt.Errorf("unknown MPI flavour %q (want openmpi or mpich)", s)
}

// ErrUnknownFlavour is wrapped by detection errors that found no MPI.
var ErrUnknownFlavour = errors.New("cannot tell the MPI flavour")

// flavourOfSoname maps a shared library name to a flavour ("" if it is not
// an MPI library).
func flavourOfSoname(so string) Flavour {
	base := filepath.Base(so)
	switch {
	case strings.HasPrefix(base, "libmpich"), strings.HasPrefix(base, "libmpi.so.12"), strings.HasPrefix(base, "libmpifort.so.12"):
		return MPICH
	case strings.HasPrefix(base, "libmpi.so"), strings.HasPrefix(base, "libmpi_mpifh"), strings.HasPrefix(base, "libmpi_usempi"),
		strings.HasPrefix(base, "libopen-rte"), strings.HasPrefix(base, "libopen-pal"):
		return OpenMPI
	}
	return ""
}

// FlavourOfProgram reads the dynamic section of the ELF executable at path
// and returns the flavour of the MPI library it needs (DT_NEEDED). It
// returns an error wrapping ErrUnknownFlavour when the program needs no MPI
// library it knows, and an error when it needs both.
func FlavourOfProgram(path string) (Flavour, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w: not an ELF executable (%v)", path, ErrUnknownFlavour, err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		return "", fmt.Errorf("%s: reading its dynamic section: %w", path, err)
	}
	var found Flavour
	var which string
	for _, l := range libs {
		fl := flavourOfSoname(l)
		if fl == "" {
			continue
		}
		if found != "" && found != fl {
			return "", fmt.Errorf("%s needs both %s and %s", path, which, l)
		}
		found, which = fl, l
	}
	if found == "" {
		return "", fmt.Errorf("%s: %w: it links no MPI library (needs %s)", path, ErrUnknownFlavour, strings.Join(libs, ", "))
	}
	return found, nil
}

// FlavourOfLauncher runs `launcher --version` and recognises Open MPI's
// mpirun/mpiexec and MPICH's hydra.
func FlavourOfLauncher(launcher string) (Flavour, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, launcher, "--version").CombinedOutput()
	s := string(out)
	switch {
	case strings.Contains(s, "Open MPI") || strings.Contains(s, "OpenRTE") || strings.Contains(s, "Open RTE"):
		return OpenMPI, nil
	case strings.Contains(s, "HYDRA") || strings.Contains(s, "MPICH") || strings.Contains(s, "Hydra"):
		return MPICH, nil
	}
	if err != nil {
		return "", fmt.Errorf("%s --version: %w: %v", launcher, ErrUnknownFlavour, err)
	}
	return "", fmt.Errorf("%s --version: %w from its output %q", launcher, ErrUnknownFlavour, firstLine(s))
}

// launcherNames are the base names clc-trace treats as MPI launchers.
var launcherNames = []string{"mpirun", "mpiexec", "orterun", "mpiexec.hydra", "mpirun.openmpi", "mpiexec.openmpi",
	"mpirun.mpich", "mpiexec.mpich", "mpiexec.gforker", "prterun"}

// IsLauncher reports whether the program name is an MPI launcher.
func IsLauncher(prog string) bool {
	base := filepath.Base(prog)
	for _, n := range launcherNames {
		if base == n {
			return true
		}
	}
	return false
}

// ProgramOfLaunch guesses the application in a launcher command line: the
// first argument after the launcher's options that names an executable
// file. It returns "" when it finds none (the flavour then comes from the
// launcher alone).
func ProgramOfLaunch(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == ":" {
			continue
		}
		p, err := mpitool.LookPath(a)
		if err != nil {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			if f, err := elf.Open(p); err == nil {
				f.Close()
				return p
			}
		}
	}
	return ""
}

func firstLine(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
