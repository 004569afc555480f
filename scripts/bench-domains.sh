#!/usr/bin/env bash
# bench-domains.sh: the clock model's cost against the rest of clc-correct's
# pipeline at many clock domains (issue 27's table).
#
#   scripts/bench-domains.sh [OUTDIR] [RANKS...]
#
# For each rank count R (default 8000 40000 100000 400000: 1,000, 5,000,
# 12,500 and 50,000 clock domains at 8 ranks per node) it simulates
#   clc-sim OUTDIR/rR --ranks R --ranks-per-node 8 --steps 1 --seed 2
# (truth removed, once: an existing trace is reused), then runs
#   clc-correct OUTDIR/rR --check                (the default: clock model)
#   clc-correct OUTDIR/rR --check --method clc   (the pure CLC)
# alternately, three times each, and prints per run the wall and CPU
# (user + system) seconds of the whole process, the peak RSS and the
# stages' wall seconds from the report. The model's cost is the default's
# CPU minus the pure CLC's (whose "clock model" stage only lowers μ).
# OUTDIR defaults to ${CLC_BENCH_DIR:-$HOME/.cache/clc/bench-domains}; it
# must not be inside the repository.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${CLC_BENCH_DIR:-$HOME/.cache/clc/bench-domains}}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(8000 40000 100000 400000)
mkdir -p "$out"
out=$(cd "$out" && pwd)
case "$out/" in "$repo"/*) echo "bench-domains.sh: $out is inside the repository" >&2; exit 2 ;; esac
bin=$out/bin
mkdir -p "$bin"
(cd "$repo" && go build -o "$bin/" ./cmd/clc-sim ./cmd/clc-correct)
printf '%-8s %-7s %-6s %8s %8s %8s  %s\n' ranks domains method wall_s cpu_s rss_MiB "stages (wall s)"
for r in "${ranks[@]}"; do
	dir=$out/r$r
	if [ ! -f "$dir/clc.json" ]; then
		rm -rf "$dir"
		"$bin/clc-sim" "$dir" --ranks "$r" --ranks-per-node 8 --steps 1 --seed 2 >/dev/null
		rm -rf "$dir/truth"
	fi
	for rep in 1 2 3; do
		for m in model clc; do
			rep_json=$out/report-$r-$m-$rep.json
			tf=$(mktemp)
			/usr/bin/time -f '%e %U %S %M' -o "$tf" "$bin/clc-correct" "$dir" --check --method "$m" --report "$rep_json" >/dev/null
			read -r wall user sys rss <"$tf"
			rm -f "$tf"
			stages=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
t = r["timing_s"]
print(" ".join(f"{k} {t[k]:.2f}" for k in ("read", "presync", "match", "model", "correct") if k in t))
' "$rep_json")
			printf '%-8s %-7s %-6s %8.2f %8.2f %8.0f  %s\n' "$r" "$((r / 8))" "$m" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$stages"
		done
	done
done
