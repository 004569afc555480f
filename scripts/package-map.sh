#!/usr/bin/env bash
# package-map.sh: the map of the module's Go packages, from go list.
#
#   scripts/package-map.sh [DIR]            a Markdown table: package, what it
#                                           does (its doc comment's first
#                                           sentence), the project packages it
#                                           imports; then the counts
#   scripts/package-map.sh --imports [DIR]  one line per package: the package
#                                           and the project packages it imports
#   scripts/package-map.sh --check [DIR]    checks the layering rules
#                                           (docs/packages.md) and exits 1 if
#                                           one fails
#
# DIR is the module's root (default: the repository this script is in); a
# `git worktree add /tmp/old COMMIT` gives the map of an older commit.
# Package paths are printed without the module's prefix. Imports are those of
# the package's non-test files (go list's .Imports), except for the cycle
# check, which adds the in-package test files' (.TestImports).
set -euo pipefail
mode=map
case "${1:-}" in
--imports) mode=imports; shift ;;
--check) mode=check; shift ;;
-h | --help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir"
mod=$(go list -m)

# own FIELDS: per package, "pkg|field1|field2..." with the module's prefix
# cut and, in the import lists, only the module's own packages kept.
# FIELDS is a go list template of '|'-separated fields; import lists must be
# joined by spaces.
own() {
	go list -f "{{.ImportPath}}|$1" ./... | awk -F'|' -v mod="$mod" '
	function strip(p) { return p == mod ? "." : substr(p, length(mod) + 2) }
	function ownlist(s,   n, a, i, out) {
		n = split(s, a, " "); out = ""
		for (i = 1; i <= n; i++)
			if (a[i] == mod || index(a[i], mod "/") == 1)
				out = out (out == "" ? "" : " ") strip(a[i])
		return out
	}
	{
		line = strip($1)
		for (f = 2; f <= NF; f++) line = line "|" ($f ~ /^IMPORTS / ? ownlist(substr($f, 9)) : $f)
		print line
	}'
}

case $mode in
imports)
	own 'IMPORTS {{join .Imports " "}}' | awk -F'|' '{ printf "%-34s %s\n", $1, ($2 == "" ? "-" : $2) }'
	;;
map)
	echo "| package | what it does | imports from the project |"
	echo "|---|---|---|"
	# The doc's first sentence (go list's .Doc), without the leading
	# "Package x"/"Command x", cut at its first colon, dash, parenthesis,
	# semicolon or ", the"/", on" past 20 characters, and at a word
	# before 110 characters, so that it fits a line.
	own '{{.Doc}}|IMPORTS {{join .Imports " "}}' | awk -F'|' '{
		d = $2
		sub(/^(Package|Command) [^ ]+ (is |holds )?/, "", d)
		best = 0
		n = split(": | — | \\(|; |, the |, on ", seps, "|")
		for (i = 1; i <= n; i++) {
			s = d; off = 0
			while ((k = index(s, seps[i])) > 0) {
				if (off + k > 20) { if (best == 0 || off + k < best) best = off + k; break }
				off += k; s = substr(s, k + 1)
			}
		}
		if (best > 0) d = substr(d, 1, best - 1) " …"
		if (length(d) > 110) {
			d = substr(d, 1, 110)
			sub(/ [^ ]*$/, " …", d)
		}
		sub(/\.$/, "", d)
		printf "| `%s` | %s | %s |\n", $1, d, ($3 == "" ? "–" : $3)
	}'
	echo
	own '{{.Name}}|IMPORTS {{join .Imports " "}}' | awk -F'|' '
		{ n++; if ($2 == "main") m++; e += split($3, a, " ") }
		END { printf "%d packages (%d of them commands), %d import edges between them.\n", n, m, e }'
	;;
check)
	fail=0
	imports=$(own 'IMPORTS {{join .Imports " "}}')
	# deps P: the project packages P imports, directly or not.
	deps() {
		go list -deps -f '{{.ImportPath}}' "./$1" | awk -v mod="$mod" -v self="$mod/$1" \
			'index($0, mod "/") == 1 && $0 != self { print substr($0, length(mod) + 2) }'
	}
	# verdict NAME BAD: prints ok NAME, or FAIL NAME and what BAD lists.
	verdict() {
		if [ -z "${2// /}" ]; then
			echo "ok    $1"
		else
			echo "FAIL  $1:$2"
			fail=1
		fi
	}
	# rule NAME PACKAGES -- FORBIDDEN: none of PACKAGES depends on any of
	# FORBIDDEN.
	rule() {
		local name=$1 p q bad=""
		shift
		local -a from=() forbidden=()
		while [ "$1" != -- ]; do from+=("$1"); shift; done
		shift
		forbidden=("$@")
		for p in "${from[@]}"; do
			for q in $(deps "$p"); do
				for f in "${forbidden[@]}"; do
					[ "$q" = "$f" ] && bad="$bad $p→$q"
				done
			done
		done
		verdict "$name" "$bad"
	}
	# No cycles: a topological sort of every import edge (the in-package
	# tests' too) succeeds.
	if own 'IMPORTS {{join .Imports " "}} {{join .TestImports " "}}' |
		awk -F'|' '{ n = split($2, a, " "); print $1, $1; for (i = 1; i <= n; i++) if (a[i] != $1) print $1, a[i] }' |
		tsort >/dev/null 2>&1; then
		echo "ok    no import cycles (tsort over every edge, in-package tests' included)"
	else
		echo "FAIL  import cycle: tsort says"
		own 'IMPORTS {{join .Imports " "}} {{join .TestImports " "}}' |
			awk -F'|' '{ n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] != $1) print $1, a[i] }' | tsort 2>&1 >/dev/null | head
		fail=1
	fi
	# The layers of docs/packages.md, from the bottom up: no package imports
	# from a layer above its own, and every package has a layer.
	layers=(
		"internal/par internal/order internal/infile internal/memlimit internal/cli internal/testenv internal/mpitool comm"
		"trace internal/tracelabel internal/truthfile comm/mpi"
		"native otf presync"
		"replay measure clockmodel clc repair partition"
		"output htmlreport perfetto repair/job internal/scalestudy"
		"sim tracer tracer/abi tracer/mpifn internal/tracetest internal/pipetest internal/simscenario"
		"cmd/clc-correct cmd/clc-sim cmd/clc-trace cmd/clc-trace/internal/genpmpi tools/accuracy tools/paramstudy tools/partition bench"
	)
	bad=$(for i in "${!layers[@]}"; do for p in ${layers[$i]}; do echo "$p $i"; done; done |
		awk -v imports="$imports" '
		{ layer[$1] = $2 }
		END {
			n = split(imports, lines, "\n")
			for (k = 1; k <= n; k++) {
				split(lines[k], f, "|")
				p = f[1]
				if (!(p in layer)) { printf " %s has no layer;", p; continue }
				m = split(f[2], a, " ")
				for (i = 1; i <= m; i++)
					if (layer[a[i]] > layer[p]) printf " %s→%s goes up;", p, a[i]
			}
		}')
	verdict "every package has a layer, and imports from none above its own" "$bad"
	algorithms=(replay clockmodel clc measure repair repair/job)
	io=(native otf output perfetto htmlreport repair/job internal/infile internal/truthfile)
	rule "the formats (trace native otf) depend on no algorithm" \
		trace native otf -- "${algorithms[@]}"
	# otf imports presync (the OTF2 reader's interpolation of clock
	# offsets, for the global offset it writes): presync stays a leaf.
	bad=""
	for q in $(deps presync); do
		case $q in trace | internal/par) ;; *) bad="$bad presync→$q" ;; esac
	done
	verdict "presync (which otf imports) depends on trace and internal/par only" "$bad"
	rule "the algorithms (presync replay clockmodel clc measure repair) depend on no I/O" \
		presync replay clockmodel clc measure repair -- "${io[@]}"
	floor=(internal/par internal/order internal/infile internal/memlimit internal/cli internal/testenv internal/mpitool comm)
	bad=""
	for p in "${floor[@]}"; do
		[ -d "$p" ] || continue
		for q in $(deps "$p"); do bad="$bad $p→$q"; done
	done
	verdict "the floor imports no project package" "$bad"
	# importers P: the packages that import P directly.
	importers() { awk -F'|' -v t="$1" '{ n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] == t) print $1 }' <<<"$imports"; }
	mains=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./... | awk -v mod="$mod" 'NF { print substr($0, length(mod) + 2) }')
	bad=$(grep -v -e '^cmd/' -e '^tools/' <<<"$mains" | tr '\n' ' ' || true)
	verdict "every command (package main) is under cmd/ or tools/" "$bad"
	# library P: P is not a command.
	library() { ! grep -qx -- "$1" <<<"$mains"; }
	bad=""
	for q in $(importers repair/job); do library "$q" && bad="$bad $q"; done
	verdict "only commands import repair/job ($(importers repair/job | tr '\n' ' ' | sed 's/ $//'))" "$bad"
	support=(internal/tracetest internal/pipetest internal/testenv internal/simscenario sim)
	bad=""
	for p in "${support[@]}"; do
		for q in $(importers "$p"); do
			case " ${support[*]} " in *" $q "*) continue ;; esac
			library "$q" && bad="$bad $q→$p"
		done
	done
	verdict "no library package imports sim or the test and study support" "$bad"
	exit $fail
	;;
esac
