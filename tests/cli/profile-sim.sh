#!/bin/sh
# pandia profile on machines we do not have: a simulated workload
# (tests/progs/simworkload, the model's own time for hidden true
# parameters, with 1% multiplicative noise) profiled through the runner
# template must give back its hidden p within 0.02 and its o_s, l and b
# within 10% (issue 5), on the paper's two-socket SMT machines: the
# small test topology and the X5-2 (2 x 18 cores x 2 PUs).  On the X5-2
# the probe backend also gets the DRAM and L3 demands back, as
# estimates: 17 probe cores saturate each level.
. "$(dirname "$0")/profile.inc"
[ -x "$SIM" ] || fail "$SIM is not built (run make tests)"

# profile_sim NAME MACHINE HIDDEN SEED: profile, print the result
profile_sim() {
	rm -f "$T/$1.state"
	"$P" profile -q -m "$2" -r 15 --counters probe \
		--time-from 'time: ([0-9.eE+-]+)' -o "$T/$1.json" \
		--runner "$SIM -m $2 -w $3 --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--noise 0.01 --seed $4 --state $T/$1.state" >"$T/$1.out" 2>"$T/$1.err" ||
		{ cat "$T/$1.err"; fail "$1: pandia profile failed"; }
	echo "$1:"
	cat "$T/$1.out"
}

# check NAME P O_S L B: the recovered parameters
check() {
	f="$T/$1.json"
	p=$(wl_get "$f" p) os=$(wl_get "$f" o_s)
	l=$(wl_get "$f" l) b=$(wl_get "$f" b)
	echo "$1: recovered p $p (hidden $2), o_s $os ($3), l $l ($4)," \
		"b $b ($5)"
	awk -v g="$p" -v w="$2" 'BEGIN { d = g - w; exit !(d <= 0.02 &&
		d >= -0.02) }' || fail "$1: p $p is not within 0.02 of $2"
	near "$os" "$3" || fail "$1: o_s $os is not within 10% of $3"
	near "$l" "$4" || fail "$1: l $l is not within 10% of $4"
	near "$b" "$5" || fail "$1: b $b is not within 10% of $5"
}

# the small two-socket SMT machine: 2 sockets x 4 cores x 2 PUs
"$P" machine --topology tests/data/topologies/2socket-smt.xml \
	--assume tests/data/assume-full.json -o "$T/smt.json" \
	>/dev/null 2>&1 || fail "cannot describe the test topology"
hidden "$T/h1.json" 0.95 0.1 0.5 0.5 \
	'"instructions": 4e9, "dram": 2e9'
profile_sim smt "$T/smt.json" "$T/h1.json" 7
check smt 0.95 0.1 0.5 0.5
grep -q '"backend": "probe"' "$T/smt.json" ||
	fail "smt: the description does not name the probe backend"
grep -q 'run1,run2,run4,run5' "$T/smt.json" ||
	fail "smt: l does not name its source runs"

# the paper's X5-2, as described from its topology and assumptions
"$P" machine --topology "$(cat machines/x5-2-haswell.topology)" \
	--assume machines/x5-2-haswell.assume.json -o "$T/x52.json" \
	>/dev/null 2>&1 || fail "cannot describe the X5-2"
hidden "$T/h2.json" 0.99 0.05 0.5 0.3 \
	'"instructions": 3e9, "L3": 8e9, "dram": 1.5e9'
profile_sim x52 "$T/x52.json" "$T/h2.json" 11
check x52 0.99 0.05 0.5 0.3
d=$(wl_get "$T/x52.json" demands.dram)
l3=$(wl_get "$T/x52.json" demands.L3)
echo "x52: recovered demands: dram $d (hidden 1.5e9), L3 $l3 (8e9)"
near "$d" 1.5e9 || fail "x52: DRAM demand $d is not within 10% of 1.5e9"
near "$l3" 8e9 || fail "x52: L3 demand $l3 is not within 10% of 8e9"
grep -q 'estimate from 17 co-run probe' "$T/x52.json" ||
	fail "x52: the DRAM demand is not an estimate from 17 probes"
# one run per parameter, 18 threads: one per core on one socket
grep -q '"purpose": "p: 18 threads, one per core on socket 0"' \
	"$T/x52.json" || fail "x52: run 2 does not use 18 threads"
exit 0
