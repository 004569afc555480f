#!/usr/bin/env bash
# scripts/slurm-test.sh: clc under a real single-node Slurm (Debian's
# slurm-wlm: slurmctld, slurmd; munge), started here with a configuration
# of its own and stopped at the end.
#
#   scripts/slurm-test.sh          # as root, with slurm-wlm munge openmpi-bin libopenmpi-dev mpich libmpich-dev
#
# It checks, for MPICH (srun --mpi=pmi2) and Open MPI (srun --mpi=pmix):
#   - comm/mpi under srun -n 2 and -n 3 (more tasks than cores: -O): every
#     operation gives each process what comm.Local gives it (the test
#     binary's "ops" scenario), and at -n 2 with the helper as the launched
#     process (CLC_MPI_LAUNCH=helper);
#   - clc-correct under srun -n 2: the output is the single run's, file
#     for file, with one report;
# and that clc-correct honours the job's cgroup memory limit (srun --mem):
# a trace it corrects with 2 GB it refuses for memory with 60 MB.
#
# Without Slurm it says so and exits 0, except under CI=true, where it
# fails. It ends with the plain line "N passed, M failed" and exits 1 if a
# check failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

for tool in slurmctld slurmd munged srun sinfo mpicc.mpich mpicc.openmpi; do
	if ! command -v "$tool" >/dev/null; then
		echo "slurm-test: $tool not found (install slurm-wlm munge openmpi-bin libopenmpi-dev mpich libmpich-dev)"
		[ "${CI:-}" = true ] && exit 1
		exit 0
	fi
done

work=$(mktemp -d /tmp/clc-slurm-XXXXXX)
passed=0
failed=0
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for f in "$work"/slurmd.pid "$work"/slurmctld.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	[ -n "${CLC_SLURM_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

check() { # check NAME COMMAND...: runs the command, counts and reports it
	local name=$1
	shift
	if "$@" >"$work/out" 2>&1; then
		passed=$((passed + 1))
		echo "ok    $name"
	else
		failed=$((failed + 1))
		echo "FAIL  $name"
		sed 's/^/      /' "$work/out" | tail -30
	fi
}

# munge: the authentication every Slurm message carries.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	mkdir -p /run/munge
	chown munge:munge /run/munge
	su -s /bin/sh munge -c /usr/sbin/munged
	sleep 1
fi

host=$(hostname -s)
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.7) }' /proc/meminfo)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=clc
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=pmi2
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=clc Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
# The job's memory limit is the cgroup's (task/cgroup).
cat >"$work/cgroup.conf" <<EOF
CgroupMountpoint=/sys/fs/cgroup
ConstrainCores=no
ConstrainRAMSpace=yes
EOF
export SLURM_CONF=$work/slurm.conf
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
	sinfo -h -o %t 2>/dev/null | grep -qx idle && break
	sleep 1
done
if ! sinfo -h -o %t 2>/dev/null | grep -qx idle; then
	echo "slurm-test: the node did not become idle"
	sinfo || true
	tail -20 "$work/slurmctld.log" "$work/slurmd.log" || true
	echo "0 passed, 1 failed"
	exit 1
fi

go build -o "$work/clc-correct" ./cmd/clc-correct
go test -c -o "$work/mpi.test" ./comm/mpi
export CLC_CACHE_DIR=$work/cache

# ops N MPICC PMI: comm/mpi's oracle check under srun -n N.
ops() {
	local n=$1 cc=$2 pmi=$3
	CLC_MPICC=$cc CLC_MPI_TEST_SCENARIO=ops timeout 300 srun -n "$n" -O --mem=2G --mpi="$pmi" "$work/mpi.test" >"$work/ops" 2>&1 || {
		cat "$work/ops"
		return 1
	}
	cat "$work/ops"
	[ "$(grep -c 'checked .* operations' "$work/ops")" -eq "$n" ]
}

# same CC PMI: clc-correct under srun -n 2 writes the single run's output.
same() {
	local cc=$1 pmi=$2
	local out=$work/out-$pmi
	CLC_MPICC=$cc timeout 300 srun -n 2 -O --mem=2G --mpi="$pmi" "$work/clc-correct" testdata/sim-16 -o "$out" \
		--format native --truth - --progress never >"$work/report-$pmi" &&
		diff -r "$work/single" "$out" &&
		[ "$(grep -c '  before: violations' "$work/report-$pmi")" -eq 1 ]
}

"$work/clc-correct" testdata/sim-16 -o "$work/single" --format native --truth - -q
for n in 2 3; do
	check "comm/mpi under srun -n $n --mpi=pmi2 (MPICH)" ops "$n" mpicc.mpich pmi2
	check "comm/mpi under srun -n $n --mpi=pmix (Open MPI)" ops "$n" mpicc.openmpi pmix
done
launched() { CLC_MPI_LAUNCH=helper ops 2 "$@"; }
check "comm/mpi under srun -n 2 --mpi=pmi2 (MPICH), the helper as the launched process" launched mpicc.mpich pmi2
check "comm/mpi under srun -n 2 --mpi=pmix (Open MPI), the helper as the launched process" launched mpicc.openmpi pmix
check "clc-correct under srun -n 2 --mpi=pmi2 (MPICH): the single run's output" same mpicc.mpich pmi2
check "clc-correct under srun -n 2 --mpi=pmix (Open MPI): the single run's output" same mpicc.openmpi pmix

# The job's memory limit: clc-correct's estimate for 2·10^6 events is about
# 61 MiB; the limit it may use is 80 % of the job's.
go run ./cmd/clc-sim "$work/big" --ranks 16 --events 2000000 >/dev/null 2>&1
refuses() {
	! srun -n 1 --mem=60M "$work/clc-correct" "$work/big" --check -q --truth - >"$work/mem" 2>&1 &&
		grep -q 'more than the 48.0 MiB this process may use' "$work/mem" ||
		{ cat "$work/mem"; return 1; }
}
check "clc-correct under srun --mem=60M refuses a trace that needs 61 MiB (the job's cgroup limit)" refuses
check "clc-correct under srun --mem=2G corrects it" srun -n 1 --mem=2G "$work/clc-correct" "$work/big" --check -q --truth -

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
