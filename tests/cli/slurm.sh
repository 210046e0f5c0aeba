#!/bin/sh
# Under a real batch system: a one-node Slurm (munged, slurmctld and
# slurmd of Debian's munge and slurm-wlm, configured in a temporary
# directory, started here and stopped at the end whatever happens).
#
#  1. The srun lines 'pandia predict --lines srun' prints, at the
#     placements 1,0, 0 and 1, run as job steps of an allocation that
#     holds the node (salloc --exclusive, as an sbatch script would):
#     every OpenMP thread of tests/progs/showaffinity is on the CPUs of
#     the mask pandia said, and the mask is the placement's set.
#  2. Lines of two tasks, one mask each (--cpu-bind=mask_cpu:M0,M1):
#     every thread of task I (SLURM_PROCID) on the CPUs of mask I.
#  3. pandia run --runner through srun: map_cpu:{cpus} puts one task
#     (and so all its threads) on the first PU of the list; one task
#     per PU (-n {threads}) puts task I on the I-th PU; pandia run on
#     the node (--cpu-bind=none) puts thread I on the I-th PU.
#  4. pandia profile --runner through srun, with the machine found by
#     name in PANDIA_MACHINES: a description written, its runs job
#     steps of the profile's allocation.
#
# Skipped only where the packages are not installed (scripts/install-deps
# installs them) or not as root (slurmd launches the tasks as root);
# daemons that do not start fail the test with their logs.
set -u
B="${B:-build}"
# absolute: the job steps start in the directory salloc was run in,
# which a cluster need not share, and the lines name them
case $B in
/*) ;;
*) B="$(pwd)/$B" ;;
esac
P="$B/pandia"
SA="$B/tests/progs/showaffinity"
WL="$B/workloads"
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }

for prog in munged slurmctld slurmd srun salloc sinfo; do
	command -v "$prog" >/dev/null 2>&1 || skip "$prog is not" \
		"installed (Debian's munge, slurmctld, slurmd and" \
		"slurm-client; scripts/install-deps installs them)"
done
[ "$(id -u)" = 0 ] || skip "not root: slurmd launches the tasks as root"
[ -x "$SA" ] || fail "$SA is not built (make tests)"
for pu in 0 1; do
	taskset -c "$pu" true 2>/dev/null || skip "PU $pu is not available"
done

# munged refuses a socket in a directory others cannot enter
T=$(mktemp -d /tmp/pandia-slurm-XXXXXX)
chmod 755 "$T"
mkdir "$T/state" "$T/spool" "$T/log" "$T/machines"

# each daemon by its pid file: TERM, then KILL after 5 s
stop() {
	for d in slurmd slurmctld munged; do
		[ -s "$T/$d.pid" ] || continue
		pid=$(cat "$T/$d.pid")
		kill "$pid" 2>/dev/null || continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP

logs() {
	for f in "$T"/log/*; do
		[ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
}
fail_logs() { echo "FAIL: $*"; logs; exit 1; }

# two free TCP ports next to each other for slurmctld and slurmd
port_free() {
	! ss -Htln "( sport = :$1 )" 2>/dev/null | grep -q .
}
tries=0
while :; do
	port=$(shuf -i 20000-59000 -n 1)
	port_free "$port" && port_free $((port + 1)) && break
	tries=$((tries + 1))
	[ $tries -lt 20 ] || fail "no two free ports found"
done

dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$T/munge.key"
munged --socket="$T/munge.sock" --key-file="$T/munge.key" \
	--pid-file="$T/munged.pid" --log-file="$T/log/munged.log" \
	--seed-file="$T/munged.seed" 2>"$T/log/munged.err" ||
	fail_logs "munged did not start"

H=$(hostname -s)
# this node as slurmd sees it: CPUs, boards, sockets, cores, threads
node=$(slurmd -C 2>/dev/null | sed -n '1s/^NodeName=[^ ]* //p' |
	sed 's/ RealMemory=.*//')
[ -n "$node" ] || fail "slurmd -C printed no node line"
cat >"$T/slurm.conf" <<EOF
ClusterName=pandiatest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/filetxt
JobCompLoc=$T/jobcomp.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$H NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=test Nodes=$H Default=YES MaxTime=5 State=UP
EOF
# only this test's Slurm, whatever job this test runs in
for v in $(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/\1/p'); do
	unset "$v"
done
SLURM_CONF="$T/slurm.conf"
export SLURM_CONF
slurmctld -f "$SLURM_CONF" 2>"$T/log/slurmctld.err" ||
	fail_logs "slurmctld did not start"
slurmd -f "$SLURM_CONF" 2>"$T/log/slurmd.err" ||
	fail_logs "slurmd did not start"
# sinfo waits for a controller that does not answer: 3 s at most
end=$(($(date +%s) + 20))
until [ "$(timeout 3 sinfo -h -o %t 2>/dev/null)" = idle ]; do
	[ "$(date +%s)" -lt $end ] || fail_logs "the node is not idle" \
		"after 20 s: $(timeout 3 sinfo 2>&1)"
	sleep 0.2
done
echo "ok: a one-node Slurm ($node) on ports $port and $((port + 1))"

# alloc CMD...: CMD in an allocation of the whole node, its output in
# $T/run; fails with the Slurm logs
alloc() {
	timeout 60 salloc -Q -N 1 --exclusive -t 2 "$@" >"$T/run" \
		2>"$T/rerr" ||
		fail_logs "'$*' failed: $(cat "$T/rerr") $(cat "$T/run")"
}

# the predicted lines: a described two-PU machine, a workload that
# runs showaffinity
"$P" machine --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/machines/node.json" \
	>/dev/null 2>"$T/err" || fail "machine: $(cat "$T/err")"
# (the model's figures matter not: the lines are of the placement)
model='"t1": 1, "p": 0.9, "o_s": null, "o_s_status": "not measured",
"l": 0, "b": null, "b_status": "not measured", "demands": {}'
printf '{"schema": "pandia-workload/1", "command": ["%s", "--omp",
"--hold", "0", "--threads", "{threads}"], "machine": {"host": "testhost",
"cpu_model": "test CPU, 2.5 GHz", "pus": "0-1"}, "model": {%s}}\n' \
	"$SA" "$model" >"$T/w.json"

# cpus_of MASK: its CPUs as showaffinity prints them (0x3: 0,1)
cpus_of() {
	v=$(($1)) cpu=0 out=""
	while [ "$v" -gt 0 ]; do
		[ $((v & 1)) -eq 1 ] && out="$out${out:+,}$cpu"
		v=$((v >> 1)) cpu=$((cpu + 1))
	done
	echo "$out"
}

# threads_on FILE PREFIX N CPUS: N lines "PREFIXomp I cpus CPUS", I from 0
threads_on() {
	want="" i=0
	while [ $i -lt "$3" ]; do
		want="$want$2omp $i cpus $4;"
		i=$((i + 1))
	done
	got=$(grep "^$2omp " "$1" | sort | tr '\n' ';')
	[ "$got" = "$want" ]
}

# predicted PLACEMENT MASK THREADS: predict's srun line at PLACEMENT has
# MASK, and run in Slurm puts each of its THREADS threads on MASK's CPUs
predicted() {
	PANDIA_MACHINES="$T/machines" "$P" predict -m node -w "$T/w.json" \
		-p "$1" --lines srun >"$T/out" 2>"$T/err" ||
		fail "predict -p $1: $(cat "$T/err")"
	l=$(sed -n '/^to run it:/,$p' "$T/out" | sed -n '2s/^  //p')
	mask=$(echo "$l" | sed -n 's/.* --cpu-bind=mask_cpu:\(0x[0-9a-f]*\) .*/\1/p')
	[ "$mask" = "$2" ] || fail "-p $1: mask '$mask', not $2: $l"
	alloc sh -c "$l"
	threads_on "$T/run" "" "$3" "$(cpus_of "$mask")" ||
		fail "-p $1: '$l' put the threads at" \
			"$(tr '\n' ';' <"$T/run"), not all on $(cpus_of "$mask")"
	echo "ok: -p $1: $l"
}
predicted 1,0 0x3 2
predicted 0 0x1 1
predicted 1 0x2 1

# tasks MASK0,MASK1: two tasks, task I's two threads on MASK I's CPUs
tasks() {
	l="srun -n 2 --cpu-bind=mask_cpu:$1 sh -c '\"\$0\" --omp --hold 0 --threads 2 | sed \"s/^/task \$SLURM_PROCID /\"' $SA"
	alloc sh -c "$l"
	for task in 0 1; do
		m=$(echo "$1" | cut -d, -f$((task + 1)))
		threads_on "$T/run" "task $task " 2 "$(cpus_of "$m")" ||
			fail "'$l': task $task not on $(cpus_of "$m"):" \
				"$(tr '\n' ';' <"$T/run")"
	done
	echo "ok: $l"
}
tasks 0x1,0x2
tasks 0x2,0x3

# launched: how many job steps slurmd has launched so far
launched() {
	grep -c "launch task StepId=" "$T/log/slurmd.log"
}

# runner TEMPLATE WANT [OPTION...]: pandia run --runner TEMPLATE
# --cpus 1,0 of showaffinity's two threads in Slurm, which tell where
# they ran ("omp 0 cpus 1;omp 1 cpus 0;" or with "task I " before each)
runner() {
	tmpl=$1 want=$2
	shift 2
	before=$(launched)
	alloc "$P" run -q -r 1 --no-warmup --show-output "$@" \
		--runner "$tmpl" --cpus 1,0 -- "$SA" --omp --hold 0
	[ "$(launched)" -gt "$before" ] ||
		fail_logs "'$tmpl': no job step launched"
	# a run made again (its threads' roles changed) shows its output
	# again after RUN_AGAIN_LINE: the last run's lines count
	got=$(awk '/roles changed in this run: it is made again/ { n = 0 }
		/omp [0-9]* cpus/ { l[n++] = $0 }
		END { for (i = 0; i < n; i++) print l[i] }' "$T/rerr" |
		sort | tr '\n' ';')
	[ "$got" = "$want" ] || fail "'$tmpl': the threads at $got, not $want"
	echo "ok: --runner '$tmpl'"
}
# one task bound to one PU, the list's first: its threads all there
runner 'srun -N1 -n1 --cpu-bind=map_cpu:{cpus} {cmd}' \
	"omp 0 cpus 1;omp 1 cpus 1;"
# one single-threaded task per PU: task I on the I-th (one thread each:
# the runner's PANDIA_THREADS and OMP_NUM_THREADS say 2, each task 1)
runner 'srun -N1 -n {threads} --cpu-bind=map_cpu:{cpus} sh -c '\''PANDIA_THREADS=1 OMP_NUM_THREADS=1 "$0" "$@" 2>&1 | sed "s/^/task $SLURM_PROCID /"'\'' {cmd}' \
	"task 0 omp 0 cpus 1;task 1 omp 0 cpus 0;"
# one task on the whole node, pandia run there pins each thread and
# prints the command's time, which the outer pandia takes
runner "srun -N1 -n1 --cpu-bind=none $P run -q -r 1 --no-warmup --show-output --cpus {cpus} -- {cmd}" \
	"omp 0 cpus 1;omp 1 cpus 0;" --time-from 'time: *median ([0-9.]+)'


# a profile whose runs are job steps; the machine by name, shared
alloc -J pandia-profile env PANDIA_MACHINES="$T/machines" "$P" profile \
	-q --quick --no-check --keep-unreliable --counters probe -m node \
	--time-from 'time: *median ([0-9.]+)' -o "$T/prof.json" \
	--runner "srun -N1 -n1 --cpu-bind=none $P run -q -r 1 --no-warmup --cpus {cpus} -- {cmd}" \
	-- "$WL/compute" --threads '{threads}' --scale 0.02
grep -q '"t1": [0-9]' "$T/prof.json" && grep -q '"p": [0-9]' "$T/prof.json" ||
	fail "profile: no t1 and p in $(cat "$T/prof.json")"
job=$(sed -n 's/^JobId=\([0-9]*\) .*Name=pandia-profile JobState=COMPLETED .*/\1/p' \
	"$T/jobcomp.log")
[ -n "$job" ] || fail_logs "profile: no completed job in $(cat "$T/jobcomp.log")"
steps=$(grep -c "launch task StepId=$job\." "$T/log/slurmd.log")
# the warm-up, run 1, the DRAM probe's run, run 2
[ "$steps" -ge 4 ] ||
	fail_logs "profile: $steps job steps of job $job, not at least 4"
echo "ok: pandia profile --runner srun: $steps job steps of job $job"
exit 0
