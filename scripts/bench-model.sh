#!/usr/bin/env bash
# bench-model.sh REV... : the clock model's cost and the whole run's, for
# clc-correct built at each REV and at the working tree, on the same traces
# in one run (issue: the model's time against the rest of the pipeline's,
# side by side with earlier revisions), and the reference OTF2 library's
# copy of the OTF2 traces (bench/otf2copy).
#
# Traces (simulated once into OUTDIR, ${CLC_BENCH_DIR:-~/.cache/clc/bench-model}):
#   a16     16 ranks on 8 nodes, 1.6 M events, wander 4 µs, OTF2 (the model engaged)
#   r1k-10  1,024 ranks on 64 nodes, 10^7 events, wander 10 µs, OTF2
#   r1k-100 the same with 100 µs of wander
#   d12500  100,000 ranks on 12,500 nodes, 13.8 M events, wander 10 µs, OTF2
#           (only with BIG=1)
#   h1k-10, h1k-100  1,024 ranks on 64 nodes, 10^8 events, wander 10 and 100 µs,
#           OTF2 (only with HUGE=1; about 1.5 GB each)
# ONLY=name,name... runs just those traces; COPY=0 leaves out the library's copy
# (500 s on d12500).
# Each binary runs on each trace RUNS times (default 2), the binaries
# alternating; /usr/bin/time gives wall, CPU (user + system) and peak RSS,
# the report's timing_s the stages. It prints one line per run and, per
# trace and binary, the median CPU and the median clock-model and other
# stages' seconds.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${CLC_BENCH_DIR:-$HOME/.cache/clc/bench-model}
runs=${RUNS:-2}
mkdir -p "$out/bin"
case "$out/" in "$repo"/*) echo "bench-model.sh: $out is inside the repository" >&2; exit 2 ;; esac
names=()
for rev in "$@"; do
  d=$(mktemp -d)
  git -C "$repo" worktree add -q --detach "$d/src" "$rev"
  (cd "$d/src" && go build -o "$out/bin/clc-correct-$rev" ./cmd/clc-correct)
  git -C "$repo" worktree remove --force "$d/src"
  rm -rf "$d"
  names+=("$rev")
done
(cd "$repo" && go build -o "$out/bin/clc-correct-tree" ./cmd/clc-correct && go build -o "$out/bin/" ./cmd/clc-sim)
names+=(tree)
gcc -O2 -o "$out/bin/otf2copy" "$repo/bench/otf2copy/otf2copy.c" $(pkg-config --cflags --libs otf2)
sim() { # name args...
  local t=$out/$1
  shift
  [ -f "$t/traces.otf2" ] || "$out/bin/clc-sim" "$t" --format otf2 "$@" >/dev/null
}
sim a16 --ranks 16 --ranks-per-node 2 --events 1600000 --clock-wander 4us --seed 5
sim r1k-10 --ranks 1024 --ranks-per-node 16 --events 10000000 --compute 2ms --clock-wander 10us --seed 7
sim r1k-100 --ranks 1024 --ranks-per-node 16 --events 10000000 --compute 2ms --clock-wander 100us --seed 7
traces=(a16 r1k-10 r1k-100)
if [ "${BIG:-0}" = 1 ]; then
  sim d12500 --ranks 100000 --ranks-per-node 8 --events 3000000 --compute 2ms --clock-wander 10us --seed 3
  traces+=(d12500)
fi
if [ "${HUGE:-0}" = 1 ]; then
  sim h1k-10 --ranks 1024 --ranks-per-node 16 --events 100000000 --compute 2ms --clock-wander 10us --seed 7
  sim h1k-100 --ranks 1024 --ranks-per-node 16 --events 100000000 --compute 2ms --clock-wander 100us --seed 7
  traces+=(h1k-10 h1k-100)
fi
if [ -n "${ONLY:-}" ]; then
  IFS=, read -r -a traces <<<"$ONLY"
fi
res=$out/results.tsv
: >"$res"
for tr in "${traces[@]}"; do
  for rep in $(seq "$runs"); do
    if [ "${COPY:-1}" = 1 ]; then
      rm -rf "$out/copy"
      /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$out/bin/otf2copy" "$out/$tr/traces.otf2" "$out/copy" >/dev/null
      read -r wall user sys rss <"$out/time"
      printf '%s\totf2copy\t%s\t%s\t%s\t%s\t-\t-\n' "$tr" "$rep" "$wall" "$(echo "$user + $sys" | bc)" "$rss" | tee -a "$res"
    fi
    for n in "${names[@]}"; do
      rm -rf "$out/o" "$out/r.json"
      /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$out/bin/clc-correct-$n" "$out/$tr" -o "$out/o" -q --truth - --report "$out/r.json" >/dev/null
      read -r wall user sys rss <"$out/time"
      stages=$(python3 -c '
import json,sys
t=json.load(open(sys.argv[1])).get("timing_s",{})
m=t.get("model",0)
print("%.2f\t%.2f" % (m, sum(v for k,v in t.items() if k not in ("model","total"))))' "$out/r.json")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tr" "$n" "$rep" "$wall" "$(echo "$user + $sys" | bc)" "$rss" "$stages" | tee -a "$res"
    done
  done
done
rm -rf "$out/o" "$out/copy" "$out/r.json"
echo "trace tool median-wall median-CPU median-model-s median-rest-s"
python3 - "$res" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    rows[(f[0], f[1])].append(f)
for (tr, tool), rs in rows.items():
    med = lambda i: statistics.median(float(r[i]) for r in rs) if rs[0][i] != "-" else float("nan")
    print(f"{tr}\t{tool}\t{med(3):.2f}\t{med(4):.2f}\t{med(6):.2f}\t{med(7):.2f}")
PY
