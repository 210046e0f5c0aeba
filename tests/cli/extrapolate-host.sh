#!/bin/sh
# pandia extrapolate on this host: the runs file of a built-in workload
# (serial, short) collected at 1..2 threads, with a user category in
# seconds turned into cycles at this host's clock; 2 runs are too few
# for ESTIMA, and both the collection and --runs say how many more are
# needed.  Hardware stall categories: where perf cannot count (no PMU
# here) a one-line message says so and the collection goes on; where it
# can, they are in the file.  Software categories (lock, barrier,
# condition waits, run-queue wait, other blocked time) from the
# per-thread accounting are in every run.  -o is checked before any run
# starts.
# phase: timing: this host's clock and the cycles measured per run
. "$(dirname "$0")/extrapolate.inc"
need_pus 0 1
WL="$B/workloads"
[ -x "$WL/serial" ] || fail "$WL/serial is not built (run make)"

host_machine "$T/host.json" || fail "pandia machine --quick failed"

# -o checked first: nothing runs
"$P" extrapolate -m "$T/host.json" -o "$T/no/such/dir/runs.json" \
	--threads 1-2 -- "$WL/serial" >/dev/null 2>"$T/err" &&
	fail "-o in a missing directory"
grep -q "$T/no/such/dir" "$T/err" ||
	{ cat "$T/err"; fail "-o message"; }
grep -q "1/2" "$T/err" && fail "a run started before -o was checked"

"$P" extrapolate -m "$T/host.json" -o "$T/runs.json" --threads 1-2 -r 1 \
	--time-from 'time: ([0-9.]+)' \
	--category 'serial=serial part: ([0-9.]+ s):max' -- \
	"$WL/serial" --threads '{threads}' --scale 0.05 >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "collecting serial at 1..2 failed"; }
cat "$T/out"
cat "$T/err"
[ "$(jq "$T/runs.json" schema)" = pandia-scaling/1 ] || fail "schema"
[ "$(jq "$T/runs.json" runs threads | tr '\n' ' ')" = "1 2 " ] ||
	fail "not runs at 1 and 2 threads"
[ "$(jq "$T/runs.json" runs.1.cpus)" = "0,1" ] || fail "2 threads not on 0,1"
hz=$(jq "$T/runs.json" frequency)
within 1e8 "$hz" 1e10 || fail "frequency $hz Hz"
for i in 0 1; do
	s=$(jq "$T/runs.json" runs.$i.stalls.serial)
	t=$(jq "$T/runs.json" runs.$i.time)
	# the serial part in cycles: more than 0, less than the run
	within 1 "$s" "$(awk -v t="$t" -v f="$hz" 'BEGIN { print t * f }')" ||
		fail "run $i: serial $s cycles is not within the run's $t s"
done
grep -q '2 runs: too few to extrapolate from; ESTIMA needs 5 with 2 checkpoints.*: 3 more' \
	"$T/out" || fail "collecting does not say 3 more runs are needed"
# the note names no thread counts that --threads would refuse here
cores=$(lscpu -p=core 2>/dev/null | grep -v '^#' | sort -u | wc -l)
if [ "$cores" -lt 5 ]; then
	grep -q -- '--threads 1-5' "$T/out" &&
		fail "the note suggests --threads 1-5 on $cores cores"
	grep -q "room for $cores counts: collect the runs on one of 5 cores or more" \
		"$T/out" || { cat "$T/out"; fail "no word on the cores missing"; }
fi
case $(jq "$T/runs.json" counters) in
perf)	echo "perf counted: $(jq "$T/runs.json" runs.0.stalls | head -c 200)" ;;
none)	[ "$(grep -c 'no hardware stall categories' "$T/err")" -eq 1 ] ||
		fail "no one-line message about hardware categories" ;;
*)	fail "counters: $(jq "$T/runs.json" counters)" ;;
esac
# the software stalls from the per-thread accounting, every run
for k in sw_lock sw_barrier sw_cond sw_runqueue sw_blocked; do
	for i in 0 1; do
		v=$(jq "$T/runs.json" runs.$i.stalls.$k) ||
			fail "run $i has no software category $k"
		within 0 "$v" 1e12 || fail "run $i: $k = $v cycles"
	done
done

"$P" extrapolate --runs "$T/runs.json" --to 2 >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "--runs with 2 runs: exit not 1"
cat "$T/err"
grep -q 'runs.json: 2 runs: too few to extrapolate from; ESTIMA needs 5 with 2 checkpoints (3 to fit, then the checkpoints): 3 more' \
	"$T/err" || fail "--runs does not say 3 more runs are needed"
"$P" extrapolate --runs "$T/runs.json" --to 2 --checkpoints 1 \
	2>"$T/err" >/dev/null
grep -q ': 2 more' "$T/err" || { cat "$T/err"; fail "c = 1: 2 more"; }

# without -o the runs file goes to stdout
"$P" extrapolate -q -m "$T/host.json" --threads 1 -r 1 --no-warmup \
	--counters none -- "$WL/serial" --scale 0.02 >"$T/stdout.json" \
	2>"$T/err" || { cat "$T/err"; fail "collecting to stdout"; }
[ "$(jq "$T/stdout.json" runs.0.threads)" = 1 ] || fail "stdout: no run"
grep -q 'no hardware stall categories' "$T/err" &&
	fail "--counters none still tried perf"
jq "$T/stdout.json" runs.0.stalls.sw_runqueue >/dev/null ||
	fail "stdout: the software categories are missing"
exit 0
