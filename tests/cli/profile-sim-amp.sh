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
. "$(dirname "$0")/sim-off.inc"

seed=3
for wl in stream hashjoin comm; do
	seed=$((seed + 1))
	sim_profile "$wl" "$seed"
	want=$(sim_true_dram "$wl")
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
