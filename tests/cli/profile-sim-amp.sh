#!/bin/sh
# The counter-free DRAM demand on a description that is off (issue 24):
# on the simulated X5-2 (tests/progs/mechsim, 1% noise) profiled with a
# description whose L3, DRAM and link capacities are 3% above the
# simulated machine's, the DRAM demands of the streaming, hash-join-like
# and communication-heavy workloads come back within 10% of the rate
# one thread of them reaches alone, and the description and the summary
# state each estimate's noise amplification, with a warning above 3.
# Where the probes' estimate amplifies noise more than 3, the profile
# makes the run with every core of the node; where DRAM holds that run
# back (streaming), the demand comes from its time through the model,
# with an amplification of at most 3; where the run is not held back
# and allows the estimate (communication-heavy), the estimate stays and
# its status says the runs were checked.
. "$(dirname "$0")/profile.inc"
case $B in
/*) MS="$B/tests/progs/mechsim" ;;
*) MS="$(pwd)/$B/tests/progs/mechsim" ;;
esac
J="$B/tests/progs/jsonq"
[ -x "$MS" ] && [ -x "$J" ] || fail "mechsim or jsonq is not built (make tests)"
M=machines/x5-2-haswell.json

# the description 3% off: every aggregate bandwidth and link 3% above
awk '/"aggregate_bw": |"bw": / {
	v = $0; sub(/.*: /, "", v); sub(/,$/, "", v)
	sub(/: .*/, ": " sprintf("%.6e", v * 1.03) ",")
} { print }' "$M" >"$T/off.json"
grep -q '"aggregate_bw": 6.386000e+10,' "$T/off.json" ||
	fail "the description was not scaled"

seed=3
for wl in stream hashjoin comm; do
	W=tests/data/mechsim/$wl.sim
	seed=$((seed + 1))
	"$P" profile -m "$T/off.json" -r 3 --counters probe \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$wl.json" \
		--runner "$MS -m $M -w $W --seed $seed --noise 0.01 \
--cpus {cpus} --stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --state $T/$wl.state" >"$T/$wl.out" \
		2>"$T/$wl.err" || { cat "$T/$wl.err"; fail "$wl: profile failed"; }
	# the truth: the hidden demand at the rate one thread reaches alone
	# (remote stalls slow it: work / its noise-free time alone)
	tt=$("$MS" -m $M -w $W --cpus 0 | sed -n 's/^time: //p')
	want=$(awk -v t="$tt" '$1 == "work" { w = $2 } $1 == "dram" { d = $2 }
		END { printf "%.6e\n", d * w / t }' "$W")
	got=$("$J" model.demands.dram <"$T/$wl.json")
	amp=$("$J" model.demands_amplification.dram <"$T/$wl.json") ||
		fail "$wl: no model.demands_amplification.dram"
	echo "$wl: DRAM demand $got (true $want), noise amplification $amp"
	near "$got" "$want" || fail "$wl: DRAM demand $got is not within 10%" \
		"of $want"
	grep -q 'd\[dram\] .*noise amplification [0-9]' "$T/$wl.out" ||
		fail "$wl: the summary does not state the amplification"
	st=$("$J" model.demands_status.dram <"$T/$wl.json")
	case $wl in
	stream)
		awk -v a="$amp" 'BEGIN { exit !(a <= 3) }' ||
			fail "stream: amplification $amp, not at most 3"
		case $st in
		*"time, which DRAM holds back"*) ;;
		*) fail "stream: not from a run's time: $st" ;;
		esac
		grep -q "every core of run 1's node" "$T/$wl.json" ||
			fail "stream: no run with every core of the node" ;;
	comm)
		case $st in
		*"checked against the runs"*"consistent with it"*) ;;
		*) fail "comm: the status does not say it was checked: $st" ;;
		esac ;;
	esac
	if awk -v a="$amp" 'BEGIN { exit !(a > 3) }'; then
		grep -q 'warning: the dram demand is an estimate that amplifies' \
			"$T/$wl.err" || fail "$wl: no warning for amplification $amp"
		grep -q 'POORLY CONDITIONED' "$T/$wl.json" ||
			fail "$wl: the status does not say it is poorly conditioned"
	fi
done
exit 0
