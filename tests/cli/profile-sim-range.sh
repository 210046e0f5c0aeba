#!/bin/sh
# The stated range of a counter-free demand that amplifies noise (issue
# 24): on the simulated X5-2 (tests/progs/mechsim) with 1% noise in the
# times and in every probe's reported rate, profiled with a description
# 3% above the simulated machine's, the DRAM demands of the lock-step
# and communication-heavy workloads amplify the probes' noise some 400
# times.  They may come back far from the truth, but their stated
# range (model.demands_uncertainty.dram: the probes' rates and the
# times pooled, with Student's factor and the 0.5% floor) contains the
# rate one thread of them reaches alone.  Ranges from the repetitions'
# half ranges alone (before) stated +-9% for the communication-heavy
# workload's 0.72 GB/s, whose truth is 1.00.
. "$(dirname "$0")/profile.inc"
case $B in
/*) MS="$B/tests/progs/mechsim" ;;
*) MS="$(pwd)/$B/tests/progs/mechsim" ;;
esac
J="$B/tests/progs/jsonq"
[ -x "$MS" ] && [ -x "$J" ] || fail "mechsim or jsonq is not built (make tests)"
M=machines/x5-2-haswell.json

awk '/"aggregate_bw": |"bw": / {
	v = $0; sub(/.*: /, "", v); sub(/,$/, "", v)
	sub(/: .*/, ": " sprintf("%.6e", v * 1.03) ",")
} { print }' "$M" >"$T/off.json"
grep -q '"aggregate_bw": 6.386000e+10,' "$T/off.json" ||
	fail "the description was not scaled"

for pair in lockstep:6 comm:7; do
	wl=${pair%:*}
	seed=${pair#*:}
	W=tests/data/mechsim/$wl.sim
	"$P" profile -m "$T/off.json" -r 3 --counters probe \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$wl.json" \
		--runner "$MS -m $M -w $W --seed $seed --noise 0.01 \
--variant probe_noise=0.01 --cpus {cpus} --stress-cpus {stress_cpus} \
--stress-kind {stress_kind} --numa-maps {numa_maps} --state $T/$wl.state" \
		>"$T/$wl.out" 2>"$T/$wl.err" ||
		{ cat "$T/$wl.err"; fail "$wl: profile failed"; }
	tt=$("$MS" -m $M -w $W --cpus 0 | sed -n 's/^time: //p')
	want=$(awk -v t="$tt" '$1 == "work" { w = $2 } $1 == "dram" { d = $2 }
		END { printf "%.6e\n", d * w / t }' "$W")
	got=$("$J" model.demands.dram <"$T/$wl.json")
	unc=$("$J" model.demands_uncertainty.dram <"$T/$wl.json") ||
		fail "$wl: no stated range for the DRAM demand"
	amp=$("$J" model.demands_amplification.dram <"$T/$wl.json")
	echo "$wl: DRAM demand $got +- $unc (true $want), amplification $amp"
	awk -v a="$amp" 'BEGIN { exit !(a > 3) }' ||
		fail "$wl: amplification $amp: not the case this tests"
	awk -v g="$got" -v u="$unc" -v w="$want" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= u) }' ||
		fail "$wl: the range $got +- $unc misses the true $want"
done
exit 0
