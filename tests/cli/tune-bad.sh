#!/bin/sh
# pandia tune with a fake workload through a runner template on the
# two-core machine of validate.inc: placements that are the same get
# "pinning does not help", not a made-up winner; bad budgets and
# options are usage errors; a candidate whose command fails is named
# and the others are still measured and reported; SIGINT reports what
# was measured and leaves nothing running.
set -u
. tests/cli/validate.inc

RE='time: ([0-9.eE+-]+)'
# 0.1/threads s whatever the PUs, with 1% noise (run N takes the N-th
# number of one seeded sequence), and failing at $FAIL threads
cat >"$T/fake.sh" <<'EOS'
if [ "$1" = "$FAIL" ]; then
	echo "boom at $FAIL threads" >&2
	exit 3
fi
sleep "${NAP:-0}"
n=$(cat "$COUNT" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$COUNT"
awk -v t="$1" -v n="$n" 'BEGIN { srand(7)
	for (i = 0; i < n; i++) r = rand()
	print "time: " 0.1 / t * (1 + 0.02 * (r - 0.5)) }'
EOS
workload fake 0.1 1 0 "[]"
RUNNER="sh $T/fake.sh {threads}"
export COUNT="$T/count"

# tune -- ARGS...: pandia tune of the fake on the two cores
tune() {
	PANDIA_TEST_TAG=$TAG "$P" tune -m "$T/m.json" -w "$T/fake.json" \
		--force --time-from "$RE" --runner "$RUNNER" "$@"
}

# 1. the same time pinned and unpinned: no winner made up
FAIL=99 tune -o "$T/tuned.json" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 0 ] || fail "identical placements: exit status $rc"
V="pinning does not help this program here: the OS scheduler is within"
grep -q "^verdict   $V" "$T/out" ||
	fail "identical placements: not 'pinning does not help'"
grep -q "tied" "$T/out" || fail "identical placements: no tie"
grep -q "^ *1  0 .* dropped" "$T/out" ||
	fail "one thread (twice as slow) is not dropped"
grep -q "pandia tune: round 3: " "$T/err" || fail "no progress per round"
grep -q '"id": "tune-1"' "$T/tuned.json" || fail "no run tune-1 written"
grep -q '"purpose": "tune, unpinned (the OS scheduler)"' "$T/tuned.json" ||
	fail "the unpinned run is not written as such"
"$P" predict -m "$T/m.json" -w "$T/tuned.json" --force >"$T/p" \
	2>/dev/null || fail "the description written does not predict"
grep -q "^measured by pandia tune" "$T/p" || fail "predict: no tune runs"
# the same as JSON
FAIL=99 tune --json -q >"$T/json" 2>/dev/null ||
	fail "--json: exit status $?"
"$B/tests/progs/jsonq" verdict.kind <"$T/json" | grep -qx does_not_help ||
	fail "--json: verdict.kind is not does_not_help"

# 2. bad input: usage errors, exit status 2
for bad in "--budget 0" "--budget -1x" "--budget x" "--confidence 1" \
	"--bogus"; do
	# shellcheck disable=SC2086
	tune $bad >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$T/err"; fail "$bad: exit status $rc, not 2"; }
	grep -q "see 'pandia tune --help'" "$T/err" || fail "$bad: no hint"
done
tune --budget 0.01 >/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "a budget too small for two candidates is not refused"
grep -q "two candidates three times each need about" "$T/err" ||
	{ cat "$T/err"; fail "a budget too small: not said"; }

# 3. a candidate that fails: named, the others still reported
FAIL=1 tune >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 1 ] || fail "a failing candidate: exit status $rc, not 1"
grep -q "placement 0 (1 threads) failed" "$T/err" ||
	fail "the failing candidate is not named"
grep -q "boom at 1 threads" "$T/err" || fail "its stderr is not shown"
grep -q "^ *1  0 .* failed" "$T/out" || fail "the table lacks the failure"
grep -Eq "^ *2  (0,1|unpinned) .* leader" "$T/out" ||
	fail "the others are not reported"
grep -q "^verdict" "$T/out" || fail "no verdict after a failure"
none_left "failing candidate"

# 4. SIGINT: the measured part reported, nothing left running.  A
# shell starts background commands with SIGINT ignored, which pandia
# respects; env --default-signal gives it back.
env --default-signal=INT true 2>/dev/null ||
	{ echo "no env --default-signal: SIGINT not tested"; exit 0; }
rm -f "$T/out" "$T/err"
FAIL=99 NAP=0.3 PANDIA_TEST_TAG=$TAG env --default-signal=INT "$P" tune \
	-m "$T/m.json" -w "$T/fake.json" --force --time-from "$RE" \
	--runner "$RUNNER" >"$T/out" 2>"$T/err" &
pid=$!
wait_until 5 grep -q "round 1:" "$T/err" ||
	{ kill $pid; fail "SIGINT: no round measured"; }
kill -INT $pid
wait $pid
rc=$?
cat "$T/out" "$T/err"
[ $rc -eq 130 ] || fail "SIGINT: exit status $rc, expected 130"
grep -q "interrupted by signal 2" "$T/err" || fail "SIGINT: not said"
grep -q "^stopped   interrupted by signal 2" "$T/out" ||
	fail "SIGINT: the measured part is not reported"
grep -q "^ *2  0,1 " "$T/out" || fail "SIGINT: the candidates are lost"
none_left "SIGINT"
exit 0
