#!/usr/bin/env bash
# report-screenshots.sh [OUTDIR] — regenerate the screenshots of the HTML
# report in docs/: clc-correct --html on a 64-rank clc-sim trace with clock
# wander (violations, truth) and on the real Score-P trace
# testdata/scorep-pingpong, rendered by headless Chromium.
#
# Writes OUTDIR/report-sim64.png and OUTDIR/report-scorep.png (default
# OUTDIR: docs/) and the pages beside them in a temporary directory.
# Needs: go, chromium (Debian package), ImageMagick's convert (to shrink
# the PNGs; without it they stay as Chromium wrote them).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$repo/docs}")
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v chromium >/dev/null 2>&1; then
	echo "$0: chromium not found (apt-get install chromium)" >&2
	exit 3
fi
cd "$repo"
go build -o "$work/bin/" ./cmd/clc-sim ./cmd/clc-correct

# Run from the work directory so that the pages name the inputs shortly.
mkdir -p "$work/testdata"
cp -r testdata/scorep-pingpong "$work/testdata/"
(
	cd "$work"
	bin/clc-sim sim64 --ranks 64 --ranks-per-node 4 --events 200000 \
		--clock-wander 10us --wander-period 20ms --compute 200us --seed 1 2>/dev/null
	bin/clc-correct sim64 --check -q --html sim64.html
	bin/clc-correct testdata/scorep-pingpong --check -q --html scorep.html
)

# shot PAGE PNG HEIGHT: one screenshot of the whole page, 1400 pixels wide.
shot() {
	local profile
	profile=$(mktemp -d)
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --hide-scrollbars --screenshot="$2" \
		--window-size=1400,"$3" "file://$1" >/dev/null 2>&1
	rm -rf "$profile"
	if [ ! -s "$2" ]; then
		echo "$0: chromium wrote no screenshot of $1" >&2
		exit 1
	fi
	if command -v convert >/dev/null 2>&1; then
		# Trim the empty page below the content, then keep 128 colours.
		convert "$2" -trim +repage -bordercolor '#f4f5f7' -border 12 -colors 128 "PNG8:$2"
	fi
}
shot "$work/sim64.html" "$out/report-sim64.png" 3600
shot "$work/scorep.html" "$out/report-scorep.png" 3000
ls -l "$out/report-sim64.png" "$out/report-scorep.png"
