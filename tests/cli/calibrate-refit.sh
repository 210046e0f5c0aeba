#!/bin/sh
# scripts/calibrate --refit: a kept calibration
# (docs/accuracy/calibrate/kept) counted again with this build's fit,
# nothing timed: its profiles fitted again by tests/progs/refit, one
# row per workload, the refitted descriptions written and loadable;
# --refit into itself refused; a workload it did not keep skipped,
# said; refit's own errors (usage: 2; a file it cannot read: 1, named,
# the others still written).
set -u
B="${B:-build}"
T=$(mktemp -d /tmp/pandia-calibrate-refit-XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "calibrate-refit: $*"; exit 1; }
K=docs/accuracy/calibrate/kept
D=$K/2026-11-29T0328
R="$B/tests/progs/refit"

[ -x "$R" ] || fail "$R is not built"
B="$B" scripts/calibrate -k 3 --refit "$D" --out "$T/out" >"$T/table" \
	2>"$T/err" || fail "failed: $(cat "$T/err")"
for n in compute serial zstd; do
	grep -Eq "^\| $n \| 3 \| [0-9]+% of 24 \| [0-9]+% of 15 \| \+-[0-9.]+% \|" \
		"$T/table" || fail "no row for $n: $(cat "$T/table")"
	for i in 1 2 3; do
		p=$("$B/tests/progs/jsonq" model.p <"$T/out/$n.$i.json") ||
			fail "$n.$i.json has no p"
		awk -v p="$p" 'BEGIN { exit !(p >= 0 && p <= 1) }' ||
			fail "$n.$i.json: p $p"
	done
done
grep -q "fitting $D's profiles again" "$T/err" || fail "$(cat "$T/err")"
grep -q "load before" "$T/err" && fail "a load said where nothing was timed"

# into itself
if B="$B" scripts/calibrate -k 3 --refit "$T/out" --out "$T/out" \
	>/dev/null 2>"$T/self"; then
	fail "--refit DIR --out DIR accepted"
fi
grep -q "are the same" "$T/self" || fail "$(cat "$T/self")"
# a calibration of compute only: the others skipped, said
B="$B" scripts/calibrate -k 3 --refit "$K/2026-11-28T2219" --out "$T/c" \
	>"$T/c.table" 2>"$T/c.err" || fail "compute only: $(cat "$T/c.err")"
[ "$(grep -c '^| [a-z]' "$T/c.table")" = 2 ] || fail "$(cat "$T/c.table")"
grep -q "has no serial profiles" "$T/c.err" || fail "$(cat "$T/c.err")"

# refit's own errors
"$R" >/dev/null 2>"$T/u"
[ $? = 2 ] && grep -q "^usage: refit" "$T/u" || fail "usage: $(cat "$T/u")"
mkdir "$T/r"
"$R" "$D/host.json" "$T/r" "$T/none.json" "$D/compute.1.json" \
	>"$T/r.out" 2>"$T/r.err"
[ $? = 1 ] || fail "a missing profile: exit not 1"
grep -q "refit: $T/none.json" "$T/r.err" || fail "$(cat "$T/r.err")"
[ -f "$T/r/compute.1.json" ] && grep -q "^compute.1.json p " "$T/r.out" ||
	fail "the readable profile was not fitted: $(cat "$T/r.out")"
exit 0
