#!/bin/sh
# pandia extrapolate --runs on the digest's synthetic test (seed-estima.md
# 5b, docs/extrapolate.md): m = 12, c = 2, N = 48, s_A = 1e9 + 1e7 n,
# s_B = 5e5 n^2.5, T = (s_A + s_B) / n / 2.1e9, noise-free.  Through the
# command: T at 16, 24, 36, 48 = 0.04976, 0.05260, 0.06942, 0.09386
# within 0.5%, the limit in 17..19; the text report, the JSON, the
# figure's files; and the refusals.
. "$(dirname "$0")/extrapolate.inc"
R=tests/data/scaling/synthetic.json

"$P" extrapolate --runs "$R" --to 48 --json >"$T/j" 2>"$T/err" ||
	{ cat "$T/err"; fail "--runs synthetic --json failed"; }
for row in "16 0.04976" "24 0.05260" "36 0.06942" "48 0.09386"; do
	set -- $row
	got=$(jq "$T/j" predictions.$(($1 - 1)).time)
	[ "$(jq "$T/j" predictions.$(($1 - 1)).threads)" = "$1" ] ||
		fail "predictions[$(($1 - 1))] is not $1 threads"
	echo "T($1) = $got (digest $2)"
	near "$got" "$2" 0.005 || fail "T($1) = $got is not within 0.5% of $2"
done
lim=$(jq "$T/j" limit)
echo "limit $lim (digest 18)"
within 17 "$lim" 19 || fail "limit $lim is not in 17..19"
[ "$(jq "$T/j" categories.A.kernel)" = Poly25 ] || fail "A: not Poly25"
[ "$(jq "$T/j" categories.B.kernel)" = Poly25 ] || fail "B: not Poly25"
n=$(jq "$T/j" categories.B.values | tr ',' '\n' | wc -l)
[ "$n" -eq 48 ] || fail "categories.B.values has $n values, not 48"
jq "$T/j" baseline.limit >/dev/null || fail "no baseline.limit"
near "$(jq "$T/j" predictions.11.measured)" 0.05434 0.001 ||
	fail "predictions[11].measured is not the run's time"

# 4 checkpoints: the limit still in 17..19
"$P" extrapolate --runs "$R" --to 48 --checkpoints 4 --json >"$T/j4" ||
	fail "--checkpoints 4"
within 17 "$(jq "$T/j4" limit)" 19 || fail "c = 4: limit not in 17..19"

# the text report, and -o DIR
"$P" extrapolate --runs "$R" --to 48 -o "$T/out" >"$T/txt" 2>"$T/err" ||
	{ cat "$T/err"; fail "text report with -o"; }
grep -q '^scaling limit *18 threads' "$T/txt" || { cat "$T/txt"; fail "limit line"; }
grep -q '^baseline *time extrapolated directly: limit' "$T/txt" ||
	fail "no baseline line"
grep -Eq '^  B +Poly25' "$T/txt" || fail "no category line for B"
[ "$(grep -c '^ *[0-9][0-9]* ' "$T/txt")" -ge 48 ] || fail "not 48 rows"
for f in extrapolate.json extrapolate.gp; do
	[ -s "$T/out/$f" ] || fail "-o: no $f"
done
[ "$(jq "$T/out/extrapolate.json" limit)" = 18 ] || fail "extrapolate.json"
if command -v gnuplot >/dev/null 2>&1; then
	[ -s "$T/out/extrapolate.png" ] || { cat "$T/err"; fail "no png"; }
else
	grep -q 'gnuplot not found' "$T/err" || fail "no gnuplot warning"
fi

# --to a machine: one thread per core (the X5-2: 36 cores)
"$P" machine --topology "$(cat machines/x5-2-haswell.topology)" \
	--assume machines/x5-2-haswell.assume.json -o "$T/x52.json" \
	>/dev/null 2>&1 || fail "cannot describe the X5-2"
"$P" extrapolate --runs "$R" --to "$T/x52.json" --json >"$T/jm" ||
	fail "--to MACHINE"
[ "$(jq "$T/jm" target)" = 36 ] || fail "--to x52: target not 36"

# the frequency: the synthetic file records none
"$P" extrapolate --runs "$R" --to 48 --target-frequency 3e9 \
	>/dev/null 2>"$T/err" && fail "--target-frequency without frequency"
grep -q 'records no frequency' "$T/err" || { cat "$T/err"; fail "frequency message"; }
sed 's/"stall_unit"/"frequency": 2100000000, "stall_unit"/' "$R" >"$T/f.json"
"$P" extrapolate --runs "$T/f.json" --to 48 --target-frequency 4.2e9 \
	--json >"$T/jf" || fail "--target-frequency"
near "$(jq "$T/jf" predictions.47.time)" 0.04693 0.005 ||
	fail "half the clock ratio: T(48) is not halved"
[ "$(jq "$T/jf" limit)" = 18 ] || fail "the frequency moved the limit"

# refusals: too few runs (how many more), a bad file (file:line), a
# target below the runs, usage
cat >"$T/three.json" <<EOT
{
  "schema": "pandia-scaling/1",
  "runs": [
    {"threads": 1, "time": 0.48, "stalls": {"A": 1.01e9}},
    {"threads": 2, "time": 0.24, "stalls": {"A": 1.02e9}},
    {"threads": 4, "time": 0.12, "stalls": {"A": 1.04e9}}
  ]
}
EOT
"$P" extrapolate --runs "$T/three.json" --to 48 >"$T/out3" 2>"$T/err"
[ $? -eq 1 ] || { cat "$T/err"; fail "3 runs: exit not 1"; }
grep -q '3 runs: too few to extrapolate from; ESTIMA needs 5 with 2 checkpoints.*: 2 more' \
	"$T/err" || { cat "$T/err"; fail "3 runs: how many more"; }
printf '{\n  "schema": "pandia-scaling/1",\n  "runs": [\n    {"threads": 0, "time": 1, "stalls": {}}\n  ]\n}\n' >"$T/bad.json"
"$P" extrapolate --runs "$T/bad.json" --to 4 2>"$T/err" && fail "bad file"
grep -q "bad.json:4:" "$T/err" || { cat "$T/err"; fail "bad file: no line"; }
"$P" extrapolate --runs "$R" --to 8 2>"$T/err" && fail "--to below the runs"
grep -q "the target must be from 12" "$T/err" || { cat "$T/err"; fail "--to 8 message"; }
"$P" extrapolate --runs "$R" 2>/dev/null; [ $? -eq 2 ] || fail "no --to: exit 2"
"$P" extrapolate --runs "$R" --to 48 -m x.json 2>/dev/null; [ $? -eq 2 ] ||
	fail "--runs with -m: exit 2"
"$P" extrapolate --runs "$R" --to 48 --checkpoints 0 2>/dev/null
[ $? -eq 2 ] || fail "--checkpoints 0: exit 2"
exit 0
