#!/bin/sh
# pandia tune through a runner template against the mechanistic
# simulator (tests/progs/mechsim, which shares no formula with the
# model) on a described two-socket machine of 16 PUs, 1% noise: for two
# workloads, tune's choice is within 1% of the best of every canonical
# placement measured noise-free (pandia validate -p all, its best of
# all), at a cost within the default budget, 20 times the predicted
# best's time.  The runs it measured are kept in the description, the
# model is refitted with them (the profile's own parameters kept
# beside), and predict says how far it missed each of them.  Without
# -w, a --quick profile is made first.
set -u
. tests/cli/tune-sim.inc
sim_machine

for w in comm stream; do
	sim="$MS -m $M -w tests/data/mechsim/$w.sim"
	"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
		-o "$T/$w.json" --runner "$sim --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --noise 0.005 --seed 7 --state $T/$w.pstate" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "$w: profile"; }
	# the true best: every canonical placement, noise-free
	"$P" validate -q -m "$M" -w "$T/$w.json" -p all -r 1 --no-warmup \
		--time-from "$RE" -o "$T/v-$w" --runner "$sim --cpus {cpus}" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "$w: validate"; }
	best=$("$J" best_of_all.measured <"$T/v-$w/validate.json")
	"$P" tune -m "$M" -w "$T/$w.json" --json --time-from "$RE" \
		-o "$T/$w-tuned.json" --runner "$sim --cpus {cpus} \
--noise 0.01 --seed 11 --state $T/$w.tstate" >"$T/$w.out" 2>"$T/$w.err" ||
		{ cat "$T/$w.err"; fail "$w: tune failed"; }
	grep -q "pandia tune: round 1:" "$T/$w.err" ||
		fail "$w: no progress line per round"
	tune_judge "$w" "$sim" "$T/$w.out" "$best"
	"$J" verdict.text <"$T/$w.out" >/dev/null || fail "$w: no verdict"

	# the runs kept: tune-1 ..., the description predicts the same
	grep -q '"id": "tune-1"' "$T/$w-tuned.json" ||
		fail "$w: no run tune-1 in the description written"
	grep -q '"purpose": "tune"' "$T/$w-tuned.json" ||
		fail "$w: no run of purpose tune"
	"$P" predict -m "$M" -w "$T/$w.json" --force >"$T/p0" 2>/dev/null ||
		fail "$w: predict"
	"$P" predict -m "$M" -w "$T/$w-tuned.json" --force >"$T/p1" \
		2>/dev/null || fail "$w: predict on the tuned description"
	# the model refitted with the pinned runs, the profile's own
	# parameters kept beside (docs/tune.md)
	grep -q "the model was refitted with the pinned ones" "$T/p1" ||
		fail "$w: predict does not say the model was refitted"
	"$J" model.refit.refitted <"$T/$w-tuned.json" | grep -qx true ||
		fail "$w: model.refit.refitted is not true"
	p0=$("$J" model.p <"$T/$w.json")
	[ "$("$J" model.refit.profiled.p <"$T/$w-tuned.json")" = "$p0" ] ||
		fail "$w: model.refit.profiled.p is not the profile's p $p0"
	grep -q "^measured by pandia tune" "$T/p1" ||
		fail "$w: predict does not say how far it missed the runs"
	grep -q "^measured by pandia tune" "$T/p0" &&
		fail "$w: predict speaks of tune runs that are not there"
done

# without -w: a --quick profile first, said
sim="$MS -m $M -w tests/data/mechsim/mixed.sim"
"$P" tune -m "$M" --time-from "$RE" -o "$T/quick.json" --runner "$sim \
--cpus {cpus} --stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --noise 0.01 --seed 5 --state $T/quick.state" \
	>"$T/quick.out" 2>"$T/quick.err" ||
	{ cat "$T/quick.err"; fail "tune without -w failed"; }
grep -q "no workload description (-w): profiling the command first" \
	"$T/quick.err" || fail "without -w: the profile is not said"
grep -q "^verdict" "$T/quick.out" || fail "without -w: no verdict"
grep -q '"model"' "$T/quick.json" && grep -q '"id": "tune-1"' \
	"$T/quick.json" || fail "without -w: no profile and runs written"
exit 0
