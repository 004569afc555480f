#!/usr/bin/env bash
# bench-revs.sh REV [OUTDIR]: clc-correct built at REV against the working
# tree, on the same traces in one run, so that a refactor's cost shows as a
# ratio (issue 23: no slowdown).
#
# It simulates, once (an existing trace is reused),
#   clc-sim OUTDIR/r64  --ranks 64  --events 10000000 --seed 1
#   clc-sim OUTDIR/r1024 --ranks 1024 --ranks-per-node 8 --events 10000000 --seed 2
# and runs on each, for the default method (clock model) and --method clc,
#   clc-correct TRACE -o OUTDIR/out --method METHOD (OUTDIR/out removed first)
# with the binary of REV and of the working tree alternately, three times
# each. It prints the wall and CPU (user + system) seconds and the peak RSS
# of every run, then per trace and method the median CPU of the working
# tree divided by REV's. OUTDIR defaults to
# ${CLC_BENCH_DIR:-$HOME/.cache/clc/bench-revs}; it must not be inside the
# repository.
set -euo pipefail
rev=${1:?usage: bench-revs.sh REV [OUTDIR]}
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-${CLC_BENCH_DIR:-$HOME/.cache/clc/bench-revs}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in "$repo"/*) echo "bench-revs.sh: $out is inside the repository" >&2; exit 2 ;; esac
bin=$out/bin
mkdir -p "$bin"
base=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$base/src" >/dev/null 2>&1 || true; rm -rf "$base"' EXIT
git -C "$repo" worktree add -q --detach "$base/src" "$rev"
(cd "$base/src" && go build -o "$bin/old" ./cmd/clc-correct)
(cd "$repo" && go build -o "$bin/new" ./cmd/clc-correct && go build -o "$bin/" ./cmd/clc-sim)

sim() { # name args...
  local t=$out/$1
  shift
  [ -f "$t/clc.json" ] || { "$bin/clc-sim" "$t" "$@" >/dev/null && rm -rf "$t/truth"; }
}
sim r64 --ranks 64 --events 10000000 --seed 1
sim r1024 --ranks 1024 --ranks-per-node 8 --events 10000000 --seed 2

results=$out/results.tsv
: >"$results"
for tr in r64 r1024; do
  for method in model clc; do
    for rep in 1 2 3; do
      for which in old new; do
        rm -rf "$out/out"
        /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
          "$bin/$which" "$out/$tr" -o "$out/out" --method "$method" >/dev/null
        read -r wall user sys rss <"$out/time"
        cpu=$(echo "$user + $sys" | bc)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tr" "$method" "$which" "$rep" "$wall" "$cpu" "$rss" | tee -a "$results"
      done
    done
  done
done
rm -rf "$out/out"
echo "trace method median-CPU(new)/median-CPU($rev)"
python3 - "$results" <<'PY'
import sys, statistics, collections
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tr, m, which, rep, wall, c, rss = line.split('\t')
    cpu[(tr, m, which)].append(float(c))
for tr in ('r64', 'r1024'):
    for m in ('model', 'clc'):
        o, n = statistics.median(cpu[(tr, m, 'old')]), statistics.median(cpu[(tr, m, 'new')])
        print(f'{tr} {m} {n:.2f}/{o:.2f} = {n/o:.2f}')
PY
