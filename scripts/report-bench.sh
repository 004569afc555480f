#!/usr/bin/env bash
# report-bench.sh [EVENTS] — size and cost of clc-correct's HTML report and
# Perfetto export at 16, 1,024 and 65,536 ranks (clc-sim traces of about
# EVENTS events, default 10^7, as in docs/performance.md).
#
# For each trace: clc-correct --check without and with --html (CPU seconds
# user+sys and wall, best of two; the report's timing_s.html; the page's
# size), then --format perfetto with the default size guard (wall, size of
# trace.json.gz). CPU time is what a loaded machine disturbs least.
set -euo pipefail
events=${1:-10000000}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$repo"
go build -o "$work/bin/" ./cmd/clc-sim ./cmd/clc-correct
bin=$work/bin

# cpu CMD…: prints "wall cpu" of the best of two runs (by CPU).
cpu() {
	local best=""
	for _ in 1 2; do
		/usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1
		read -r w u s <"$work/time.txt"
		local c
		c=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')
		if [ -z "$best" ] || awk -v a="$c" -v b="${best#* }" 'BEGIN{exit !(a<b)}'; then
			best="$w $c"
		fi
	done
	echo "$best"
}

printf '| ranks | events | --check wall / CPU | with --html wall / CPU | timing_s.html | page | --format perfetto wall / CPU | trace.json.gz | slices kept |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for spec in "16 4" "1024 16" "65536 16"; do
	set -- $spec
	tr=$work/b$1
	if [ ! -f "$tr/clc.json" ]; then
		"$bin/clc-sim" "$tr" --ranks "$1" --ranks-per-node "$2" --events "$events" --compute 2ms --clock-wander 10us --seed 7 2>/dev/null
	fi
	base=$(cpu "$bin/clc-correct" "$tr" --check -q)
	html=$(cpu "$bin/clc-correct" "$tr" --check -q --html "$work/p$1.html")
	"$bin/clc-correct" "$tr" --check -q --html "$work/p$1.html" --report "$work/r$1.json"
	hs=$(python3 -c "import json;print(round(json.load(open('$work/r$1.json'))['timing_s']['html'],2))")
	ev=$(python3 -c "import json;print(json.load(open('$work/r$1.json'))['events'])")
	size=$(stat -c %s "$work/p$1.html")
	rm -rf "$work/v$1"
	/usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$bin/clc-correct" "$tr" -q -o "$work/v$1" --format perfetto --report "$work/v$1.json" >/dev/null 2>&1
	pw=$(awk '{printf "%s s / %.2f", $1, $2+$3}' "$work/time.txt")
	psize=$(stat -c %s "$work/v$1/trace.json.gz")
	kept=$(python3 -c "
import gzip, json
d = json.load(gzip.open('$work/v$1/trace.json.gz', 'rt'))
print(sum(1 for e in d['traceEvents'] if e['ph'] == 'X'))")
	printf '| %s | %s | %s s / %s s | %s s / %s s | %s s | %s KB | %s s | %s MB | %s |\n' "$1" "$ev" \
		"${base% *}" "${base#* }" "${html% *}" "${html#* }" "$hs" "$((size / 1024))" "$pw" \
		"$(awk -v b="$psize" 'BEGIN{printf "%.1f", b/1048576}')" "$kept"
done
