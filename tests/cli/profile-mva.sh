#!/bin/sh
# pandia profile --model mva of a single-threaded command (what
# --copies is for): its progress counts the model's two runs ("run 1 of
# 2", not "of 6"), no warning that run 2 created no threads (its run 2
# is run 1 beside DRAM stressors, not more threads), and the summary
# names the model instead of "counters: ?".  gzip on a described
# two-core machine whose PUs are this host's 0 and 1.
. "$(dirname "$0")/profile.inc"
need_pus 0 1
command -v gzip >/dev/null 2>&1 || skip "gzip is not installed"
"$P" machine --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m.json" >/dev/null \
	2>"$T/m.err" || { cat "$T/m.err"; fail "cannot describe 2 cores"; }
seq 1 300000 >"$T/in"
"$P" profile -m "$T/m.json" --model mva -r 1 --no-warmup --force \
	--keep-unreliable -o "$T/w.json" -- gzip -c "$T/in" \
	>"$T/out" 2>"$T/err" || { cat "$T/err"; fail "profile --model mva"; }
cat "$T/out" "$T/err"
grep -q 'run 1 of 2, repetition 1 of 1' "$T/err" || fail "no 'run 1 of 2'"
grep -q 'run 2 of 2, repetition 1 of 1' "$T/err" || fail "no 'run 2 of 2'"
grep -q 'of 6' "$T/err" && fail "'of 6' for a plan of two runs"
grep -q 'created none' "$T/err" &&
	fail "a single-threaded command warned about its threads"
grep -q 'counters: ?' "$T/out" && fail "'counters: ?' in the summary"
grep -q "^workload description: $T/w.json (model mva)" "$T/out" ||
	fail "the summary does not name the model"
exit 0
