#!/bin/sh
# scripts/sim-mismatch on a recorded grid (docs/accuracy.md, "Mismatch
# grid"): the record keeps grid.tsv and grid.md, not the cells, and
# '--tables-only --check' checks it as recorded: the latest record
# (docs/accuracy/mismatch-ranges) has no pair missing a target without
# ranges that cover it; a copy with one pair's median error at 50%
# and its times 50% in range fails; '--tables-only' where a cell has
# no results writes nothing (it once truncated the record's grid.tsv).
set -u
T=$(mktemp -d /tmp/pandia-mismatch-record-XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "mismatch-record: $*"; exit 1; }
R=docs/accuracy/mismatch-ranges

[ -f "$R/grid.tsv" ] || fail "no $R/grid.tsv"
scripts/sim-mismatch --tables-only --check --out "$R" 2>"$T/ok.err" ||
	fail "the record fails its check: $(cat "$T/ok.err")"
grep -q "252 pairs, none missing" "$T/ok.err" ||
	fail "unexpected: $(cat "$T/ok.err")"

mkdir "$T/bad"
awk -F '\t' 'BEGIN { OFS = "\t" } NR == 2 { $7 = 0.5; $17 = 0.5 } { print }' \
	"$R/grid.tsv" >"$T/bad/grid.tsv"
if scripts/sim-mismatch --tables-only --check --out "$T/bad" \
	2>"$T/bad.err"; then
	fail "a pair 50% off, 50% in range, passed the check"
fi
grep -q "1 pair(s) miss a target" "$T/bad.err" ||
	fail "unexpected: $(cat "$T/bad.err")"

# collecting from cells that are not all there: nothing written
mkdir -p "$T/part/cells/base"
cp "$R/grid.tsv" "$T/part/grid.tsv"
printf 'machine\tworkload\n' >"$T/part/cells/base/results.tsv"
if scripts/sim-mismatch --tables-only --out "$T/part" 2>"$T/part.err"; then
	fail "collected a grid from one cell of 21"
fi
grep -q "no $T/part/cells/bw-equal/results.tsv (nothing written)" \
	"$T/part.err" || fail "unexpected: $(cat "$T/part.err")"
cmp -s "$R/grid.tsv" "$T/part/grid.tsv" || fail "grid.tsv was rewritten"
[ ! -f "$T/part/grid.md" ] || fail "grid.md was written"
[ ! -f "$T/part/cells.txt" ] || fail "cells.txt was written"
echo "mismatch-record: ok"
