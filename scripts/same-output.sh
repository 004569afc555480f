#!/usr/bin/env bash
# same-output.sh REV [INPUT...] — runs clc-correct built at REV and at the
# working tree on the same inputs with the same command lines and compares
# what they write, byte for byte. Inputs: the ones given, else every trace in
# testdata/ (and ../shared's, when present) and two clc-sim traces made by
# the working tree's clc-sim (64 ranks, seed 3; 2,048 ranks, 8 per node, one
# step, seed 2; SAME_OUTPUT_SIM=0 leaves them out). For each input and
# method (model, clc) it compares:
#   - writing OTF2 and native: the output directory, the JSON report
#     (--report) and the text report (stdout);
#   - --check --html: the JSON report, the text report and the HTML page.
# Only the timings are masked: the values of every "timing_s" object of the
# JSON report, the text report's "time:" line, and the HTML page's stage
# times and the time it took. Exit status 1 when anything differs. For
# refactors that must not change what clc-correct writes.
set -euo pipefail
rev=${1:?usage: same-output.sh REV [INPUT...]}
shift
top=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'git -C "$top" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$top" worktree add -q --detach "$work/base" "$rev"
(cd "$work/base" && go build -o "$work/old" ./cmd/clc-correct)
(cd "$top" && go build -o "$work/new" ./cmd/clc-correct)

inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  while IFS= read -r d; do inputs+=("$d"); done < <(
    { find "$top/testdata" -name clc.json -not -path '*/truth/*' -printf '%h\n'
      find "$top/testdata" -name '*.otf2' -printf '%p\n'
      [ -d "$top/../shared" ] && find "$top/../shared/realtraces" "$top/../shared/cases" -name '*.otf2' -printf '%p\n'
    } 2>/dev/null | sort -u)
  if [ "${SAME_OUTPUT_SIM:-1}" != 0 ]; then
    (cd "$top" && go build -o "$work/clc-sim" ./cmd/clc-sim)
    "$work/clc-sim" "$work/sim-64" --ranks 64 --seed 3 >/dev/null
    "$work/clc-sim" "$work/sim-2048" --ranks 2048 --ranks-per-node 8 --steps 1 --seed 2 >/dev/null
    inputs+=("$work/sim-64" "$work/sim-2048")
  fi
fi

# mask FILE KIND writes FILE without its timings (KIND json, text or html).
mask() {
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
num = r"-?[0-9][0-9.eE+-]*"
if sys.argv[2] == "json":
    s = re.sub(r'"timing_s": \{[^{}]*\}', lambda m: re.sub(r'(": )' + num, r"\1T", m.group(0)), s)
elif sys.argv[2] == "text":
    s = re.sub(r"(?m)^  time: .*\n", "", s)
else:
    s = re.sub(r"read [0-9.]+ s, pre-synchronisation [0-9.]+ s, matching [0-9.]+ s, clock model [0-9.]+ s, "
               r"correction [0-9.]+ s, writing [0-9.]+ s; [0-9.]+ s in all", "STAGE TIMES", s)
    s = re.sub(r"Made by clc-correct in [^ ]+ [^ .]+\. ", "Made by clc-correct in TIME. ", s)
sys.stdout.write(s)
EOF
}

# same NAME KIND reports whether old's and new's NAME agree without their
# timings, printing the first lines of the difference if not.
same() {
  if [ ! -e "$work/old.$1" ] && [ ! -e "$work/new.$1" ]; then return 0; fi
  if ! diff <(mask "$work/old.$1" "$2") <(mask "$work/new.$1" "$2") >"$work/d" 2>&1; then
    echo "  $1 differs:"; head -20 "$work/d" | cut -c1-300 | sed 's/^/    /'
    return 1
  fi
}

# compare WHAT ARGS...: runs both binaries with ARGS (the same paths: OUT,
# REP and HTML are under $work and moved aside after each run) and compares.
fail=0
compare() {
  local what=$1; shift
  for b in old new; do
    rm -rf "$work/out" "$work/rep.json" "$work/page.html" "$work/$b".*
    local st=0
    "$work/$b" "$@" >"$work/$b.text" 2>"$work/$b.stderr" || st=$?
    echo "$st" >"$work/$b.status"
    [ -e "$work/out" ] && mv "$work/out" "$work/$b.out"
    [ -e "$work/rep.json" ] && mv "$work/rep.json" "$work/$b.json"
    [ -e "$work/page.html" ] && mv "$work/page.html" "$work/$b.html"
  done
  local ok=1
  cmp -s "$work/old.status" "$work/new.status" || { echo "  exit status differs: $(cat "$work/old.status") → $(cat "$work/new.status")"; ok=0; }
  cmp -s "$work/old.stderr" "$work/new.stderr" || { echo "  stderr differs"; ok=0; }
  if [ -e "$work/old.out" ] || [ -e "$work/new.out" ]; then
    diff -r "$work/old.out" "$work/new.out" >/dev/null 2>&1 || { echo "  output differs"; ok=0; }
  fi
  same json json || ok=0
  same text text || ok=0
  same html html || ok=0
  if [ $ok = 1 ]; then
    echo "same: $what (exit $(cat "$work/new.status"))"
  else
    echo "DIFFERS: $what"; fail=1
  fi
}

for in in "${inputs[@]}"; do
  for m in model clc; do
    for fmt in otf2 native; do
      compare "$in ($fmt, $m)" "$in" -o "$work/out" --format "$fmt" --method "$m" --report "$work/rep.json"
    done
    compare "$in (--check --html, $m)" "$in" --check --method "$m" --report "$work/rep.json" --html "$work/page.html"
  done
done
exit $fail
