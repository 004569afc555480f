#!/usr/bin/env bash
# bench/run.sh: time clc-correct against the reference OTF2 library.
#
# Usage: bench/run.sh [options] [DATADIR]
#
# Builds bench/otf2copy/otf2copy.c (the reference library's read + rewrite)
# with gcc and clc-correct and clc-sim with go, generates the benchmark traces
# with clc-sim into DATADIR (default: $CLC_BENCH_DIR or /tmp/clc-bench; never
# inside the repository; traces are kept and reused while their clc-sim
# arguments stay the same), then runs every tool on every trace, interleaved
# and repeated, under /usr/bin/time, and prints a table: best and median wall
# time, events/s, CPU time, peak RSS, bytes per event, the ratio clc-correct /
# library read + rewrite, and clc-correct's stages from its report's timing_s.
#
# Traces (clc-sim --compute 2ms --clock-wander 10us --seed 7):
#   otf2-16-1e6     OTF2,   16 ranks,     10^6 events
#   otf2-16-1e7     OTF2,   16 ranks,     10^7 events
#   otf2-1k-1e7     OTF2,   1,024 ranks,  10^7 events
#   native-16-1e7   native, 16 ranks,     10^7 events
#   native-1k-1e7   native, 1,024 ranks,  10^7 events
#   native-64k-1e7  native, 65,536 ranks, 10^7 events
#   native-1k-1e8   native, 1,024 ranks,  10^8 events
#   native-1k-1e9   native, 1,024 ranks,  10^9 events (only with --huge)
#
# Tools, on OTF2 traces:
#   lib-copy        otf2copy IN OUT (read + rewrite, a local definition file per location)
#   lib-copy-nodef  otf2copy --no-local-defs IN OUT (only the local definitions there are)
#   lib-read        otf2copy --read-only IN
# and on every trace:
#   clc-correct     clc-correct IN -o OUT -q --truth - --report R [--format input]
#   clc-check       clc-correct IN --check -q --truth - --report R
# and on native traces:
#   clc-otf2        clc-correct IN -o OUT -q --truth - --report R --format otf2
#                   (a clc-trace recording repaired for the viewers: the default output)
#   base-correct, base-check, base-otf2   the same with clc-correct built from --baseline REV
#
# Options:
#   --runs N        runs of each tool on each trace (default 5; $RUNS; 0: only
#                   build and generate the traces)
#   --big-runs N    runs on traces of 10^8 events or more (default 3; $BIG_RUNS)
#   --only LIST     only these traces (comma-separated names from the list above)
#   --huge          also the 10^9-event trace (checks free disk first: about
#                   7.5 GB with its truth; one run of each tool)
#   --baseline REV  also time clc-correct built from git revision REV (e.g. main~3)
#   --profile[=T]   only profile: one clc-correct run on trace T (default otf2-16-1e7)
#                   with --cpuprofile, and a `go tool pprof -top` summary
#   --nice N        run in a session of its own whose scheduling autogroup has
#                   niceness N (e.g. -15; negative needs root): on a machine that
#                   other jobs load, the timed runs then get the CPUs first. (With
#                   autogroups, a plain `nice` only ranks the processes of one
#                   session against each other.) The table header says which.
#   --regen         generate the traces again even if they exist
#   --out DIR       where the tools write their outputs (default: /dev/shm when
#                   it is a writable tmpfs, else DATADIR/out; the 10^9 trace's
#                   outputs always go to DATADIR/out). Deleting the thousands of
#                   files of a 1,024-rank output before the next run makes
#                   ext4's inode allocator skip the recently deleted inodes one
#                   by one (up to a third of a library copy's time, in the
#                   kernel's recently_deleted); tmpfs keeps the file system
#                   out of the comparison. Neither tool syncs its output.
#   -h, --help      this text
#
# Outputs are deleted after every run. Results: DATADIR/results.tsv (one line
# per run), DATADIR/reports/ (clc-correct's reports), DATADIR/summary.txt.
set -euo pipefail

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

RUNS=${RUNS:-5}
BIG_RUNS=${BIG_RUNS:-3}
DATA=${CLC_BENCH_DIR:-/tmp/clc-bench}
HUGE=0
REGEN=0
ONLY=""
BASELINE=""
PROFILE=""
OUTBASE=""
NICE=""
ARGS=("$@")

while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift ;;
    --big-runs) BIG_RUNS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --huge) HUGE=1 ;;
    --baseline) BASELINE=$2; shift ;;
    --profile) PROFILE=otf2-16-1e7 ;;
    --profile=*) PROFILE=${1#--profile=} ;;
    --regen) REGEN=1 ;;
    --out) OUTBASE=$2; shift ;;
    --nice) NICE=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) DATA=$1 ;;
  esac
  shift
done

if [[ -n $NICE && -z ${CLC_BENCH_SESSION:-} ]]; then
  # A new session gets a new autogroup, whose niceness then applies to us alone.
  CLC_BENCH_SESSION=1 exec setsid --wait "$0" "${ARGS[@]}"
fi
if [[ -n $NICE ]]; then
  if [[ -w /proc/self/autogroup ]]; then
    echo "$NICE" >/proc/self/autogroup || { echo "run.sh: cannot set the autogroup's niceness to $NICE" >&2; exit 1; }
  fi
  renice -n "$NICE" -p $$ >/dev/null
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DATA"
DATA=$(cd "$DATA" && pwd)
case $DATA/ in
  "$ROOT"/*) echo "run.sh: $DATA is inside the repository; give a directory outside it" >&2; exit 2 ;;
esac
BIN=$DATA/bin
REPORTS=$DATA/reports
mkdir -p "$BIN" "$REPORTS"
if [[ -z $OUTBASE ]]; then
  OUTBASE=$DATA
  if [[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs && -w /dev/shm ]]; then
    OUTBASE=/dev/shm/clc-bench-$(id -u)
  fi
fi
mkdir -p "$OUTBASE"
OUTBASE=$(cd "$OUTBASE" && pwd)
case $OUTBASE/ in
  "$ROOT"/*) echo "run.sh: $OUTBASE is inside the repository" >&2; exit 2 ;;
esac
OUT=$OUTBASE/out
rm -rf "$OUT" "$DATA/out"
trap 'rm -rf "$OUT" "$DATA/out"; rmdir "$OUTBASE" 2>/dev/null || true' EXIT

log() { printf '%s\n' "$*" >&2; }

# ---- build ----

build() {
  local otf2flags
  if otf2flags=$(pkg-config --cflags --libs otf2 2>/dev/null); then :
  elif otf2flags=$(otf2-config --cflags --ldflags --libs 2>/dev/null); then :
  else
    echo "run.sh: libotf2 not found (pkg-config otf2 / otf2-config; Debian: libopen-trace-format2-dev)" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  gcc -O2 -std=c11 -Wall -Wextra -o "$BIN/otf2copy" "$ROOT/bench/otf2copy/otf2copy.c" $otf2flags
  (cd "$ROOT" && go build -o "$BIN/" ./cmd/clc-correct ./cmd/clc-sim)
  if [[ -n $BASELINE ]]; then
    local src=$DATA/baseline-src
    rm -rf "$src"
    mkdir -p "$src"
    git -C "$ROOT" archive "$BASELINE" | tar -x -C "$src"
    (cd "$src" && go build -o "$BIN/clc-correct-base" ./cmd/clc-correct)
    rm -rf "$src"
  fi
}

# flags_of BINARY prints the clc-correct flags for a benchmark run that this
# binary knows (the flag set changes while the pipeline is rewritten).
flags_of() {
  local help
  help=$("$1" --help 2>&1 || true)
  local f=()
  grep -q -- '--truth' <<<"$help" && f+=(--truth -)
  grep -q -- '--quiet' <<<"$help" && f+=(-q)
  # Since OTF2 became the default output, keep the input's format: the
  # benchmark times a repair, not a conversion.
  grep -q -- 'input (the input' <<<"$help" && f+=(--format input)
  echo "${f[@]}"
}
# has_flag BINARY FLAG (the help text is captured first: grep -q would stop
# reading early, and pipefail would take the writer's SIGPIPE for a miss).
has_flag() {
  local help
  help=$("$1" --help 2>&1 || true)
  grep -q -- "$2" <<<"$help"
}

# ---- traces ----

# name format ranks ranks-per-node events
TRACES=(
  "otf2-16-1e6 otf2 16 4 1000000"
  "otf2-16-1e7 otf2 16 4 10000000"
  "otf2-1k-1e7 otf2 1024 16 10000000"
  "native-16-1e7 native 16 4 10000000"
  "native-1k-1e7 native 1024 16 10000000"
  "native-64k-1e7 native 65536 16 10000000"
  "native-1k-1e8 native 1024 16 100000000"
)
((HUGE)) && TRACES+=("native-1k-1e9 native 1024 16 1000000000")

selected() {
  [[ -z $ONLY ]] && return 0
  [[ ,$ONLY, == *,$1,* ]]
}

# gen NAME FORMAT RANKS RPN EVENTS: the trace DATA/NAME, its event count in
# DATA/NAME.events, its clc-sim arguments in DATA/NAME.args.
gen() {
  local name=$1 format=$2 ranks=$3 rpn=$4 events=$5
  local dir=$DATA/$name
  local args=(--ranks "$ranks" --ranks-per-node "$rpn" --events "$events"
    --compute 2ms --clock-wander 10us --seed 7 --format "$format")
  if ((!REGEN)) && [[ -d $dir && -f $dir.events && "$(cat "$dir.args" 2>/dev/null)" == "${args[*]}" ]]; then
    return
  fi
  if ((events >= 1000000000)); then check_disk "$events"; fi
  log "generating $name: clc-sim $dir ${args[*]}"
  rm -rf "$dir" "$dir.events" "$dir.args"
  local msg
  msg=$(guarded "$BIN/clc-sim" "$dir" "${args[@]}" 2>&1) || { echo "$msg" >&2; exit 1; }
  log "  $msg"
  # "clc-sim: 16 ranks on 4 nodes, 1000238 events: ..."
  sed -E 's/.* ([0-9]+) events.*/\1/' <<<"$msg" >"$dir.events"
  echo "${args[*]}" >"$dir.args"
}

# check_disk EVENTS: a native trace and its truth take about 7.5 bytes per
# event (measured: 743 MB for 10^8 events at 1,024 ranks); refuse when the
# disk has less than twice 8 bytes per event free.
check_disk() {
  local need=$(($1 * 8 * 2 / 1000000)) free
  free=$(df -Pm "$DATA" | awk 'NR==2{print $4}')
  log "the $1-event trace needs about $(($1 * 8 / 1000000)) MB on disk (trace and truth), $need MB with the margin; $free MB free"
  if ((free < need)); then
    echo "run.sh: not enough free disk in $DATA for $1 events" >&2
    exit 1
  fi
}

# ---- runs ----

TIMEF='%e %U %S %M'

# The machine is shared: a run whose resident memory grows past MEM_LIMIT_KB
# (default 90 % of the memory available when run.sh starts; $MEM_LIMIT_MB)
# is stopped with SIGTERM before the kernel's OOM killer picks a victim.
if [[ -n ${MEM_LIMIT_MB:-} ]]; then
  MEM_LIMIT_KB=$((MEM_LIMIT_MB * 1024))
else
  MEM_LIMIT_KB=$(awk '/MemAvailable/{printf "%d", $2 * 0.9}' /proc/meminfo)
fi

# guarded CMD...: runs CMD and stops it, or the tool it starts (CMD may be
# /usr/bin/time), when its resident memory exceeds MEM_LIMIT_KB; returns
# CMD's status.
guarded() {
  "$@" &
  local pid=$! kid rss over=0 sig
  while kill -0 "$pid" 2>/dev/null; do
    for kid in "$pid" $(pgrep -P "$pid" || true); do
      rss=$(awk '/^VmRSS/{print $2}' "/proc/$kid/status" 2>/dev/null || echo 0)
      if ((${rss:-0} > MEM_LIMIT_KB)); then
        # SIGTERM lets the tool clean up; SIGKILL if it is still growing 5 s later.
        sig=TERM
        ((over++ >= 10)) && sig=KILL
        log "  stopping $kid (SIG$sig): resident memory ${rss} KB over the limit of $MEM_LIMIT_KB KB"
        kill -"$sig" "$kid" 2>/dev/null || true
      fi
    done
    sleep 0.5
  done
  wait "$pid"
}
RESULTS=$DATA/results.tsv

# one TRACE TOOL RUN: one timed run; appends a line to results.tsv:
# trace tool run wall user sys maxrss_kb status load (1-minute average before it)
one() {
  local trace=$1 tool=$2 run=$3 in=$DATA/$1 cmd
  local OUT=$OUT
  [[ $trace == *-1e9 ]] && OUT=$DATA/out
  local report=$REPORTS/$trace.$tool.$run.json
  rm -f "$report"
  case $tool in
    lib-copy) cmd=("$BIN/otf2copy" -q "$in" "$OUT") ;;
    lib-copy-nodef) cmd=("$BIN/otf2copy" -q --no-local-defs "$in" "$OUT") ;;
    lib-read) cmd=("$BIN/otf2copy" -q --read-only "$in") ;;
    clc-correct | clc-check | clc-otf2 | base-correct | base-check | base-otf2)
      local b=$BIN/clc-correct
      [[ $tool == base-* ]] && b=$BIN/clc-correct-base
      # shellcheck disable=SC2207
      local f=($(flags_of "$b"))
      has_flag "$b" --report && f+=(--report "$report")
      case $tool in
        *-check) cmd=("$b" "$in" --check "${f[@]}") ;;
        *-otf2) cmd=("$b" "$in" -o "$OUT" "${f[@]}" --format otf2) ;;
        *) cmd=("$b" "$in" -o "$OUT" "${f[@]}") ;;
      esac
      ;;
  esac
  local tf=$DATA/time.out status=0 load
  load=$(cut -d' ' -f1 /proc/loadavg)
  guarded /usr/bin/time -f "$TIMEF" -o "$tf" "${cmd[@]}" >"$DATA/run.log" 2>&1 || status=$?
  if ((status)); then
    log "  $trace $tool run $run failed (status $status):"
    tail -5 "$DATA/run.log" | sed 's/^/    /' >&2
  fi
  rm -rf "$OUT"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$trace" "$tool" "$run" "$(tail -1 "$tf" | tr ' ' '\t')" \
    "$status" "$load" >>"$RESULTS"
}

tools_for() {
  local format=$1 t=()
  [[ $format == otf2 ]] && t+=(lib-copy lib-copy-nodef lib-read)
  t+=(clc-correct)
  has_flag "$BIN/clc-correct" --check && t+=(clc-check)
  [[ $format == native ]] && t+=(clc-otf2)
  if [[ -n $BASELINE ]]; then
    t+=(base-correct)
    has_flag "$BIN/clc-correct-base" --check && t+=(base-check)
    [[ $format == native ]] && t+=(base-otf2)
  fi
  echo "${t[@]}"
}

profile() {
  local trace=$1 in=$DATA/$1 prof=$DATA/$1.cpu.pprof
  has_flag "$BIN/clc-correct" --cpuprofile || { echo "run.sh: clc-correct has no --cpuprofile" >&2; exit 1; }
  # shellcheck disable=SC2207
  local f=($(flags_of "$BIN/clc-correct"))
  log "profiling: clc-correct $in -o OUT ${f[*]} --cpuprofile $prof"
  /usr/bin/time -f "wall %e s, user %U s, sys %S s, peak RSS %M KB" \
    "$BIN/clc-correct" "$in" -o "$OUT" "${f[@]}" --cpuprofile "$prof"
  rm -rf "$OUT"
  echo "== CPU by package (flat, from go tool pprof -top) =="
  go tool pprof -top -nodecount=100000 "$BIN/clc-correct" "$prof" 2>/dev/null | awk '
    /^ *[0-9.]+m?s / && NF >= 6 {
      t = $1; ms = (t ~ /ms$/) ? t + 0 : t * 1000
      name = $6; sub(/\(.*/, "", name)                       # drop receivers and arguments
      n = split(name, parts, "/"); last = parts[n]          # the last path element
      pkg = substr(last, 1, index(last ".", ".") - 1)
      if (name ~ /^github\.com\/clc-tools\/clc\//) pkg = substr(name, 26, length(name) - 25 - length(last) + length(pkg))
      if (name ~ /^(internal\/runtime\/)?syscall/) pkg = "syscall"
      sum[pkg] += ms; total += ms
    }
    END { for (p in sum) printf "%8.0f ms %5.1f%%  %s\n", sum[p], 100 * sum[p] / total, p | "sort -rn" }'
  echo "== go tool pprof -top -nodecount=25 (flat) =="
  go tool pprof -top -nodecount=25 "$BIN/clc-correct" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
  echo "== go tool pprof -top -cum -nodecount=25 =="
  go tool pprof -top -cum -nodecount=25 "$BIN/clc-correct" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
}

header() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) CPUs, $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
  echo "clc: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')${BASELINE:+, baseline $BASELINE ($(git -C "$ROOT" rev-parse --short "$BASELINE"))}"
  echo "$(go version), OTF2 $(pkg-config --modversion otf2 2>/dev/null || echo '?'), gcc $(gcc -dumpversion)"
  echo "outputs written to: $OUTBASE ($(stat -f -c %T "$OUTBASE"))"
  echo "niceness of the runs: ${NICE:-0 (default)}$([[ -n $NICE ]] && echo ", in an autogroup of their own ($(cat /proc/self/autogroup))")"
  echo "load average (1, 5, 15 min) at the start: $LOAD_START"
}

main() {
  local names=" " t
  for t in "${TRACES[@]}"; do names+="${t%% *} "; done
  for t in ${ONLY//,/ } ${PROFILE}; do
    [[ $names == *" $t "* ]] || { echo "run.sh: unknown trace $t (known:$names)" >&2; exit 2; }
  done
  build
  for t in "${TRACES[@]}"; do
    # shellcheck disable=SC2086
    set -- $t
    if selected "$1" || [[ $1 == "$PROFILE" ]]; then gen "$@"; fi
  done
  if [[ -n $PROFILE ]]; then
    [[ -f $DATA/$PROFILE.events ]] || { echo "run.sh: unknown trace $PROFILE" >&2; exit 2; }
    profile "$PROFILE" | tee "$DATA/profile.txt"
    return
  fi

  LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
  : >"$RESULTS"
  rm -rf "$REPORTS"
  mkdir -p "$REPORTS"
  local name format events runs tools r
  for t in "${TRACES[@]}"; do
    # shellcheck disable=SC2086
    set -- $t
    name=$1 format=$2 events=$5
    selected "$name" || continue
    runs=$RUNS
    ((events >= 100000000)) && runs=$BIG_RUNS
    ((events >= 1000000000 && runs > 1)) && runs=1
    tools=$(tools_for "$format")
    log "timing $name: $runs runs of $tools"
    for ((r = 1; r <= runs; r++)); do
      for tool in $tools; do
        one "$name" "$tool" "$r"
      done
    done
  done
  LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
  {
    header
    echo "load average at the end: $LOAD_END"
    echo
    /usr/bin/python3 "$ROOT/bench/summary.py" "$RESULTS" "$DATA" "$REPORTS"
  } | tee "$DATA/summary.txt"
}

main
