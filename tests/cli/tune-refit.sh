#!/bin/sh
# pandia tune's runs feed back into the model (docs/tune.md, "What it
# leaves behind"), against the mechanistic simulator
# (tests/progs/mechsim) on a described two-socket machine of 16 PUs
# through --runner: a SIMULATION, nothing is timed on this host.
#   - tuned with the program it was profiled with, the description
#     written by tune -o is refitted and the range predict states for
#     the best placement narrows;
#   - tuned with the program changed (burst 0.3 -> 0.8, which the
#     profile never saw), predict's time at the tuned placement moves
#     toward the measured median, the range widens by the misfit, and
#     predict says how far the profile's own parameters missed;
#   - the profile's parameters are kept in model.refit.profiled.
set -u
. tests/cli/tune-sim.inc
sim_machine
sed 's/^burst 0.3$/burst 0.8/' tests/data/mechsim/comm.sim >"$T/changed.sim"
cmp -s tests/data/mechsim/comm.sim "$T/changed.sim" &&
	fail "comm.sim has no 'burst 0.3' to change"

sim="$MS -m $M -w tests/data/mechsim/comm.sim"
"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
	-o "$T/w.json" --runner "$sim --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --noise 0.005 --seed 7 --state $T/p.state" \
	>/dev/null 2>"$T/err" || { cat "$T/err"; fail "profile"; }

# rank 1's time and range (low, high) of predict on description $1
best() {
	"$P" predict -m "$M" -w "$1" --force 2>/dev/null >"$T/pred" ||
		fail "predict -w $1"
	awk '$1 == 1 && $2 ~ /^[0-9]+$/ { split($6, r, "-");
		print $5, r[1], r[2]; exit }' "$T/pred"
}
set -- $(best "$T/w.json")
t0=$1 lo0=$2 hi0=$3
[ -n "$hi0" ] || fail "no range for the best placement"

# tuned with the same program: the model was right
"$P" tune -m "$M" -w "$T/w.json" --time-from "$RE" -o "$T/right.json" \
	--runner "$sim --cpus {cpus} --noise 0.01 --seed 11 \
--state $T/r.state" >/dev/null 2>"$T/right.err" ||
	{ cat "$T/right.err"; fail "tune (right)"; }
grep -q "^pandia tune: refitted with [0-9]* pinned run" "$T/right.err" ||
	{ cat "$T/right.err"; fail "right: tune does not say it refitted"; }
set -- $(best "$T/right.json")
t1=$1 lo1=$2 hi1=$3
echo "right: best $t0 s ($lo0-$hi0) -> $t1 s ($lo1-$hi1)"
awk -v a="$lo0" -v b="$hi0" -v c="$lo1" -v d="$hi1" \
	'BEGIN { exit !(d - c < 0.95 * (b - a)) }' ||
	fail "right: the range did not narrow ($lo0-$hi0 -> $lo1-$hi1)"
grep -q "the model was refitted with the pinned ones" "$T/pred" ||
	fail "right: predict does not say the model was refitted"
prof=$("$J" model.refit.profiled.p <"$T/right.json") ||
	fail "right: no model.refit.profiled.p"
orig=$("$J" model.p <"$T/w.json")
[ "$prof" = "$orig" ] ||
	fail "right: the profile's p $orig is not kept ($prof)"

# tuned with the program changed: the model was wrong
sim2="$MS -m $M -w $T/changed.sim"
"$P" tune -m "$M" -w "$T/w.json" --time-from "$RE" -o "$T/wrong.json" \
	--json --runner "$sim2 --cpus {cpus} --noise 0.01 --seed 11 \
--state $T/w.state" >"$T/wrong.out" 2>"$T/wrong.err" ||
	{ cat "$T/wrong.err"; fail "tune (wrong)"; }
lead=$("$J" leader <"$T/wrong.out")
meas=$("$J" "candidates.$lead.median" <"$T/wrong.out")
cpus=$("$J" "candidates.$lead.cpus" <"$T/wrong.out")
set -- $(best "$T/wrong.json")
t2=$1 lo2=$2 hi2=$3
echo "wrong: $cpus measured $meas s; predicted $t0 s -> $t2 s" \
	"($lo0-$hi0 -> $lo2-$hi2)"
awk -v m="$meas" -v a="$t0" -v b="$t2" 'BEGIN {
	d0 = a - m; d1 = b - m; if (d0 < 0) d0 = -d0; if (d1 < 0) d1 = -d1
	exit !(m > 1.1 * a && d1 < 0.8 * d0) }' ||
	fail "wrong: $t0 s -> $t2 s did not move toward $meas s"
awk -v a="$lo0" -v b="$hi0" -v c="$lo2" -v d="$hi2" \
	'BEGIN { exit !(d - c > b - a) }' ||
	fail "wrong: the range did not widen by the misfit"
sed -n '/^measured by pandia tune/,/^$/p' "$T/pred" >"$T/tuned"
grep -q "tune-1 .* 0-15 .*%  $t0 s, -[12][0-9]\.[0-9]%" "$T/tuned" ||
	{ cat "$T/tuned"; fail "wrong: predict does not say how far the" \
		"profile missed tune-1"; }
exit 0
