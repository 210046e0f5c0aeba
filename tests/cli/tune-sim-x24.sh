#!/bin/sh
# pandia tune through a runner template against the mechanistic
# simulator (tests/progs/mechsim) on the four-socket X2-4
# (machines/x2-4-westmere.json, 80 PUs), 1% noise: for two workloads,
# tune's choice is within 1% of the true best, noise-free, at a cost
# within the default budget (20 times the predicted best's time) and
# within 20 times the true best's.
#
# The true best is that of an exhaustive search over all 864,500
# canonical placements (scripts/tune-sim --machine x2-4-westmere,
# minutes); it is recorded below, and the test checks that the
# simulator still gives the recorded best exactly its recorded time
# (rerun scripts/tune-sim when the simulator or its workloads change).
# Also: mechsim --cpus-file, which that search uses, gives each
# placement the time that --cpus gives it.
set -u
. tests/cli/tune-sim.inc
M=machines/x2-4-westmere.json

# --cpus-file: one process, the same times as one --cpus each
sim="$MS -m $M -w tests/data/mechsim/stream.sim"
printf '0-9\n0,10,20,30\n\n0-79\n' >"$T/list"
$sim --cpus-file "$T/list" >"$T/batch" || fail "--cpus-file failed"
[ "$(wc -l <"$T/batch")" -eq 3 ] || fail "--cpus-file: not one line a list"
for c in 0-9 0,10,20,30 0-79; do
	one=$($sim --cpus "$c" | sed -n 's/^time: //p')
	grep -qx "$c $one" "$T/batch" ||
		fail "--cpus-file gives $c another time than --cpus ($one)"
done
$sim --cpus-file "$T/list" --noise 0.01 >/dev/null 2>&1 &&
	fail "--cpus-file took --noise"

# workload, the true best's placement and its noise-free time
while read -r w bcpus best; do
	sim="$MS -m $M -w tests/data/mechsim/$w.sim"
	now=$($sim --cpus "$bcpus" | sed -n 's/^time: //p')
	[ "$now" = "$best" ] || fail "$w: the recorded best $bcpus takes" \
		"$now s, not $best s: rerun scripts/tune-sim --machine" \
		"x2-4-westmere and record its true best here"
	"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
		-o "$T/$w.json" --runner "$sim --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --noise 0.005 --seed 7 --state $T/$w.pstate" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "$w: profile"; }
	"$P" tune -q -m "$M" -w "$T/$w.json" --json --time-from "$RE" \
		--runner "$sim --cpus {cpus} --noise 0.01 --seed 11 \
--state $T/$w.tstate" >"$T/$w.out" 2>"$T/err" ||
		{ cat "$T/err"; fail "$w: tune failed"; }
	echo "$w: the true best: $bcpus"
	tune_judge "$w" "$sim" "$T/$w.out" "$best"
	awk -v s="$spent" -v b="$best" 'BEGIN { exit !(s <= 20 * b) }' ||
		fail "$w: spent $spent s, over 20 times the best's $best s"
done <<EOF
stream 0-15,20-25,30-35,40,41,50-55,60-65,70-75 0.511000000
hashjoin 0-32 0.386875000
EOF
exit 0
