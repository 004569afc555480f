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
# the default method and with --method clc on each, and prints the mean and
# largest |time - truth| after pre-synchronisation (µs) and the ratios of the
# pure CLC's and the default's to them, with the method that ran.
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

printf '%-14s %8s %6s %18s %14s %14s  %s\n' trace events viol "presync mean/max" "clc ratio" "default ratio" "method (default)"
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
res = d["timer_resolution"]
def acc(r, k):
    a = r["accuracy"][k]
    return a["mean_abs_error_ticks"], a["max_abs_error_ticks"]
pm, px = acc(d, "presync_only")
cm, cx = acc(c, "corrected")
dm, dx = acc(d, "corrected")
ev = d["accuracy"]["corrected"]["events"]
viol = d["before"]["violations"]
ran = d["method"]["ran"]
why = d["method"].get("fallback", "")
why = f"({why})" if why else ""
us = 1e6 / res
print(f"{base.split('/')[-1]:<14} {ev:8d} {str(viol):>6} {pm*us:8.3g} / {px*us:7.3g} "
      f"{cm/pm:6.2f} / {cx/px:5.2f} {dm/pm:6.2f} / {dx/px:5.2f}  {ran} {why}")
PY
done
