#!/bin/sh
# The black-box model through the commands (docs/blackbox.md): the
# digest's exact-recovery test made by 'pandia profile --model blackbox'
# on a described 48-core machine, with a runner template that computes
# each time from the formula (a = (1e-3, 2e-6, 5e-9, 3e-10), alpha =
# 0.97, x in {50, ..., 2500}, p in {1, 2, 4, 8, 16, 32, 40, 47}):
# coefficients and alpha back within 1e-6; 'pandia predict --model
# blackbox --size X' gives the formula's T_p(X); '--size X' scales the
# Pandia model's t1 by T_seq(X) / T_seq(size profiled); 'pandia run
# --record' predicts first, then adds its times, two recorders at once
# losing nothing; and the bad input of issue 17.
. "$(dirname "$0")/profile.inc"
J="$B/tests/progs/jsonq"
[ -x "$J" ] || fail "$J is not built (make tests)"

# relclose A B TOL: |A - B| <= TOL |B|
relclose() {
	awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; if (b < 0) b = -b
		exit !(d <= tol * b) }'
}

bad() {		# bad STATUS TEXT ARGS...: fails with STATUS, saying TEXT
	st=$1 text=$2
	shift 2
	"$P" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq "$st" ] || fail "$*: exit status $rc, not $st: $(cat "$T/err")"
	grep -q -- "$text" "$T/err" || fail "$*: not '$text': $(cat "$T/err")"
}

"$P" machine -q --topology 'pack:2 core:24 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m48.json" >/dev/null 2>&1 ||
	fail "cannot describe the 48-core machine"

# the time of size {size} on {threads} cores, from the formula
FORMULA='t = 1e-3 + 2e-6*x + 5e-9*x*x + 3e-10*x*x*x; t = t*(A/p + 1 - A)'
runner() {	# runner ALPHA
	printf '%s' "awk -v x={size} -v p={threads} -v A=$1 'BEGIN {" \
		"$FORMULA; printf \"time %.17g\\n\", t }'"
}
tp() {		# tp X P ALPHA: the formula's time
	awk -v x="$1" -v p="$2" -v A="$3" "BEGIN { $FORMULA; printf \"%.17g\", t }"
}
SIZES=$(seq -s, 50 50 2500)
THREADS=1,2,4,8,16,32,40,47

# ---- exact recovery through the command --------------------------------
"$P" profile -q -m "$T/m48.json" --model blackbox --degree 3 \
	--sizes "$SIZES" --threads "$THREADS" -r 1 --no-warmup \
	--time-from time --runner "$(runner 0.97)" -o "$T/w.json" \
	>"$T/out" 2>"$T/err" || fail "profile: $(cat "$T/err")"
cat "$T/out"
[ "$("$J" runs <"$T/w.json" id | wc -l)" -eq 400 ] ||
	fail "not 50 sizes x 8 thread counts = 400 runs"
"$J" runs size <"$T/w.json" | head -1 | grep -qx 50 ||
	fail "the first run does not record size 50"
"$J" runs cpus <"$T/w.json" | sed -n 8p | grep -qx "$(seq -s, 0 46)" ||
	fail "47 threads are not on PUs 0-46 (a socket filled first)"
i=0
for a in 1e-3 2e-6 5e-9 3e-10; do
	got=$("$J" models.blackbox.coefficients.$i <"$T/w.json")
	relclose "$got" "$a" 1e-6 || fail "a_$i is $got, not $a"
	i=$((i + 1))
done
got=$("$J" models.blackbox.alpha <"$T/w.json")
relclose "$got" 0.97 1e-6 || fail "alpha is $got, not 0.97"
[ "$("$J" models.blackbox.alpha_key.threads <"$T/w.json")" = 47 ] ||
	fail "alpha's key is not at 47 threads"
grep -q '"model":' "$T/w.json" && fail "a Pandia model was written"

# predictions: the formula, at sizes profiled and not
for x in 100 1234 2500; do
	for p in 1 8 47; do
		"$P" predict -m "$T/m48.json" -w "$T/w.json" --model blackbox \
			--size $x -t $p --top 1 --json >"$T/p.json" 2>"$T/err" ||
			fail "predict --size $x -t $p: $(cat "$T/err")"
		got=$("$J" placements.0.time <"$T/p.json")
		relclose "$got" "$(tp $x $p 0.97)" 1e-6 ||
			fail "T_$p($x) is $got, not $(tp $x $p 0.97)"
	done
done
[ "$("$J" size <"$T/p.json")" = 2500 ] || fail "the JSON has no size"
[ "$("$J" model <"$T/p.json")" = blackbox ] || fail "the JSON has no model"

# ---- --size for the Pandia model: t1 and p at the size ------------------
cat >"$T/wp.json" <<EOF
{
  "schema": "pandia-workload/1",
  "command": ["app", "-n", "{size}", "-t", "{threads}"],
  "size": 1000,
  "model": { "t1": 10, "p": 0.97, "o_s": 0.002, "l": 0.5, "b": 0.3,
    "demands": { "instructions": 5e9, "L1": 5e10, "L2": 2e10,
                 "L3": 1e10, "dram": 5e9, "interconnect": 1e8 } },
  "models": { "blackbox": { "degree": 3,
    "coefficients": [1e-3, 2e-6, 5e-9, 3e-10], "alpha": 0.97,
    "alpha_key": { "threads": 47, "size": 2500, "count": 1 },
    "sums": { "scale_exp": 0, "size_powers": [0, 0, 0, 0, 0, 0, 0],
      "time_moments": [0, 0, 0, 0], "sizes_seen": [],
      "size_range": null } } }
}
EOF
"$P" predict -m "$T/m48.json" -w "$T/wp.json" --top 0 --json >"$T/p0.json" \
	2>"$T/err" || fail "predict: $(cat "$T/err")"
"$P" predict -m "$T/m48.json" -w "$T/wp.json" --top 0 --json --size 2000 \
	>"$T/p1.json" 2>"$T/err" || fail "predict --size: $(cat "$T/err")"
"$P" predict -m "$T/m48.json" -w "$T/wp.json" --top 0 --json --size 1000 \
	>"$T/pp.json" 2>"$T/err" || fail "predict --size 1000: $(cat "$T/err")"
"$P" predict -m "$T/m48.json" -w "$T/wp.json" --top 0 --json --size 10 \
	>"$T/ps.json" 2>"$T/err" || fail "predict --size 10: $(cat "$T/err")"
ratio=$(awk -v a="$(tp 2000 1 0)" -v b="$(tp 1000 1 0)" \
	'BEGIN { printf "%.17g", a / b }')
# one thread takes t1 whatever p is: t1 scaled by T_seq
one() { "$J" placements threads time <"$1" | awk '$1 == 1 { print $2; exit }'; }
t0=$(one "$T/p0.json")
t1=$(one "$T/p1.json")
scaled=$(awk -v t="$t0" -v r="$ratio" 'BEGIN { printf "%.17g", t * r }')
relclose "$t1" "$scaled" 1e-6 ||
	fail "at size 2000 one thread takes $t1, not $t0 x $ratio"
# at the size profiled nothing changes
relclose "$("$J" best.time <"$T/pp.json")" "$("$J" best.time <"$T/p0.json")" \
	1e-9 || fail "at the size profiled the best time changed"
# a tiny input is nearly serial (T_seq's constant term): the ranking
# moves, and what threads still gain is within 5% of one core's time
n0=$("$J" best.threads <"$T/p0.json")
ns=$("$J" best.threads <"$T/ps.json")
w0=$("$J" within.cores <"$T/p0.json")
ws=$("$J" within.cores <"$T/ps.json")
[ "$ns" != "$n0" ] || fail "at size 10 and 1000 the best has $n0 threads"
[ "$ws" -lt "$w0" ] ||
	fail "within 5% of the best: $ws cores at size 10, $w0 at 1000"
"$J" pin.taskset <"$T/p1.json" | grep -q -- "-n 2000 -t" ||
	fail "the pin line does not run size 2000"
"$P" predict -m "$T/m48.json" -w "$T/wp.json" --size 5000 --top 1 \
	>/dev/null 2>"$T/err" || fail "predict --size 5000: $(cat "$T/err")"
grep -q "outside the one-thread sizes" "$T/err" ||
	fail "no warning of extrapolation: $(cat "$T/err")"
# the same made by the commands: the Pandia model profiled at size 1000,
# the black-box model added --into its description
"$P" profile -q -m "$T/m48.json" --size 1000 -r 1 --time-from time \
	--runner "$(runner 0.97)" -o "$T/wb.json" >/dev/null 2>"$T/err" ||
	fail "profile --size: $(cat "$T/err")"
[ "$("$J" size <"$T/wb.json")" = 1000 ] || fail "the size is not recorded"
"$J" runs size <"$T/wb.json" | sort -u | grep -qx 1000 ||
	fail "the runs do not record size 1000"
"$P" profile -q -m "$T/m48.json" --model blackbox --degree 3 \
	--sizes "$SIZES" --threads 1,47 -r 1 --no-warmup --time-from time \
	--runner "$(runner 0.97)" --into "$T/wb.json" >/dev/null 2>"$T/err" ||
	fail "profile --into: $(cat "$T/err")"
[ "$("$J" runs id <"$T/wb.json" | grep -c '^run[1-6]$')" -eq 6 ] ||
	fail "--into lost the Pandia model's runs"
"$P" predict -m "$T/m48.json" -w "$T/wb.json" --top 0 --json >"$T/p0.json" \
	2>/dev/null || fail "predict"
"$P" predict -m "$T/m48.json" -w "$T/wb.json" --top 0 --json --size 2000 \
	>"$T/p1.json" 2>"$T/err" || fail "predict --size: $(cat "$T/err")"
t0=$(one "$T/p0.json")
t1=$(one "$T/p1.json")
scaled=$(awk -v t="$t0" -v r="$ratio" 'BEGIN { printf "%.17g", t * r }')
relclose "$t1" "$scaled" 1e-6 ||
	fail "profiled: at size 2000 one thread takes $t1, not $t0 x $ratio"
bad 2 "another model than pandia" profile -m "$T/m48.json" \
	--into "$T/wb.json" --runner "echo time 1"

"$P" predict -m "$T/m48.json" -w "$T/w.json" --size 100 >/dev/null \
	2>"$T/err" && fail "the Pandia model predicted without one"
grep -q "no Pandia model" "$T/err" || fail "$(cat "$T/err")"

# a polynomial below zero at the size asked: refused, not ranked
cat >"$T/wneg.json" <<EOF
{
  "schema": "pandia-workload/1",
  "command": ["app", "-n", "{size}", "-t", "{threads}"],
  "models": { "blackbox": { "degree": 1,
    "coefficients": [-0.01, 1e-4], "alpha": 0.9,
    "alpha_key": { "threads": 8, "size": 400, "count": 1 },
    "sums": { "scale_exp": 0, "size_powers": [0, 0, 0],
      "time_moments": [0, 0], "sizes_seen": [],
      "size_range": null } } }
}
EOF
"$P" predict -m "$T/m48.json" -w "$T/wneg.json" --model blackbox \
	--size 50 >"$T/out" 2>"$T/err" &&
	fail "a negative time was ranked: $(cat "$T/out")"
grep -q "gives one thread -0.005 s at size 50: its polynomial (no one-thread size recorded) is not positive there" "$T/err" ||
	fail "negative time: $(cat "$T/err")"
"$P" predict -m "$T/m48.json" -w "$T/wneg.json" --model blackbox \
	--size 400 >/dev/null 2>"$T/err" ||
	fail "size 400: $(cat "$T/err")"
# an alpha no fit gives (a time of 1e307 s, or an infinite one):
# refused where the file says it, not ranked
for a in -1e308 -2e6 2.5; do
	sed "s/\"alpha\": 0.9,/\"alpha\": $a,/" "$T/wneg.json" >"$T/winf.json"
	"$P" predict -m "$T/m48.json" -w "$T/winf.json" --model blackbox \
		--size 1e6 >"$T/out" 2>"$T/err" &&
		fail "alpha $a was ranked: $(cat "$T/out")"
	grep -q "winf.json:[0-9]*:[0-9]*: models.blackbox.alpha: .* is beyond what any measured times give" \
		"$T/err" || fail "alpha $a: $(cat "$T/err")"
done

# ---- online: pandia run --record ------------------------------------
cp "$T/w.json" "$T/r.json"
"$P" run -q -m "$T/m48.json" --record "$T/r.json" --size 1234 --cpus 0-7 \
	--runner "$(runner 0.97)" --time-from time -r 2 --json \
	>"$T/run.json" 2>"$T/err" || fail "run --record: $(cat "$T/err")"
relclose "$("$J" record.predicted <"$T/run.json")" "$(tp 1234 8 0.97)" \
	1e-6 || fail "the prediction first is not the formula's"
[ "$("$J" record.added <"$T/run.json")" = 2 ] || fail "not 2 times added"
awk -v e="$("$J" record.error <"$T/run.json")" \
	'BEGIN { exit !(e < 1e-6 && e > -1e-6) }' || fail "error is not 0"
# a higher key (48 cores) where alpha is 0.5: alpha starts again there
"$P" run -q -m "$T/m48.json" --record "$T/r.json" --size 2500 --cpus 0-47 \
	--runner "$(runner 0.5)" --time-from time -r 1 --no-warmup \
	>"$T/out" 2>"$T/err" || fail "run --record: $(cat "$T/err")"
cat "$T/out"
grep -q "error" "$T/out" || fail "no prediction error printed"
grep -q "more threads than alpha's runs, or as many at a larger size: alpha starts again" \
	"$T/out" || fail "no reset said"
"$P" predict -m "$T/m48.json" -w "$T/r.json" --model blackbox --size 2000 \
	-t 48 --top 1 --json >"$T/p.json" 2>"$T/err" || fail "$(cat "$T/err")"
relclose "$("$J" placements.0.time <"$T/p.json")" "$(tp 2000 48 0.5)" 1e-6 ||
	fail "predict does not use the updated model (alpha 0.5)"
# its text says why there is no range: the model states none (not "a
# profile of one repetition")
"$P" predict -m "$T/m48.json" -w "$T/r.json" --model blackbox --size 2000 \
	--top 1 >"$T/p.out" 2>"$T/err" || fail "$(cat "$T/err")"
grep -q "no range: the blackbox model states no uncertainty" "$T/p.out" ||
	{ cat "$T/p.out"; fail "the black-box model's missing range"; }
# one odd run outside the sizes measured (T_seq(10000) = 300.5 s from
# the polynomial, 400 s measured on 48 cores) would make alpha -0.338:
# refused, the file unchanged, the run still reported, exit 1
cp "$T/r.json" "$T/r0.json"
"$P" run -m "$T/m48.json" --record "$T/r.json" --size 10000 --cpus 0-47 \
	--runner "echo time 400" --time-from time -r 1 --no-warmup \
	>"$T/out" 2>"$T/err"
[ $? -eq 1 ] || { cat "$T/out" "$T/err"; fail "an odd run was recorded"; }
cmp -s "$T/r.json" "$T/r0.json" || fail "a refused update changed the file"
grep -q "not recorded into .*alpha would become -0.338.*outside \[0, 1\].*T_seq(10000) = 300.5 s is extrapolated from the one-thread sizes 50 to 2500" \
	"$T/err" || { cat "$T/err"; fail "the refusal does not say why"; }
grep -q "^time: *median 400 s" "$T/out" || { cat "$T/out"; fail "no run shown"; }

# two recorders at once, 10 one-thread runs each: all 20 are in the sums
n0=$("$J" models.blackbox.sums.size_powers.0 <"$T/r.json")
rec() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$P" run -q --record "$T/r.json" --size $((100 * i)) --cpus 0 \
			--runner "$(runner 0.97)" --time-from time -r 1 \
			--no-warmup >/dev/null 2>>"$T/rec.err" || exit 1
	done
}
rec & r1=$!
rec & r2=$!
wait $r1 || fail "recorder 1: $(cat "$T/rec.err")"
wait $r2 || fail "recorder 2: $(cat "$T/rec.err")"
n1=$("$J" models.blackbox.sums.size_powers.0 <"$T/r.json")
[ "$n1" -eq $((n0 + 20)) ] ||
	fail "two recorders at once: $n0 + 20 one-thread runs, $n1 in the sums"
relclose "$("$J" models.blackbox.coefficients.3 <"$T/r.json")" 3e-10 1e-6 ||
	fail "the recorded runs moved the fit"

# ---- bad input -------------------------------------------------------
BB="profile -q -m $T/m48.json --model blackbox --time-from time -r 1"
bad 2 "'abc' is not one" $BB --sizes 1,abc --runner "$(runner 0.97)"
bad 2 "--sizes LIST" $BB --runner "$(runner 0.97)"
bad 2 "1 more needed" $BB --degree 3 --sizes 10,20,30,30 \
	--runner "$(runner 0.97)"
bad 2 "must include 1" $BB --threads 2,4 --sizes 10,20 \
	--runner "$(runner 0.97)"
bad 2 "go nowhere" $BB --sizes 10,20 --runner "echo time 1"
bad 2 "needs --size X" profile -q -m "$T/m48.json" --runner "$(runner 0.97)"
bad 2 "not 'abc'" predict -m "$T/m48.json" -w "$T/w.json" --model blackbox \
	--size abc
bad 1 "give one (--size X)" predict -m "$T/m48.json" -w "$T/w.json" \
	--model blackbox
bad 2 "needs the run's input size" run --record "$T/r.json" --cpus 0 -- true
[ ! -e "$T/none.json" ] || fail "a description was written"

# ill-conditioned (degree 6 on sizes 1 .. 7): said, written without
# T_seq, and predict refuses rather than print a number
"$P" $BB --degree 6 --sizes 1,2,3,4,5,6,7 --threads 1,2 \
	--runner "$(runner 0.97)" -o "$T/ill.json" >"$T/out" 2>"$T/err" ||
	fail "ill-conditioned: $(cat "$T/err")"
grep -q "ill-conditioned" "$T/err" || fail "not said: $(cat "$T/err")"
[ "$("$J" models.blackbox.coefficients <"$T/ill.json")" = null ] ||
	fail "coefficients written for an ill-conditioned fit"
bad 1 "ill-conditioned" predict -m "$T/m48.json" -w "$T/ill.json" \
	--model blackbox --size 3
grep -q "[0-9]" "$T/out" && fail "a number printed: $(cat "$T/out")"

# a negative time, the polynomial used outside the sizes measured:
# refused, nothing ranked
sed 's/\[1e-3, 2e-6, 5e-9, 3e-10\]/[1, -1e-3, 0, 0]/' "$T/wp.json" \
	>"$T/neg.json"
"$P" predict -m "$T/m48.json" -w "$T/neg.json" --model blackbox \
	--size 5000 --top 1 >"$T/out" 2>"$T/err" &&
	fail "a negative time was ranked: $(cat "$T/out")"
grep -q "gives one thread -4 s at size 5000.*is not positive there" \
	"$T/err" || fail "no error for a negative time: $(cat "$T/err")"
bad 1 "not a time" predict -m "$T/m48.json" -w "$T/neg.json" --size 5000
echo "ok"
