#!/usr/bin/env bash
# record-emulated.sh — real MPI runs recorded by clc-trace with emulated clock
# error and their true times: a source of truth for clc's accuracy that no
# simulator wrote.
#
# Usage: scripts/record-emulated.sh [--set full|small] [--only GLOB] [--regen]
#                                   [--list] [OUTDIR]
#
# OUTDIR defaults to $CLC_EMULATED_DIR, else $XDG_CACHE_HOME/clc/emulated
# (~/.cache/clc/emulated); it may not lie inside the repository. The script
#
#  1. builds clc-trace and clc-correct from this tree into OUTDIR/bin, and the
#     C test programs of tests/mpi with each MPI's compiler (mpicc.openmpi,
#     mpicc.mpich) into OUTDIR/bin/<mpi>/ (compiler output in
#     OUTDIR/logs/build-<mpi>.log);
#  2. records, one run after the other, 4 ranks each, with
#       <launcher> -np 4 clc-trace -o OUTDIR/traces/NAME \
#           --emulate-clock=SPEC [--emulate-ranks-per-node 2] PROGRAM ARGS
#     (Open MPI: mpirun.openmpi --oversubscribe, its shared-memory transport,
#     or, as "openmpi-tcp", with --mca btl tcp,self: messages through the
#     kernel's TCP loopback; MPICH: mpirun.mpich), in a
#     working directory OUTDIR/work/NAME, with a private session directory
#     (TMPDIR, OMPI_MCA_orte_tmpdir_base, OMPI_MCA_prte_tmpdir_base) removed
#     after the run and a time limit ($CLC_RECORD_TIMEOUT seconds, default
#     300); the launcher's output goes to OUTDIR/logs/NAME.log;
#     the programs: the test programs under both MPIs, and HPCC (Debian's
#     hpcc) and LAMMPS (Debian's lmp, the LJ melt example) under the MPI
#     their binary is linked with (found with ldd);
#  3. converts some recordings into OTF2 as well (NAME-otf2: the native
#     streams copied into NAME-otf2/clc-native and converted by
#     `clc-trace --convert`, the path `--format otf2` takes), so the same
#     recording exists in both formats;
#  4. runs `clc-correct DIR --check --report OUTDIR/check/NAME.json` on every
#     recording (text report in OUTDIR/check/NAME.txt) and writes
#     OUTDIR/manifest.json and OUTDIR/README.md: every recording with its
#     program, MPI, emulation, ranks, events, wall time, size and accuracy
#     line, and what failed or was skipped and why.
#
# Idempotent: a recording that is complete (clc.json, truth/) and was made
# with the same program, arguments, MPI and emulation is kept; --regen
# records the selected ones again. A run that fails is kept as
# traces/NAME.failed for inspection and tried again on the next invocation.
# A missing MPI, program or input is skipped with a message.
#
# Options:
#   --set full    the matrix (default): test programs x {mild, strong, node2,
#                 wander} x both MPIs (and Open MPI over TCP), HPCC and
#                 LAMMPS: 86 runs, 29 OTF2 copies
#   --set small   the few short recordings kept in testdata/emulated (r-*)
#   --only GLOB   only the recordings whose name matches GLOB (e.g. 'ring-*')
#   --regen       record the selected recordings again
#   --list        print the planned recordings and exit
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
set_name=full only='*' regen=0 list=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--set) set_name=${2:?--set needs full or small}; shift 2 ;;
	--only) only=${2:?--only needs a glob}; shift 2 ;;
	--regen) regen=1; shift ;;
	--list) list=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "record-emulated: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) [ -z "$out" ] || { echo "record-emulated: one OUTDIR only" >&2; exit 2; }; out=$1; shift ;;
	esac
done
case $set_name in full | small) ;; *) echo "record-emulated: --set $set_name: want full or small" >&2; exit 2 ;; esac
out=${out:-${CLC_EMULATED_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/clc/emulated}}
out=$(realpath -m "$out")
case "$out/" in
"$repo"/*) echo "record-emulated: $out is inside the repository; give a directory outside it" >&2; exit 2 ;;
esac
timeout_s=${CLC_RECORD_TIMEOUT:-300}
ranks=4

say() { echo "record-emulated: $*"; }

# ---------------------------------------------------------------- the plan
# Emulation settings: clc-trace --emulate-clock SPEC (the seed is added per
# recording) and the ranks per emulated node.
declare -A emu=(
	[mild]=offset=1ms,drift=10ppm,wander=2us,period=200ms
	[strong]=offset=10ms,drift=50ppm,wander=5us,period=100ms
	[node2]=offset=5ms,drift=30ppm,wander=3us,period=1s
	[wander]=offset=2ms,drift=20ppm,wander=20us,period=3s
)
declare -A rpn=([mild]=1 [strong]=1 [node2]=2 [wander]=1)

# Arguments per program and MPI (openmpi-tcp: Open MPI over TCP), chosen
# so that a run leaves 10^4-10^6 events and, where that allows, takes 10-60 s
# on a loaded 2-core machine. ring, halo, master, colls, comms, nbr and
# persist only communicate: under Open MPI's shared memory 10^6 of their
# events take well under a second (those runs are kept as the short,
# low-latency case), over TCP 4-25 s; MPICH's ranks busy-poll and take
# longer for the same work.
declare -A args
if [ "$set_name" = full ]; then
	prefix=""
	args=(
		[ring.openmpi]=2500 [ring.openmpi-tcp]=4500 [ring.mpich]=400
		[halo.openmpi]="3000 64" [halo.openmpi-tcp]="8000 64" [halo.mpich]="1500 64"
		[master.openmpi]=15000 [master.openmpi-tcp]=60000 [master.mpich]=40000
		[colls.openmpi]=300 [colls.openmpi-tcp]=650 [colls.mpich]=30
		[long.openmpi]=30 [long.mpich]=30
		[poll.openmpi]="400 100000 20" [poll.mpich]="800 100000 20"
		[comms.openmpi]=1000 [comms.openmpi-tcp]=5000 [comms.mpich]=600
		[nbr.openmpi]=500 [nbr.openmpi-tcp]=500 [nbr.mpich]=50
		[persist.openmpi]=3000 [persist.openmpi-tcp]=10000 [persist.mpich]=2000
	)
	# HPCC: the example input (N = 1000), as a new user runs it, 7-40 s. Its
	# events are mostly the polls of MPIRandomAccess and grow with the time
	# it polls, which the machine's load sets: 1.3-5.4 million (N = 500
	# leaves fewer than 10^6 but runs only 2-4 s). LAMMPS: 2,000 steps, 0.6
	# million events, 7-11 s.
	hpcc_n=1000 lammps_steps=2000
	# PROGRAM:SETTINGS[:MPIS] (default openmpi,mpich); the OTF2 twins: every
	# node2 recording and HPCC's and LAMMPS's strong ones
	matrix=(
		ring:mild,strong,node2,wander halo:mild,strong,node2,wander
		master:mild,strong,node2,wander colls:mild,strong,node2,wander
		long:mild,strong,node2,wander poll:mild,strong,node2,wander
		comms:strong,node2 nbr:strong,node2 persist:strong,node2
		ring:strong,node2,wander:openmpi-tcp halo:strong,node2,wander:openmpi-tcp
		master:strong,node2,wander:openmpi-tcp colls:strong,node2,wander:openmpi-tcp
		comms:strong,node2:openmpi-tcp nbr:strong,node2:openmpi-tcp persist:strong,node2:openmpi-tcp
		hpcc:mild,strong,node2,wander lammps:mild,strong,node2,wander
	)
	twin() { case $1 in *-node2 | hpcc-*-strong | lammps-*-strong) return 0 ;; esac; return 1; }
else
	prefix="r-"
	# seconds of run time (drift and wander show) with few events
	args=(
		[long.openmpi]=10 [long.mpich]=10
		[poll.openmpi]="150 100000 20" [poll.mpich]="300 100000 20"
	)
	hpcc_n=1000 lammps_steps=150
	matrix=(long:wander:openmpi long:strong:mpich poll:node2 lammps:node2)
	twin() { case $1 in r-poll-ompi-node2) return 0 ;; esac; return 1; }
fi
short() { case $1 in openmpi) echo ompi ;; openmpi-tcp) echo ompi-tcp ;; *) echo "$1" ;; esac; }
flavour() { echo "${1%-tcp}"; } # the MPI library of a launch variant

# ------------------------------------------------------------------ tools
need() { command -v "$1" >/dev/null 2>&1; }
need go || { echo "record-emulated: go not found" >&2; exit 1; }
need /usr/bin/python3 || { echo "record-emulated: /usr/bin/python3 not found (it writes the manifest)" >&2; exit 1; }
need timeout || { echo "record-emulated: timeout (coreutils) not found" >&2; exit 1; }

declare -A launcher cc have_mpi mpi_version
mpis=()
if need mpicc.openmpi && need mpirun.openmpi; then
	mpis+=(openmpi) cc[openmpi]=mpicc.openmpi launcher[openmpi]="mpirun.openmpi --oversubscribe"
	launcher[openmpi-tcp]="mpirun.openmpi --oversubscribe --mca btl tcp,self" have_mpi[openmpi-tcp]=1
	mpi_version[openmpi]=$(mpirun.openmpi --version 2>&1 | head -1)
else
	say "skip Open MPI: mpicc.openmpi or mpirun.openmpi not found (Debian: openmpi-bin, libopenmpi-dev)"
fi
if need mpicc.mpich && need mpirun.mpich; then
	mpis+=(mpich) cc[mpich]=mpicc.mpich launcher[mpich]=mpirun.mpich
	mpi_version[mpich]="MPICH $(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')"
else
	say "skip MPICH: mpicc.mpich or mpirun.mpich not found (Debian: mpich, libmpich-dev)"
fi
for m in "${mpis[@]}"; do have_mpi[$m]=1; done
[ ${#mpis[@]} -gt 0 ] || { echo "record-emulated: no MPI found" >&2; exit 1; }

# linked_mpi BINARY: the MPI flavour BINARY is linked with, from ldd.
linked_mpi() {
	local l
	l=$(ldd "$1" 2>/dev/null) || return 1
	case $l in
	*libmpich.so*) echo mpich ;;
	*libmpi.so.4*) echo openmpi ;;
	*) return 1 ;;
	esac
}
# find_file CANDIDATE...: the first that exists (NAME.gz counts, unpacked later).
find_file() {
	local f
	for f in "$@"; do
		if [ -f "$f" ] || [ -f "$f.gz" ]; then echo "$f"; return 0; fi
	done
	return 1
}
unpack() { if [ -f "$1" ]; then cat "$1"; else gzip -dc "$1.gz"; fi; }

# ------------------------------------------------------------------- list
declare -a plan skipped
# plan entries: NAME|PROGRAM|MPI|SETTING
for entry in "${matrix[@]}"; do
	IFS=: read -r prog setlist mpilist <<<"$entry"
	IFS=, read -r -a sets <<<"$setlist"
	IFS=, read -r -a ms <<<"${mpilist:-openmpi,mpich}"
	for m in "${ms[@]}"; do
		# a test program runs under the MPIs it has arguments for; HPCC and
		# LAMMPS are planned under both and skipped below under the MPI
		# they are not linked with
		case $prog in hpcc | lammps) ;; *) [ -n "${args[$prog.$m]:-}" ] || continue ;; esac
		for s in "${sets[@]}"; do
			plan+=("$prefix$prog-$(short "$m")-$s|$prog|$m|$s")
		done
	done
done
selected=()
for p in "${plan[@]}"; do
	# shellcheck disable=SC2053 # GLOB is a pattern
	[[ ${p%%|*} == $only ]] && selected+=("$p")
done
if [ $list = 1 ]; then
	for p in "${selected[@]}"; do
		IFS='|' read -r name prog m s <<<"$p"
		printf '%-28s %-8s %-8s %-7s %s rpn=%s%s\n' "$name" "$prog" "$m" "$s" "${emu[$s]}" "${rpn[$s]}" "$(twin "$name" && echo ' +otf2')"
	done
	exit 0
fi
[ ${#selected[@]} -gt 0 ] || { echo "record-emulated: no recording matches --only '$only'" >&2; exit 2; }

mkdir -p "$out"/{bin,cache,inputs,logs,meta,check,traces,work}
export CLC_CACHE_DIR=$out/cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

say "output directory $out (set $set_name, ${#selected[@]} recordings selected)"
say "building clc-trace and clc-correct from $repo"
(cd "$repo" && go build -o "$out/bin/" ./cmd/clc-trace ./cmd/clc-correct)
clc_rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$repo" diff --quiet HEAD 2>/dev/null || clc_rev="$clc_rev+dirty"

tests_c=(ring halo master colls long poll comms nbr persist)
for m in "${mpis[@]}"; do
	say "building the test programs of tests/mpi with ${cc[$m]} (log: logs/build-$m.log)"
	mkdir -p "$out/bin/$m"
	: >"$out/logs/build-$m.log"
	for p in "${tests_c[@]}"; do
		if ! "${cc[$m]}" -O2 -o "$out/bin/$m/$p" "$repo/tests/mpi/$p.c" >>"$out/logs/build-$m.log" 2>&1; then
			say "building $p with ${cc[$m]} failed: see $out/logs/build-$m.log"
			rm -f "$out/bin/$m/$p"
		fi
	done
done

# HPCC and LAMMPS: binaries, the MPI they are linked with, inputs.
# find_app NAME "BINARIES" "INPUTS" PACKAGES PREPARE: app_bin[NAME] is the
# first of BINARIES on PATH, app_mpi[NAME] the MPI it is linked with (empty
# when it cannot run, app_why[NAME] says why); PREPARE INPUT writes the
# run's input from the first of INPUTS that exists and fails when it cannot.
declare -A app_bin app_mpi app_why
find_app() {
	local name=$1 b in="" mpi
	app_mpi[$name]=""
	for b in $2; do
		if need "$b"; then app_bin[$name]=$(command -v "$b"); break; fi
	done
	if [ -z "${app_bin[$name]:-}" ]; then app_why[$name]="${2%% *} not found (Debian: $4)"; return; fi
	if ! mpi=$(linked_mpi "${app_bin[$name]}"); then
		app_why[$name]="${app_bin[$name]} is not linked with Open MPI or MPICH (ldd)"
		return
	fi
	# shellcheck disable=SC2086 # INPUTS are words
	if ! in=$(find_file $3); then app_why[$name]="no input found (looked for: $3; Debian: $4)"; return; fi
	if ! $5 "$in"; then app_why[$name]="$in: not the expected example input"; return; fi
	app_mpi[$name]=$mpi
}
# the example input (HPL 2x2 grid, NB 80) with one problem size N
hpcc_input() {
	unpack "$1" | sed -E "6s/^[0-9]+( +Ns)/$hpcc_n\\1/" >"$out/inputs/hpccinf-$hpcc_n.txt" &&
		grep -Eq "^$hpcc_n +Ns" "$out/inputs/hpccinf-$hpcc_n.txt"
}
# the LJ melt example (4,000 atoms) with more steps
lammps_input() {
	unpack "$1" | sed -E "s/^run[[:space:]]+[0-9]+/run $lammps_steps/" >"$out/inputs/in.melt-$lammps_steps" &&
		grep -Eq "^run $lammps_steps\$" "$out/inputs/in.melt-$lammps_steps"
}
find_app hpcc hpcc "/usr/share/doc/hpcc/examples/_hpccinf.txt /usr/share/hpcc/_hpccinf.txt" hpcc hpcc_input
find_app lammps "lmp lmp_mpi lmp_openmpi lmp_mpich" \
	"/usr/share/lammps/examples/melt/in.melt /usr/share/doc/lammps-examples/examples/melt/in.melt" \
	"lammps, lammps-examples" lammps_input
[ -z "${app_mpi[hpcc]}" ] || say "hpcc: ${app_bin[hpcc]}, linked with ${app_mpi[hpcc]} (ldd); runs only under it, N = $hpcc_n"
[ -z "${app_mpi[lammps]}" ] || say "lammps: ${app_bin[lammps]}, linked with ${app_mpi[lammps]} (ldd); runs only under it, LJ melt, $lammps_steps steps"

# ------------------------------------------------------------- recording
# complete DIR: a finished recording with its truth.
complete() {
	[ -f "$1/clc.json" ] && [ -f "$1/truth/clc.json" ] &&
		/usr/bin/python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])).get("complete") else 1)' "$1/clc.json" 2>/dev/null
}
# meta_get FILE KEY: a string field of a meta file ("" when absent).
meta_get() {
	/usr/bin/python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))
except Exception: print("")' "$1" "$2"
}
# write_meta FILE KEY=VALUE...: a JSON object of strings (ranks,
# ranks_per_node, nproc and wall_s as numbers).
write_meta() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
num = {"ranks": int, "ranks_per_node": int, "nproc": int, "wall_s": float}
m = {}
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    m[k] = num[k](v) if k in num else v
tmp = sys.argv[1] + ".tmp"
with open(tmp, "w") as f:
    json.dump(m, f, indent=1, sort_keys=True)
    f.write("\n")
import os
os.replace(tmp, sys.argv[1])
PY
}
skip() { # NAME PROGRAM MPI REASON
	say "skip $1: $4"
	write_meta "$out/meta/$1.json" name="$1" program="$2" mpi="$3" status=skipped reason="$4" set="$set_name"
}

for p in "${selected[@]}"; do
	IFS='|' read -r name prog m s <<<"$p"
	dir=$out/traces/$name
	if [ -z "${have_mpi[$m]:-}" ]; then skip "$name" "$prog" "$m" "$m is not installed"; continue; fi
	wd=$out/work/$name
	fl=$(flavour "$m")
	case $m in *-tcp) transport=tcp ;; *) transport=default ;; esac
	case $prog in
	hpcc | lammps)
		if [ -z "${app_mpi[$prog]}" ]; then skip "$name" "$prog" "$fl" "${app_why[$prog]}"; continue; fi
		if [ "${app_mpi[$prog]}" != "$fl" ]; then
			skip "$name" "$prog" "$fl" "${app_bin[$prog]} is linked with ${app_mpi[$prog]} (ldd), not $fl"
			continue
		fi
		version="$prog $(dpkg-query -W -f '${Version}' "$prog" 2>/dev/null || echo unknown)"
		if [ "$prog" = hpcc ]; then
			cmd=("${app_bin[hpcc]}") argstr="(hpccinf.txt: example input, N = $hpcc_n)" input=$out/inputs/hpccinf-$hpcc_n.txt
		else
			cmd=("${app_bin[lammps]}" -in in.melt -log log.lammps) input=$out/inputs/in.melt-$lammps_steps
			argstr="-in in.melt -log log.lammps (examples/melt, run $lammps_steps)"
		fi
		;;
	*)
		if [ ! -x "$out/bin/$fl/$prog" ]; then skip "$name" "$prog" "$fl" "tests/mpi/$prog.c did not build with ${cc[$fl]}"; continue; fi
		# shellcheck disable=SC2206 # the arguments are words
		cmd=("$out/bin/$fl/$prog" ${args[$prog.$m]}) argstr=${args[$prog.$m]} input=""
		version="tests/mpi/$prog.c"
		;;
	esac
	seed=$(($(printf %s "${name#"$prefix"}" | cksum | cut -d' ' -f1) % 1000 + 1))
	spec="${emu[$s]},seed=$seed"
	flags=(--emulate-clock="$spec")
	[ "${rpn[$s]}" = 1 ] || flags+=(--emulate-ranks-per-node "${rpn[$s]}")
	# what makes a recording: it is kept while this stays the same
	key="$m|$prog $argstr|$spec|rpn=${rpn[$s]}|np=$ranks"
	if [ $regen = 0 ] && complete "$dir" && [ "$(meta_get "$out/meta/$name.json" key)" = "$key" ]; then
		say "have $name (recorded $(meta_get "$out/meta/$name.json" recorded))"
	else
		rm -rf "$dir" "$dir.failed" "$wd" "$dir-otf2"
		mkdir -p "$wd"
		[ -z "$input" ] || cp "$input" "$wd/$(case $prog in hpcc) echo hpccinf.txt ;; *) echo in.melt ;; esac)"
		sess=$(mktemp -d /tmp/clc-rec.XXXXXX) # short: Open MPI's socket paths are limited
		# shellcheck disable=SC2206 # the launcher is words
		launch=(${launcher[$m]} -np $ranks "$out/bin/clc-trace" -o "$dir" "${flags[@]}" "${cmd[@]}")
		say "record $name: (cd work/$name && ${launch[*]})"
		t0=$(date +%s.%N)
		rc=0
		(cd "$wd" && TMPDIR=$sess OMPI_MCA_orte_tmpdir_base=$sess OMPI_MCA_prte_tmpdir_base=$sess \
			timeout -k 15 "$timeout_s" "${launch[@]}") >"$out/logs/$name.log" 2>&1 || rc=$?
		t1=$(date +%s.%N)
		rm -rf "$sess"
		wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
		common=(name="$name" program="$prog" mpi="$fl" transport="$transport" mpi_version="${mpi_version[$fl]}" setting="$s"
			emulate_clock="$spec" ranks_per_node="${rpn[$s]}" ranks=$ranks args="$argstr" version="$version"
			command="${launch[*]}" key="$key" set="$set_name" wall_s="$wall" clc="$clc_rev"
			recorded="$(date -u +%Y-%m-%dT%H:%M:%SZ)" host="$(hostname)" nproc="$(nproc)"
			load="$(cut -d' ' -f1-3 /proc/loadavg)" log="logs/$name.log")
		if [ $rc = 0 ] && complete "$dir"; then
			say "recorded $name in ${wall}s ($(du -sh "$dir" | cut -f1))"
			write_meta "$out/meta/$name.json" "${common[@]}" status=ok
		else
			case $rc in 124 | 137) why="timed out after ${timeout_s}s" ;; 0) why="exit status 0 but no complete trace with truth/" ;; *) why="exit status $rc" ;; esac
			say "FAILED $name: $why; log: $out/logs/$name.log (last lines below); trace kept in traces/$name.failed"
			tail -5 "$out/logs/$name.log" | sed 's/^/    /'
			[ ! -e "$dir" ] || mv "$dir" "$dir.failed"
			write_meta "$out/meta/$name.json" "${common[@]}" status=failed reason="$why"
			continue
		fi
	fi
	if twin "$name"; then
		tdir=$dir-otf2
		rec=$(meta_get "$out/meta/$name.json" recorded)
		if [ -f "$tdir/traces.otf2" ] && [ -f "$tdir/truth/clc.json" ] && [ "$(meta_get "$out/meta/$name-otf2.json" twin_recorded)" = "$rec" ]; then
			say "have $name-otf2"
		else
			say "convert $name to OTF2: copy its native streams to traces/$name-otf2/clc-native, clc-trace --convert traces/$name-otf2"
			rm -rf "$tdir"
			mkdir -p "$tdir/clc-native"
			cp -r "$dir/clc.json" "$dir/events" "$dir/truth" "$tdir/clc-native/"
			if "$out/bin/clc-trace" --convert "$tdir" >>"$out/logs/$name.log" 2>&1; then
				write_meta "$out/meta/$name-otf2.json" name="$name-otf2" twin_of="$name" twin_recorded="$rec" status=ok format=otf2 set="$set_name"
			else
				say "FAILED converting $name to OTF2: see $out/logs/$name.log"
				write_meta "$out/meta/$name-otf2.json" name="$name-otf2" twin_of="$name" status=failed reason="clc-trace --convert failed" format=otf2 set="$set_name"
			fi
		fi
	fi
done

# ------------------------------------------------------------ validation
say "checking every recording with clc-correct --check (reports in check/)"
for p in "${selected[@]}"; do
	name=${p%%|*}
	for n in "$name" "$name-otf2"; do
		[ "$(meta_get "$out/meta/$n.json" status)" = ok ] || continue
		rc=0
		"$out/bin/clc-correct" "$out/traces/$n" --check --report "$out/check/$n.json" >"$out/check/$n.txt" 2>&1 || rc=$?
		echo "$rc" >"$out/check/$n.rc"
		line=$(grep -m1 'accuracy vs truth' "$out/check/$n.txt" | sed 's/^ *//' || true)
		if [ "$rc" = 0 ]; then say "$n: ${line:-no accuracy line (no truth?)}"; else say "$n: clc-correct failed (exit $rc): see check/$n.txt"; fi
	done
done

/usr/bin/python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
def size(d):
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
recs, failed, skipped = [], [], []
metas = {os.path.basename(p)[:-5]: load(p) for p in sorted(glob.glob(os.path.join(out, "meta", "*.json")))}
for name, m in metas.items():
    if m is None:
        continue
    if m.get("status") == "skipped":
        skipped.append({k: m.get(k) for k in ("name", "program", "mpi", "reason")})
        continue
    if m.get("status") != "ok":
        failed.append({k: m.get(k) for k in ("name", "program", "mpi", "setting", "reason", "log", "wall_s", "command")})
        continue
    src = metas.get(m.get("twin_of")) if m.get("twin_of") else m
    if src is None:
        continue
    d = os.path.join(out, "traces", name)
    man = load(os.path.join(out, "traces", m.get("twin_of") or name, "clc.json"))  # the native manifest
    r = {k: src.get(k) for k in ("program", "args", "version", "mpi", "transport", "mpi_version", "setting", "emulate_clock",
                                 "ranks_per_node", "ranks", "wall_s", "command", "recorded", "clc", "load", "set")}
    r["transport"] = r["transport"] or "default"
    r["name"] = name
    r["path"] = os.path.join("traces", name)
    r["format"] = "otf2" if m.get("twin_of") else "native"
    if m.get("twin_of"):
        r["same_recording_as"] = m["twin_of"]
    r["bytes"] = size(d)
    r["truth_bytes"] = size(os.path.join(d, "truth"))
    if man:
        locs = man.get("locations", [])
        r["events"] = sum(l.get("events", 0) for l in locs)
        r["locations"] = len(locs)
        r["emulated_nodes"] = len(man.get("nodes", []))
        res = man.get("timer_resolution")
        offs = locs[0].get("offsets", []) if locs else []
        if res and len(offs) >= 2:  # rank 0 keeps the true clock
            r["init_to_finalize_s"] = round((offs[-1]["time"] - offs[0]["time"]) / res, 2)
    c = {}
    try:
        c["exit"] = int(open(os.path.join(out, "check", name + ".rc")).read())
    except (OSError, ValueError):
        pass
    try:
        for line in open(os.path.join(out, "check", name + ".txt")):
            if "accuracy vs truth" in line:
                c["accuracy_line"] = line.strip()
    except OSError:
        pass
    rep = load(os.path.join(out, "check", name + ".json"))
    if rep:
        a = rep.get("accuracy") or {}
        p, q = a.get("presync_only") or {}, a.get("corrected") or {}
        us = 1e6 / rep["timer_resolution"] if rep.get("timer_resolution") else None
        for k, short in (("mean_abs_error_ticks", "mean"), ("p99_abs_error_ticks", "p99"), ("max_abs_error_ticks", "max")):
            if us and k in p and k in q:
                c[f"presync_{short}_us"] = round(p[k] * us, 3)
                c[f"corrected_{short}_us"] = round(q[k] * us, 3)
                c[f"{short}_ratio"] = round(q[k] / p[k], 3) if p[k] else None
        c["violations_before"] = (rep.get("before") or {}).get("violations")
        c["violations_after"] = (rep.get("after") or {}).get("violations")
        c["method"] = (rep.get("method") or {}).get("ran")
    r["check"] = c
    recs.append(r)
manifest = {
    "description": "MPI runs recorded by clc-trace with emulated clock error (--emulate-clock) on one machine; "
                   "truth/ in each recording holds the same events at their true (TSC) times. "
                   "check: clc-correct DIR --check with its defaults at the time of the check.",
    "recordings": recs, "failed": failed, "skipped": skipped,
}
tmp = os.path.join(out, "manifest.json.tmp")
with open(tmp, "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
os.replace(tmp, os.path.join(out, "manifest.json"))

def fmt(x, f="%.2f"):
    return "" if x is None else f % x
lines = ["# Recorded MPI runs with emulated clocks", "",
         "Written by `scripts/record-emulated.sh` (the clc repository); `manifest.json` holds the same with more fields.",
         "Each `traces/NAME` is a clc-trace recording (native, or `-otf2`: the same recording converted to OTF2) with `truth/`.",
         "Accuracy: `clc-correct traces/NAME --check` (defaults at check time): mean, p99 and max |t - truth| after",
         "pre-synchronisation (µs) and the corrected ratios to them; violations before → after.", "",
         "| recording | program | MPI | emulation | rpn | ranks | events | wall s | init→finalize s | MB | presync mean / p99 / max µs | corrected ratios | violations |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
for r in recs:
    c = r["check"]
    prog = (r["program"] + " " + str(r.get("args") or "")).strip()
    lines.append("| %s | %s | %s | %s (`%s`) | %s | %s | %s | %s | %s | %.1f | %s | %s | %s |" % (
        r["name"] + (" (OTF2)" if r["format"] == "otf2" else ""), prog,
        r["mpi"] + (" (%s)" % r["transport"] if r["transport"] != "default" else ""), r["setting"], r["emulate_clock"],
        r["ranks_per_node"], r["ranks"], r.get("events", ""), r.get("wall_s", ""), fmt(r.get("init_to_finalize_s"), "%.1f"),
        r["bytes"] / 1e6,
        " / ".join(fmt(c.get(f"presync_{k}_us"), "%.3g") for k in ("mean", "p99", "max")),
        " / ".join(fmt(c.get(f"{k}_ratio")) for k in ("mean", "p99", "max")),
        "%s → %s" % (c.get("violations_before"), c.get("violations_after")) if "violations_after" in c else "check failed"))
if failed:
    lines += ["", "Failed:", ""] + ["- %s: %s (log: %s)" % (f["name"], f["reason"], f.get("log")) for f in failed]
if skipped:
    lines += ["", "Skipped:", ""] + ["- %s: %s" % (s["name"], s["reason"]) for s in skipped]
with open(os.path.join(out, "README.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("record-emulated: %d recordings, %d failed, %d skipped; %s" % (len(recs), len(failed), len(skipped), os.path.join(out, "manifest.json")))
PY
