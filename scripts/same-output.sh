#!/usr/bin/env bash
# same-output.sh REV — runs clc-correct built at REV and at the working tree
# on every trace in testdata/ (and ../shared's, when present), writing OTF2
# and native outputs and the JSON report, and compares them byte for byte
# (the report without its timings). For refactors that must not change what
# clc-correct writes. Exit status 1 when an output differs.
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
fi

strip() { # the report without timings
  /usr/bin/python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x,dict):
        return {k:walk(v) for k,v in x.items() if k not in ("timing_s","input","output")}
    if isinstance(x,list): return [walk(v) for v in x]
    return x
print(json.dumps(walk(r),sort_keys=True,indent=1))' "$1"
}

fail=0
for in in "${inputs[@]}"; do
  for fmt in otf2 native; do
    for m in model clc; do
      ok=1
      for b in old new; do
        o="$work/out-$b"; rm -rf "$o" "$work/rep-$b.json"
        if ! "$work/$b" "$in" -o "$o" --format "$fmt" --method "$m" --report "$work/rep-$b.json" >"$work/log-$b" 2>&1; then
          echo "$b failed on $in ($fmt, $m): $(tail -1 "$work/log-$b")"; ok=0
        fi
      done
      [ $ok = 1 ] || { fail=1; continue; }
      if ! diff -r "$work/out-old" "$work/out-new" >/dev/null; then
        echo "DIFFERS: $in ($fmt, $m): output"; fail=1
      elif ! diff <(strip "$work/rep-old.json") <(strip "$work/rep-new.json") >"$work/d"; then
        echo "DIFFERS: $in ($fmt, $m): report"; head -20 "$work/d"; fail=1
      else
        echo "same: $in ($fmt, $m)"
      fi
    done
  done
done
exit $fail
