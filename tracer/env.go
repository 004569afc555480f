package tracer

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Options are what the PMPI library reads from its environment.
type Options struct {
	// Dir is the absolute path of the trace directory.
	Dir string
	// Lib is the path of the built library.
	Lib     string
	Flavour Flavour
	// Sync is the offset-measurement scheme: "flat" or "tree".
	Sync string
	// SyncRounds is "min,patience,max" ping-pong rounds ("" = built-in 20,10,400).
	SyncRounds string
	// Emulate is the clock-error emulation spec ("" = off), see EmulateSpec.
	Emulate string
	// Buffer is the block buffer size in bytes per stream (0 = 1 MiB).
	Buffer int64
	// Command is the traced command line, stored in the manifest.
	Command string
	// Groups are the function groups to record (0 = all).
	Groups GroupSet
	// Polls is "all" to keep every unsuccessful test and probe ("" or
	// "collapse": runs keep their first and last call and a count).
	Polls string
	// Out is the output directory of an OTF2 run (Dir is its native part);
	// the library names it when it must leave the conversion to the user.
	// With NewDir, any Out makes it an OTF2 run.
	Out string
	// Unrecorded lists, comma-separated, the communicating MPI functions
	// the program imports that the trace will not hold (the manifest's
	// clc.unrecorded-mpi); nil when they were not checked.
	Unrecorded *string
	// FlushEvents and FlushAfter bound how long events stay in a rank's
	// buffer: it is written after FlushEvents events or FlushAfter,
	// whichever comes first (0: no bound; both 0, as in the zero Options:
	// only when full).
	FlushEvents uint32
	FlushAfter  time.Duration
	// Filter is the region filter (nil: every user region).
	Filter Filter
	// NewDir, when not empty, makes rank 0's library create the trace
	// directory NewDir + a date (NewDirName) at MPI_Init and tell every
	// rank: the per-rank launch, whose clc-trace processes cannot agree on
	// a new directory themselves. Dir is then ignored; the library writes
	// into the new directory (below it into NativeSubdir when Out is set)
	// and its path into the file DirNote.
	NewDir, DirNote string
}

// NewDirLayout is the date the library appends to Options.NewDir
// (strftime's %Y%m%d_%H%M%S; Go's layout below), then _2, _3, … when a
// directory of that name exists.
const NewDirLayout = "20060102_150405"

// Vars returns the CLC_TRACE_* variables for the library.
func (o *Options) Vars() []string {
	var v []string
	if o.NewDir == "" {
		v = append(v, "CLC_TRACE_DIR="+o.Dir)
	} else {
		v = append(v, "CLC_TRACE_NEWDIR="+o.NewDir, "CLC_TRACE_DIR_NOTE="+o.DirNote)
	}
	v = append(v, "CLC_TRACE_FLAVOUR="+string(o.Flavour))
	if o.Sync != "" {
		v = append(v, "CLC_TRACE_SYNC="+o.Sync)
	}
	if o.SyncRounds != "" {
		v = append(v, "CLC_TRACE_SYNC_ROUNDS="+o.SyncRounds)
	}
	if o.Emulate != "" {
		v = append(v, "CLC_TRACE_EMULATE="+o.Emulate)
	}
	if o.Buffer > 0 {
		v = append(v, "CLC_TRACE_BUFFER="+strconv.FormatInt(o.Buffer, 10))
	}
	if o.Command != "" {
		v = append(v, "CLC_TRACE_COMMAND="+o.Command)
	}
	if o.Groups != 0 && o.Groups != AllGroups {
		v = append(v, "CLC_TRACE_GROUPS="+strconv.FormatUint(uint64(o.Groups), 10))
	}
	if o.Out != "" && o.NewDir == "" {
		v = append(v, "CLC_TRACE_OTF2_OUT="+o.Out)
	} else if o.Out != "" {
		v = append(v, "CLC_TRACE_NEWDIR_SUB="+NativeSubdir)
	}
	if o.Polls == "all" {
		v = append(v, "CLC_TRACE_POLLS=all")
	}
	if o.Unrecorded != nil {
		// never empty: Open MPI's mca_base_env_list may drop empty values
		v = append(v, "CLC_TRACE_UNRECORDED=list:"+*o.Unrecorded)
	}
	v = append(v, fmt.Sprintf("CLC_TRACE_FLUSH=%d,%g", o.FlushEvents, o.FlushAfter.Seconds()))
	if len(o.Filter) > 0 {
		v = append(v, "CLC_TRACE_FILTER="+o.Filter.Spec())
	}
	return v
}

// setEnv returns env with name=value set (replacing earlier settings).
func setEnv(env []string, name, value string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

func getEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if strings.HasPrefix(env[i], name+"=") {
			return env[i][len(name)+1:]
		}
	}
	return ""
}

// VarPrefix starts the name of every variable the PMPI library reads.
// clc-trace owns that namespace: ownEnv clears what the user's environment
// holds of it before the options set theirs.
const VarPrefix = "CLC_TRACE_"

// ownEnv returns env without the variables of VarPrefix's namespace, also
// those named in Open MPI's OMPI_MCA_mca_base_env_list (whose MPI_Init
// sets them in every rank): a stray CLC_TRACE_GROUPS or CLC_TRACE_NEWDIR
// the user exported must not change what clc-trace's flags say.
func ownEnv(env []string) []string {
	const list = "OMPI_MCA_mca_base_env_list="
	out := env[:0:0]
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, VarPrefix):
			continue
		case strings.HasPrefix(kv, list):
			var keep []string
			for _, item := range strings.Split(kv[len(list):], ";") {
				if !strings.HasPrefix(item, VarPrefix) {
					keep = append(keep, item)
				}
			}
			if len(keep) == 0 {
				continue
			}
			kv = list + strings.Join(keep, ";")
		}
		out = append(out, kv)
	}
	return out
}

func withVars(env []string, vars []string) []string {
	env = ownEnv(env)
	for _, kv := range vars {
		i := strings.IndexByte(kv, '=')
		env = setEnv(env, kv[:i], kv[i+1:])
	}
	return env
}

func preload(env []string, lib string) string {
	if old := getEnv(env, "LD_PRELOAD"); old != "" {
		return lib + ":" + old
	}
	return lib
}

// RankEnv is the environment of one rank's program when clc-trace runs per
// rank (mpirun -np N clc-trace ./app): the library preloaded and the
// options set, every other CLC_TRACE_* variable of base cleared (ownEnv).
func RankEnv(base []string, o *Options) []string {
	env := withVars(base, o.Vars())
	return setEnv(env, "LD_PRELOAD", preload(base, o.Lib))
}

// LauncherEnv is the environment of a launcher that clc-trace wraps
// (clc-trace -- mpirun -np N ./app). MPICH's hydra passes its whole
// environment on; Open MPI's mpirun passes only what
// OMPI_MCA_mca_base_env_list names, so LD_PRELOAD goes there (the launcher
// itself does not preload the library). Every other CLC_TRACE_* variable
// of base is cleared (ownEnv).
func LauncherEnv(base []string, o *Options) ([]string, error) {
	env := withVars(base, o.Vars())
	switch o.Flavour {
	case MPICH:
		return setEnv(env, "LD_PRELOAD", preload(base, o.Lib)), nil
	case OpenMPI:
		pre := preload(base, o.Lib)
		if strings.ContainsAny(pre, ";") {
			return nil, fmt.Errorf("the library path %q contains ';', which Open MPI's mca_base_env_list cannot carry", pre)
		}
		list := []string{"LD_PRELOAD=" + pre}
		for _, kv := range o.Vars() {
			list = append(list, kv[:strings.IndexByte(kv, '=')])
		}
		if old := getEnv(ownEnv(base), "OMPI_MCA_mca_base_env_list"); old != "" {
			list = append(list, old)
		}
		return setEnv(env, "OMPI_MCA_mca_base_env_list", strings.Join(list, ";")), nil
	}
	return nil, fmt.Errorf("unknown MPI flavour %q", o.Flavour)
}
