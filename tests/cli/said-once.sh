#!/bin/sh
# A long note is said in full once per host, in one line after, and in
# full again with -v (builtin/said.c): predict's demands known only as
# upper bounds, in a state folder of the test's own; not those that
# could hold no placement back on the machine predicted.  The record keeps
# one line per note and host; where it cannot be written, every note is
# said in full.
. "$(dirname "$0")/profile.inc"
XDG_STATE_HOME="$T/state"
export XDG_STATE_HOME
# two cores whose L3 and DRAM two threads at the description's bounds
# (18 and 13.9 GB/s) would fill: 30 and 20 GB/s
sed -e '/"L3":/s/"aggregate_bw": 1.5e11/"aggregate_bw": 3.0e10/' \
	-e '/"dram":/s/"aggregate_bw": 4.0e10/"aggregate_bw": 2.0e10/' \
	tests/data/assume-full.json >"$T/assume.json"
grep -q '3.0e10' "$T/assume.json" && grep -q '2.0e10' "$T/assume.json" ||
	fail "the assume file's aggregates were not changed"
"$P" machine -q --topology 'pack:1 core:2 pu:1' \
	--assume "$T/assume.json" -o "$T/m.json" >/dev/null \
	2>"$T/m.err" || { cat "$T/m.err"; fail "cannot describe 2 cores"; }
# a description whose DRAM and L3 demands are bounds
cp tests/data/workload-bounds.json "$T/w.json"
# where two threads at those bounds fill neither level (150 and 40
# GB/s), no placement can be held back there: nothing is said
"$P" machine -q --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/wide.json" >/dev/null \
	2>"$T/m.err" || { cat "$T/m.err"; fail "cannot describe 2 wide cores"; }
XDG_STATE_HOME="$T/state-wide" "$P" predict -m "$T/wide.json" \
	-w "$T/w.json" -v >/dev/null 2>"$T/err" || { cat "$T/err"; fail "predict wide"; }
[ -s "$T/err" ] && { cat "$T/err"; fail "bounds that fill nothing are said"; }
pred() {
	"$P" predict -m "$T/m.json" -w "$T/w.json" "$@" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "predict $*"; }
	cat "$T/err"
}
pred
[ "$(grep -c 'is only known to be below' "$T/err")" -eq 2 ] ||
	fail "the first predict does not say both bounds in full"
pred
grep -q 'only known to be below' "$T/err" &&
	fail "the second predict says the bounds in full again"
grep -q 'the L3 and dram demands are only known as upper bounds (-v says what that means)' \
	"$T/err" || fail "the second predict does not say them in one line"
[ "$(grep -c . "$T/err")" -eq 1 ] || fail "more than one line the second time"
pred -v
[ "$(grep -c 'is only known to be below' "$T/err")" -eq 2 ] ||
	fail "-v does not say them in full"
[ "$(wc -l <"$XDG_STATE_HOME/pandia/said")" -eq 2 ] ||
	fail "the record does not hold one line per note"
# a changed description is said again
touch -d '2001-01-01' "$T/w.json"
pred
[ "$(grep -c 'is only known to be below' "$T/err")" -eq 2 ] ||
	fail "a changed description is not said in full"
# no record can be kept: in full every time
pred_unkept=$(XDG_STATE_HOME=/proc/none HOME=/proc/none "$P" predict \
	-m "$T/m.json" -w "$T/w.json" 2>&1 >/dev/null |
	grep -c 'is only known to be below')
[ "$pred_unkept" -eq 2 ] || fail "without a record: not in full"

# profile's note on why perf cannot count (a runner template here,
# where it never can): in full once, then in one line
[ -x "$SIM" ] || fail "$SIM is not built (run make tests)"
hidden "$T/hidden.json" 0.95 0 0.2 0.3 '"instructions": 4e9'
prof() {
	"$P" profile -m "$T/m.json" -r 1 --quick -o "$T/p.json" "$@" \
		--time-from 'time: ([0-9.eE+-]+)' \
		--runner "$SIM -m $T/m.json -w $T/hidden.json --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} --seed 5" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "profile $*"; }
	grep '^pandia: perf' "$T/err"
}
prof
grep -q '^pandia: perf counters unavailable: a command run through --runner' \
	"$T/err" || fail "the first profile does not say why in full"
prof
grep -qx 'pandia: perf counters unavailable: using the probe backend (-v says why)' \
	"$T/err" || fail "the second profile does not say it in one line"
prof -v
grep -q '^pandia: perf counters unavailable: a command run through --runner' \
	"$T/err" || fail "profile -v does not say why in full"
# the same note where this host cannot count (said before any run):
# in full the first time, in one line after
"$P" machine --topology 'pack:1 core:2 pu:1' -q -o "$T/h.json" \
	--assume tests/data/assume-full.json >/dev/null 2>&1 ||
	fail "cannot describe two cores"
XDG_STATE_HOME="$T/state2"
hp() {
	"$P" profile -m "$T/h.json" --force -r 1 --no-warmup --keep-unreliable \
		--quick -o "$T/hp.json" -- "$WL/compute" --work 10 \
		--threads '{threads}' >/dev/null 2>"$T/err" ||
		{ cat "$T/err"; fail "profile on this host"; }
}
if taskset -c 0,1 true 2>/dev/null; then
	hp
	if grep -q '^pandia: perf counters unavailable: ..*(--counters auto' "$T/err"; then
		hp
		grep -qx 'pandia: perf counters unavailable: using the probe backend (-v says why)' \
			"$T/err" || { cat "$T/err"; fail "this host: not said in one line"; }
	fi
fi
exit 0
