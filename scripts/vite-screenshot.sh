#!/usr/bin/env bash
# vite-screenshot.sh ARCHIVE OUT.png — open an OTF2 archive in ViTE under a
# virtual X server, take a screenshot, and check that the window shows a trace.
#
# ARCHIVE is the anchor file (…/traces.otf2) or the directory holding it.
# Writes OUT.png (the whole virtual screen) and OUT.log (ViTE's console
# output and the checks). Exit status 0 when ViTE loaded the trace to 100 %,
# its main window is titled with the archive, the OTF2 library inside ViTE
# reported no error, and the timeline area is mostly covered (not ViTE's empty
# grey background) with some coloured state rectangles; non-zero otherwise.
#
# Needs (Debian): vite xvfb (xvfb-run) imagemagick (import, convert)
# x11-utils (xwininfo).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 ARCHIVE OUT.png" >&2
	exit 2
fi
archive=$1
out=$2
if [ -d "$archive" ]; then
	archive=$archive/traces.otf2
fi
if [ ! -f "$archive" ]; then
	echo "$0: no anchor file $archive" >&2
	exit 2
fi
for tool in vite xvfb-run import convert xwininfo; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$0: $tool not found (apt-get install vite xvfb imagemagick x11-utils)" >&2
		exit 3
	fi
done
archive=$(realpath "$archive")
out=$(realpath -m "$out")
log=${out%.png}.log
timeout=${VITE_TIMEOUT:-60}

# Inside the virtual X server: start ViTE, wait until its main window has the
# archive in its title and it reports the loading at 100 %, then take the shot.
inner=$(mktemp)
trap 'rm -f "$inner"' EXIT
cat >"$inner" <<'INNER'
set -u
archive=$1 out=$2 log=$3 timeout=$4
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
vite "$archive" >"$log.vite" 2>&1 &
pid=$!
ok=0
for _ in $(seq $((timeout * 4))); do
	tree=$(xwininfo -root -tree 2>/dev/null || true)
	if grep -qF "\"ViTE :: $archive\"" <<<"$tree" &&
		grep -q 'Loading of the trace : 100%' "$log.vite" 2>/dev/null; then
		ok=1
		break
	fi
	if ! kill -0 $pid 2>/dev/null; then
		break
	fi
	sleep 0.25
done
sleep 1 # let the render finish
import -window root "$out"
kill $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
[ $ok = 1 ]
INNER
status=0
xvfb-run -a -s "-screen 0 1280x800x24" bash "$inner" "$archive" "$out" "$log" "$timeout" || status=$?
{
	echo "== ViTE console output"
	cat "$log.vite" 2>/dev/null || true
} >"$log"
rm -f "$log.vite"
if [ $status -ne 0 ]; then
	echo "FAIL: ViTE did not show $archive loaded within ${timeout}s (see $log)" | tee -a "$log" >&2
	exit 1
fi
if grep -q '^\[OTF2\].*error' "$log"; then
	echo "FAIL: the OTF2 library reported errors while ViTE read $archive (see $log)" | tee -a "$log" >&2
	exit 1
fi
# The timeline area of ViTE's 1060x628 main window at the top left of the
# screen. Without a trace it is an even grey (with ViTE's white logo); with
# one it is covered by state rectangles (coloured), arrows and gaps. Measure
# the share of pixels that are not the grey background, and the share of
# strongly coloured pixels (HSL saturation > 50 %).
crop=(-crop 780x430+220+140 +repage)
filled=$(convert "$out" "${crop[@]}" -fuzz 6% -fill black -opaque "rgb(128,128,128)" \
	-threshold 0 -format '%[fx:mean]' info:)
coloured=$(convert "$out" "${crop[@]}" -colorspace HSL -channel G -separate \
	-threshold 50% -format '%[fx:mean]' info:)
echo "timeline area: $filled not background, $coloured strongly coloured" | tee -a "$log"
if awk -v f="$filled" -v c="$coloured" 'BEGIN { exit !(f >= 0.3 && c >= 0.02) }'; then
	echo "OK: ViTE shows the trace ($out)" | tee -a "$log"
else
	echo "FAIL: the timeline area does not show a trace ($filled not background, $coloured coloured)" | tee -a "$log" >&2
	exit 1
fi
