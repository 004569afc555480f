#!/usr/bin/env bash
# bench-divided.sh TRACE [RUNS] : clc-correct on TRACE as one process (its
# threads on every CPU) and as 2 processes under Open MPI's mpirun (1 thread
# each, and every CPU each), RUNS times (default 2), in turn; per run the
# wall and CPU seconds of the command and its children, the largest
# child's peak RSS and the stages from process 0's report (docs/scale.md,
# section 7). Builds clc-correct from the working tree.
set -euo pipefail
tr=$1
runs=${2:-2}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/clc-correct" ./cmd/clc-correct)
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
export OMPI_MCA_orte_tmpdir_base=$work # a private session directory
for r in $(seq "$runs"); do
  for mode in p1 p2x1 p2x2; do
    rm -rf "$work/out" "$work/r.json"
    args=("$tr" -o "$work/out" -q --truth - --report "$work/r.json")
    case $mode in
      p1) cmd=("$work/clc-correct" "${args[@]}") ;;
      p2x1) cmd=(mpirun "${root[@]}" --oversubscribe -np 2 "$work/clc-correct" "${args[@]}" -j 1) ;;
      p2x2) cmd=(mpirun "${root[@]}" --oversubscribe -np 2 "$work/clc-correct" "${args[@]}") ;;
    esac
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "${cmd[@]}" >"$work/log" 2>&1 || { echo "$mode failed:"; tail -5 "$work/log"; continue; }
    read -r wall user sys rss <"$work/time"
    st=$(python3 -c "import json,sys;t=json.load(open(sys.argv[1]))['timing_s'];print(' '.join('%s=%.2f'%(k,v) for k,v in t.items()))" "$work/r.json")
    echo "$mode run$r wall=$wall cpu=$(echo "$user + $sys" | bc) maxrss_kb=$rss $st"
  done
done
