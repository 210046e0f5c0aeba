#!/bin/sh
# The mechanistic simulator's --variant switches (tests/progs/mechsim.c
# lists them) change what their documentation says on small known cases
# of the X5-2 (DRAM 62 GB/s per node, 16 GB/s per core), and the default
# is the simulator of scripts/sim-accuracy, time for time.
. "$(dirname "$0")/profile.inc"
MS="$B/tests/progs/mechsim"
[ -x "$MS" ] || fail "$MS is not built (run make tests)"
M=machines/x5-2-haswell.json
D=tests/data/mechsim

# sim WORKLOAD CPUS [ARGS...]: the simulator's output
sim() {
	w=$1 c=$2
	shift 2
	"$MS" -m "$M" -w "$D/$w.sim" --cpus "$c" "$@" ||
		fail "mechsim -w $w --cpus $c $*: exit $?"
}

# t WORKLOAD CPUS [ARGS...]: its time
t() {
	sim "$@" | sed -n 's/^time: //p'
}

# rate WORKLOAD CPUS [ARGS...]: its first stressor's bandwidth
rate() {
	sim "$@" | sed -n 's/^pandia-stress: 0 //p'
}

# near GOT WANT REL MESSAGE: |GOT / WANT - 1| <= REL
near() {
	awk -v g="$1" -v w="$2" -v r="$3" 'BEGIN {
		d = g / w - 1; exit !(d <= r && -d <= r) }' ||
		fail "$4: $1, not $2 (within $3)"
}

# less A B MESSAGE: A < B
less() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }' ||
		fail "$3: $1 is not below $2"
}

# the default: the same with the defaults spelt out, and the times the
# simulator gave before it had variants
DEF=bw=fair,comm=workload,pages=threads,smt=all,turbo=0,drift=0
for c in "stream 0-3 --stress-cpus 4-17 --stress-kind bw:dram" \
	 "comm 0,1,18,19" "lockstep 0-71" "hashjoin 0-9,36-45" \
	 "compute 0,36 --stress-cpus 1-4 --stress-kind cpu" "mixed 0,20,40,60"
do
	# shellcheck disable=SC2086 # the words of $c are arguments
	[ "$(sim $c)" = "$(sim $c --variant $DEF)" ] ||
		fail "$c: the spelt-out default differs from none"
done
[ "$(t stream 0-3 --stress-cpus 4-17 --stress-kind bw:dram)" = \
	9.704516129 ] || fail "stream beside 14 DRAM probes: time changed"
[ "$(t comm 0,1,18,19)" = 2.791250000 ] || fail "comm: time changed"
[ "$(t compute 0,36)" = 7.015000000 ] || fail "compute: time changed"
[ "$(t stream 0,36)" = 6.503500000 ] || fail "stream 0,36: time changed"

# bandwidth: 4 threads of 4 GB/s beside 14 probes of 16 GB/s on node 0
# (62 GB/s); fair: the same speed for all, 62 x 16 / (4 x 4 + 14 x 16);
# equal: the same bytes for all, 62 / 18 (and the threads 3.44 of their
# 4 GB/s); heavy: speed in proportion to the demand, 62 x 4 x 16 /
# (4 x 4 + 14 x 4 x 16)
PROBES="--stress-cpus 4-17 --stress-kind bw:dram"
alone=$(t stream 0-3)
# shellcheck disable=SC2086
{
near "$(rate stream 0-3 $PROBES)" 4.133e9 0.01 "bw=fair: probe rate"
near "$(rate stream 0-3 $PROBES --variant bw=equal)" 3.444e9 0.01 \
	"bw=equal: probe rate"
near "$(t stream 0-3 $PROBES --variant bw=equal)" \
	"$(awk -v a="$alone" 'BEGIN { print a * 18 * 4 / 62 }')" 0.005 \
	"bw=equal: time"
near "$(rate stream 0-3 $PROBES --variant bw=heavy)" 4.351e9 0.01 \
	"bw=heavy: probe rate"
less "$(t stream 0-3 $PROBES)" "$(t stream 0-3 $PROBES --variant \
	bw=heavy)" "bw=heavy: the light threads squeezed"
# alike threads, no probe: the arbitration changes nothing
[ "$(t stream 0-71 --variant bw=equal)" = "$(t stream 0-71)" ] ||
	fail "bw=equal changes alike threads"
}

# communication: 4 threads, 2 of each one's 3 partners remote; comm
# costs by the remote fraction, lockstep per remote partner; on a full
# machine pair, fraction and each workload's own form agree
for f in pair fraction; do
	for w in comm lockstep; do
		[ "$(t $w 0-71 --variant comm=$f)" = "$(t $w 0-71)" ] ||
			fail "comm=$f: $w differs on the full machine"
	done
done
[ "$(t comm 0,1,18,19 --variant comm=fraction)" = 2.791250000 ] ||
	fail "comm=fraction: comm (by fraction already) changed"
less "$(t comm 0,1,18,19 --variant comm=pair)" 2.791250000 \
	"comm=pair: comm (2 of 71 partners' cost)"
less 2.791250000 "$(t comm 0,1,18,19 --variant comm=saturating)" \
	"comm=saturating: comm (above the fraction)"
lp=$(t lockstep 0,1,18,19)
[ "$(t lockstep 0,1,18,19 --variant comm=pair)" = "$lp" ] ||
	fail "comm=pair: lockstep (per partner already) changed"
lf=$(t lockstep 0,1,18,19 --variant comm=fraction)
less "$lp" "$lf" "comm=fraction: lockstep (2/3 of 71 partners' cost)"
less "$lf" "$(t lockstep 0,1,18,19 --variant comm=saturating)" \
	"comm=saturating: lockstep"

# pages: 6 threads on node 0, 1 on node 1, first touch
sim stream 0-5,18 --numa-maps "$T/maps" >/dev/null
grep -q ' N0=224695 N1=37449 ' "$T/maps" ||
	fail "pages=threads: not 6/7 and 1/7: $(cat "$T/maps")"
sim stream 0-5,18 --numa-maps "$T/maps" --variant pages=even >/dev/null
grep -q ' N0=131072 N1=131072 ' "$T/maps" ||
	fail "pages=even: not half each: $(cat "$T/maps")"

# SMT: two threads on one core; memory-bound stream loses nothing to
# it on the core's throughput only (as on two cores), compute more
[ "$(t stream 0,36 --variant smt=core)" = "$(t stream 0,1)" ] ||
	fail "smt=core: stream on one core is not as on two"
less 7.015000000 "$(t compute 0,36 --variant smt=core)" \
	"smt=core: compute (1.4 x 6 Gops/s each on a 7.2 Gops/s core)"

# turbo 15%: one thread as before; a whole socket 1.15 x slower in its
# parallel part, half of it (9 of 18 cores) 1.15 / (1 + 0.15 x 9 / 17)
[ "$(t compute 0 --variant turbo=0.15)" = "$(t compute 0)" ] ||
	fail "turbo: one thread changed"
near "$(awk -v a="$(t compute 0-17 --variant turbo=0.15)" \
	-v b="$(t compute 0-17)" 'BEGIN { print a / b }')" 1.1375 0.005 \
	"turbo: 18 cores (1.15 on 99.5% of the work)"
near "$(awk -v a="$(t compute 0-8 --variant turbo=0.15)" \
	-v b="$(t compute 0-8)" 'BEGIN { print a / b }')" 1.0625 0.005 \
	"turbo: 9 cores"
# and two threads a core on the same 9 (the burst's cap at the slower
# clock too): the parallel part, 0.825 s of 0.925, 1.0654 x slower
near "$(awk -v a="$(t lockstep 0-8,36-44 --variant turbo=0.15)" \
	-v b="$(t lockstep 0-8,36-44)" 'BEGIN { print a / b }')" 1.0583 0.002 \
	"turbo: 9 cores, two threads each"

# waits=spin: a thread that waits (its share done, a lock-step step's
# barrier) keeps its core busy for the clock.  Without turbo nothing
# changes; with it, run 5 of the lock-step workload (a CPU co-runner
# beside the last of 18 threads) is slower, as the 17 others no longer
# let the clock rise while they wait for it; with a co-runner on every
# PU (run 4) no core is ever idle, and nothing changes either
L5="lockstep 0-17 --stress-cpus 17 --stress-kind cpu"
L4="lockstep 0-17 --stress-cpus 0-17 --stress-kind cpu"
# shellcheck disable=SC2086
[ "$(t $L5 --variant waits=spin)" = "$(t $L5)" ] ||
	fail "waits=spin without turbo: run 5 changed"
# shellcheck disable=SC2086
[ "$(t $L4 --variant turbo=0.15,waits=spin)" = \
	"$(t $L4 --variant turbo=0.15)" ] ||
	fail "waits=spin: run 4 (no core idle) changed"
# shellcheck disable=SC2086
[ "$(t $L5 --variant turbo=0.15)" = 1.603686040 ] ||
	fail "turbo, waits blocking: run 5's time changed"
# shellcheck disable=SC2086
[ "$(t $L5 --variant turbo=0.15,waits=spin)" = 1.838562500 ] ||
	fail "turbo, waits spinning: run 5 not slower (1.838562500)"

# drift 5%, period 24 runs: the 7th run 5% slow, the 19th 5% fast
for i in $(seq 0 18); do
	t compute 0 --variant drift=0.05 --state "$T/state"
done >"$T/drift"
[ "$(sed -n 1p "$T/drift")" = 10.000000000 ] || fail "drift: run 0"
near "$(sed -n 7p "$T/drift")" 10.5 1e-6 "drift: run 6"
near "$(sed -n 19p "$T/drift")" 9.5 1e-6 "drift: run 18"

# probe noise 1%: each probe's rate its own draw about the exact one,
# the time as without
# shellcheck disable=SC2086
sim stream 0-3 $PROBES --variant probe_noise=0.01 --state "$T/pn" \
	>"$T/pn.out"
[ "$(sed -n 's/^time: //p' "$T/pn.out")" = 9.704516129 ] ||
	fail "probe_noise: the time changed"
[ "$(sed -n 's/^pandia-stress: [0-9]* //p' "$T/pn.out" | sort -u |
	wc -l)" = 14 ] || fail "probe_noise: the probes' rates not all drawn"
sed -n 's/^pandia-stress: [0-9]* //p' "$T/pn.out" | while read -r r; do
	near "$r" 4.134158e9 0.05 "probe_noise: a rate"
	[ "$r" != 4.134158e+09 ] || fail "probe_noise: a rate is exact"
done || exit 1

# the host's rate moving 3% between windows: every probe's rate
# alone, beside the command and after it times one draw per window
# (their ratios stay the exact ones), and the rate after is reported;
# host_after=0 leaves it out, the other windows drawn alike
# shellcheck disable=SC2086
sim stream 0-3 $PROBES --variant host_noise=0.03 --state "$T/hn" \
	>"$T/hn.out"
[ "$(sed -n 's/^time: //p' "$T/hn.out")" = 9.704516129 ] ||
	fail "host_noise: the time changed"
n=$(grep -c '^pandia-stress: ' "$T/hn.out")
[ "$(grep -c '^pandia-stress-after: ' "$T/hn.out")" = "$n" ] ||
	fail "host_noise: not every probe's rate after is reported"
for w in stress stress-alone stress-after; do
	sed -n "s/^pandia-$w: [0-9]* //p" "$T/hn.out" | sort -u >"$T/hn.$w"
	[ "$(wc -l <"$T/hn.$w")" = 1 ] ||
		fail "host_noise: the probes' $w rates are not one draw"
done
near "$(cat "$T/hn.stress")" 4.134158e9 0.12 "host_noise: beside"
[ "$(cat "$T/hn.stress-alone")" != "$(cat "$T/hn.stress-after")" ] ||
	fail "host_noise: the rates before and after are the same draw"
# shellcheck disable=SC2086
sim stream 0-3 $PROBES --variant host_noise=0.03,host_after=0 \
	--state "$T/hn0" >"$T/hn0.out"
grep -q '^pandia-stress-after: ' "$T/hn0.out" &&
	fail "host_after=0: the rate after is reported"
[ "$(grep -v after "$T/hn.out")" = "$(cat "$T/hn0.out")" ] ||
	fail "host_after=0: the other windows drawn otherwise"

# an unknown key or value is an error
for v in bw=fastest nokey=1 turbo=-1 probe_noise=2 host_noise=1 \
	host_after=2 waits=busy bw; do
	"$MS" -m "$M" -w "$D/compute.sim" --cpus 0 --variant "$v" \
		>/dev/null 2>&1 && fail "--variant $v accepted"
done
echo "mechsim variants: as documented"
exit 0
