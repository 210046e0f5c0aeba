#!/bin/sh
# scripts/sim-demands, the DRAM demands of a mismatch grid against the
# simulator's truth (docs/accuracy.md): on one pair profiled through
# tests/progs/mechsim (the communication-heavy workload on the X5-2,
# description 3% above), the line it prints says whether the stated
# range holds the truth and whether the demand is within 10%; the same
# profile with the demand doubled is neither.
. "$(dirname "$0")/profile.inc"
. "$(dirname "$0")/sim-off.inc"

sim_profile comm 7
O="$T/grid"
mkdir -p "$O/cells/desc+3/x5-2-haswell-comm" "$O/cells/bad/x5-2-haswell-comm"
printf '%s\n' "desc+3 --desc-scale 1.03 --keep-going" \
	"bad --desc-scale 1.03 --keep-going" >"$O/cells.txt"
cp "$T/comm.json" "$O/cells/desc+3/x5-2-haswell-comm/profile.json"
# the bad cell: the same profile, its demand (the first "dram": NUMBER,
# the demands object's) doubled
awk '!done && /"dram": [0-9.eE+]*,$/ { v = $2; sub(/,$/, "", v)
	sub(/"dram": .*/, "\"dram\": " sprintf("%.6e", 2 * v) ","); done = 1 }
	{ print }' "$T/comm.json" >"$O/cells/bad/x5-2-haswell-comm/profile.json"
cmp -s "$T/comm.json" "$O/cells/bad/x5-2-haswell-comm/profile.json" &&
	fail "the demand was not doubled"
B="$B" scripts/sim-demands "$O" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "sim-demands failed"; }
cat "$T/out" "$T/err"
awk -F'\t' '$1 == "desc+3" && $3 == "comm" && $4 == "estimate" &&
	$8 == "yes" && $9 == "yes" && $7 > 0.99 && $7 < 1.01 { ok = 1 }
	END { exit !ok }' "$T/out" ||
	fail "desc+3: not an estimate held, within 10%, true 1.00 (the probes: real units)"
awk -F'\t' '$1 == "bad" && $3 == "comm" && $8 == "no" && $9 == "no" { ok = 1 }
	END { exit !ok }' "$T/out" ||
	fail "bad: the doubled demand is said held or within 10%"
grep -q 'estimate .* 2 pairs, range holds the truth in   1, within 10% in   1' \
	"$T/err" || fail "the summary does not count one of two"
exit 0
