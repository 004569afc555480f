#!/usr/bin/env bash
# bench/realruns.sh: the clock model's accuracy on real MPI runs.
#
# Usage: bench/realruns.sh [DATADIR]
#
# Builds clc-trace and clc-correct, builds the test programs of tests/mpi
# with mpicc.mpich, records them under mpirun.mpich (4 ranks) with
# clc-trace --emulate-clock (each rank gets a clock with offset, drift and
# wander; truth/ keeps the true TSC times) into DATADIR (default:
# $CLC_REALRUNS_DIR or /tmp/clc-realruns; never inside the repository;
# recorded traces are kept and reused), then runs clc-correct --check with
# the default method and with --method clc on each, and prints a table: the
# mean, 99th percentile and largest |time - truth| after
# pre-synchronisation (µs), the pure CLC's and the default's as ratios to
# them, events moved (the default's: by the model, then by the CLC; an
# event moved by both counts twice), the share of intervals between
# successive events changed by more than 1 %, violations left, and the
# method that ran.
# docs/parameters.md ("Real MPI runs with emulated clocks") holds a table.
#
# Options: --regen records the traces again.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
regen=0
if [ "${1:-}" = --regen ]; then regen=1; shift; fi
dir=${1:-${CLC_REALRUNS_DIR:-/tmp/clc-realruns}}
case "$(cd "$(dirname "$dir")" && pwd)/$(basename "$dir")/" in
"$repo"/*) echo "realruns: $dir is inside the repository" >&2; exit 1 ;;
esac
mkdir -p "$dir/bin"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
(cd "$repo" && go build -o "$dir/bin/" ./cmd/clc-trace ./cmd/clc-correct)
for p in master ring colls halo; do
	mpicc.mpich -O2 -I "$repo/tests/mpi" -o "$dir/bin/$p" "$repo/tests/mpi/$p.c"
done

strong=offset=10ms,drift=50ppm,wander=5us,period=100ms,seed=4
mild=offset=1ms,drift=10ppm,wander=2us,period=200ms,seed=4
# name, emulation, program and arguments
runs=(
	"e-master $strong master 400"
	"e-master-mild $mild master 400"
	"e-ring $strong ring 200"
	"e-colls $strong colls 20"
	"e-halo $strong halo 25 64"
)
for r in "${runs[@]}"; do
	set -- $r
	name=$1 emu=$2; shift 2
	if [ $regen = 1 ] || [ ! -e "$dir/$name/truth" ]; then
		rm -rf "${dir:?}/$name"
		(cd "$dir" && mpirun.mpich -np 4 "$dir/bin/clc-trace" -o "$name" \
			--emulate-clock="$emu" "$dir/bin/$1" "${@:2}" >/dev/null)
	fi
done

echo "| trace | events | violations after presync | presync mean / p99 / max (µs) | pure CLC: ratios | default: ratios | events moved: CLC / default (model + CLC) | intervals > 1 %: CLC / default | left | method (default) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for r in "${runs[@]}"; do
	set -- $r
	name=$1
	for m in clc model; do
		"$dir/bin/clc-correct" "$dir/$name" --check -q --method $m --report "$dir/$name.$m.json"
	done
	/usr/bin/python3 - "$dir/$name" <<'PY'
import json, sys
base = sys.argv[1]
c = json.load(open(base + ".clc.json"))
d = json.load(open(base + ".model.json"))
us = 1e6 / d["timer_resolution"]
p = d["accuracy"]["presync_only"]
keys = ("mean_abs_error_ticks", "p99_abs_error_ticks", "max_abs_error_ticks")
def ratios(r):
    a = r["accuracy"]["corrected"]
    return " / ".join("%.2f" % (a[k] / p[k] if p[k] else 1.0) for k in keys)
def moved(r):
    n = r["correction"]["events_moved"]
    if r.get("model_shift"):
        n += r["model_shift"]["events_moved"]
    return n
def above(r):
    return "%.3f %%" % (100 * r["fidelity"]["event_distance"]["share_of_intervals_above"][3])
why = d["method"].get("fallback", "")
ran = d["method"]["ran"] + (f" ({why})" if why else "")
print(f"| {base.split('/')[-1]} | {p['events']} | {d['before']['violations']} | "
      + " / ".join("%.3g" % (p[k] * us) for k in keys)
      + f" | {ratios(c)} | {ratios(d)} | {moved(c)} / {moved(d)} | {above(c)} / {above(d)} | "
      + f"{c['after']['violations']} / {d['after']['violations']} | {ran} |")
PY
done
