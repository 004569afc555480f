package tracer

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
)

// RankOutcome is what one rank of a run that did not finish left.
type RankOutcome struct {
	Rank int
	// Events is the number of events in the rank's stream (whole blocks).
	Events int64
	// Recovered is the part of Events that FinishUnfinished wrote from the
	// rank's tail: the rank died before writing them.
	Recovered int64
	// Running is set when the rank's process still runs on this host.
	Running bool
	// Pending is the number of events the rank's tail holds that its
	// stream does not, left for later (RecoverTails's Pending).
	Pending int64
	// Ended is how the rank said it ended (RankMeta.Ended); NoMeta is set
	// when it left no metadata (it did not get through MPI_Init).
	Ended  string
	NoMeta bool
}

// Unfinished is what FinishUnfinished found and did.
type Unfinished struct {
	// Wrote is set when it wrote the incomplete manifest.
	Wrote bool
	// Told is set when a rank's clc-trace had already finished the trace
	// and said so (FinishRank); Last when this call did (FinishRank only).
	Told, Last bool
	// Complete is set when the trace has a complete manifest (rank 0
	// finished it): nothing was left to do.
	Complete bool
	Ranks    []RankOutcome
}

// FinishUnfinished finishes the native trace in dir of a run that did not
// reach MPI_Finalize: it writes the events the ranks' tails hold
// (RecoverTails with o), writes the manifest with "complete": false and
// props when there is none (WriteIncompleteManifest; also the truth's
// when only it is missing), and counts every rank's events. It holds the
// trace's lock (lockMeta) meanwhile: the clc-trace processes of a per-rank
// launch finish one at a time.
func FinishUnfinished(dir string, props map[string]string, o RecoverOptions) (*Unfinished, error) {
	defer lockMeta(dir)()
	return finishUnfinished(dir, props, o)
}

// FinishRank is what the clc-trace of one rank of a per-rank launch does
// once its program ended without MPI_Finalize: FinishUnfinished for the
// ranks of this host whose process has ended, and, when that leaves
// nothing pending and no rank's clc-trace has done so before, it marks the
// trace finished in rank's metadata and sets Last: this caller is the one
// to say what the ranks kept. Told is set when another one did, and when
// the native trace of an OTF2 run is gone beside its whole archive (the
// one that said so converted it: FinishOTF2).
func FinishRank(dir string, rank int, props map[string]string) (*Unfinished, error) {
	defer lockMeta(dir)()
	if convertedAway(dir) {
		return &Unfinished{Told: true}, nil
	}
	u, err := finishUnfinished(dir, props, RecoverOptions{ThisHost: true})
	if u == nil || u.Complete || u.Told || u.Pending() {
		return u, err
	}
	f, ferr := os.OpenFile(filepath.Join(dir, MetaDir, strconv.Itoa(rank)+".txt"), os.O_WRONLY|os.O_APPEND, 0)
	if ferr == nil {
		_, ferr = f.WriteString(toldLine + "\n")
		ferr = errors.Join(ferr, f.Close())
	}
	if ferr != nil {
		return u, errors.Join(err, fmt.Errorf("marking the trace finished: %w", ferr))
	}
	u.Last = true
	return u, err
}

// convertedAway reports whether dir is the native trace of an OTF2 run
// (NativeSubdir) that is gone while its parent holds the whole archive:
// FinishOTF2 converted and removed it.
func convertedAway(dir string) bool {
	if filepath.Base(dir) != NativeSubdir {
		return false
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		return false
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(dir), otf.AnchorName))
	return err == nil
}

// toldLine is the line FinishRank appends to a rank's metadata file.
const toldLine = "finished-by-clc-trace"

// lockMeta takes an exclusive lock on dir's MetaDir (flock) and returns
// its release. Without the directory, or where it cannot be locked, it
// returns at once: the finishers then run as before, each tolerating
// what another one removed.
func lockMeta(dir string) func() {
	f, err := os.Open(filepath.Join(dir, MetaDir))
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() }
}

func finishUnfinished(dir string, props map[string]string, o RecoverOptions) (*Unfinished, error) {
	tails, rerr := RecoverTails(dir, o)
	u := &Unfinished{}
	complete, err := ManifestComplete(dir)
	switch {
	case err == nil && complete:
		u.Complete = true
		return u, rerr
	case err == nil:
		// another writer's incomplete manifest: only the truth's may be
		// missing (its writer was killed in between)
		if _, err := WriteIncompleteManifest(dir, props); err != nil {
			rerr = errors.Join(rerr, err)
		}
	case errors.Is(err, os.ErrNotExist):
		wrote, err := WriteIncompleteManifest(dir, props)
		if err != nil {
			return nil, errors.Join(err, rerr)
		}
		u.Wrote = wrote
	}
	metas := map[int]*RankMeta{}
	size := 0
	paths, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*.txt"))
	for _, p := range paths {
		if m, err := ParseMeta(p); err == nil {
			metas[m.Rank] = m
			size = max(size, m.Size)
			u.Told = u.Told || m.Told
		}
	}
	byRank := map[int]TailResult{}
	for _, t := range tails {
		byRank[t.Rank] = t
	}
	for r := 0; r < size; r++ {
		ro := RankOutcome{Rank: r, Recovered: byRank[r].Events, Running: byRank[r].Running, Pending: byRank[r].Pending}
		if m := metas[r]; m != nil {
			ro.Ended = m.Ended
		} else {
			ro.NoMeta = true
		}
		n, _, err := CountWholeBlocks(filepath.Join(dir, "events", strconv.Itoa(r)+".clce"))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			rerr = errors.Join(rerr, err)
		}
		ro.Events = n
		u.Ranks = append(u.Ranks, ro)
	}
	return u, rerr
}

// ManifestComplete reports whether dir's manifest says the trace is
// complete (os.ErrNotExist when there is none).
func ManifestComplete(dir string) (bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, native.ManifestName))
	if err != nil {
		return false, err
	}
	var m struct {
		Complete bool `json:"complete"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return false, fmt.Errorf("%s: %w", filepath.Join(dir, native.ManifestName), err)
	}
	return m.Complete, nil
}

// Pending reports whether some rank's tail was left for later (the rank
// ran on, or on another host, or was not selected).
func (u *Unfinished) Pending() bool {
	for _, r := range u.Ranks {
		if r.Pending > 0 || r.Running {
			return true
		}
	}
	return false
}

// Summary says, in one line, what each rank kept: every rank when there
// are at most 16, else the smallest, median and largest counts and the
// ranks with none.
func (u *Unfinished) Summary() string {
	if len(u.Ranks) == 0 {
		return "no rank left metadata"
	}
	var total, recovered int64
	for _, r := range u.Ranks {
		total += r.Events
		recovered += r.Recovered
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s events kept", Thousands(total))
	if recovered > 0 {
		fmt.Fprintf(&b, " (%s of them written from the buffers of ranks that died)", Thousands(recovered))
	}
	if len(u.Ranks) <= 16 {
		b.WriteString(": ")
		for i, r := range u.Ranks {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "rank %d %s", r.Rank, Thousands(r.Events))
			if note := r.note(); note != "" {
				fmt.Fprintf(&b, " (%s)", note)
			}
		}
		return b.String()
	}
	ev := make([]int64, len(u.Ranks))
	var none []string
	for i, r := range u.Ranks {
		ev[i] = r.Events
		if r.Events == 0 {
			none = append(none, strconv.Itoa(r.Rank))
		}
	}
	sort.Slice(ev, func(i, j int) bool { return ev[i] < ev[j] })
	fmt.Fprintf(&b, "; per rank %s to %s, median %s", Thousands(ev[0]), Thousands(ev[len(ev)-1]), Thousands(ev[len(ev)/2]))
	if len(none) > 0 {
		fmt.Fprintf(&b, "; no events from rank(s) %s", strings.Join(none, ","))
	}
	return b.String()
}

func (r *RankOutcome) note() string {
	var parts []string
	switch {
	case r.NoMeta:
		parts = append(parts, "did not start tracing")
	case r.Running:
		parts = append(parts, "still running")
	case r.Ended == "aborted":
		parts = append(parts, "MPI_Abort")
	case r.Ended == "exited":
		parts = append(parts, "exited without MPI_Finalize")
	case strings.HasPrefix(r.Ended, "signal "):
		n, err := strconv.Atoi(strings.TrimPrefix(r.Ended, "signal "))
		if err == nil {
			parts = append(parts, fmt.Sprintf("signal %d, %v", n, syscall.Signal(n)))
		} else {
			parts = append(parts, r.Ended)
		}
	}
	if r.Recovered > 0 {
		parts = append(parts, Thousands(r.Recovered)+" from its buffers")
	}
	if r.Pending > 0 {
		parts = append(parts, "+"+Thousands(r.Pending)+" still in its buffers")
	}
	return strings.Join(parts, ", ")
}

// Thousands writes n with thousands separators (1,234,567).
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
