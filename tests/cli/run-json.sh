# pandia run --json: times (one per repetition), median, cpus,
# stressors with their rates (alone too with --stress-alone);
# --time-from takes the program's number.
# phase: timing: a stressor's rate alone against beside a command, this host
set -u
. tests/cli/run.inc
need_pus 0 1

"$P" run -q -r 3 --json --cpus 1,0 --stress cpu@1 -- sleep 0.1 \
	>"$T/j" 2>"$T/err" || { cat "$T/err"; fail "run --json"; }
cat "$T/j"
grep -q '"schema": "pandia-run/1"' "$T/j" || fail "schema"
m=$(json_num "$T/j" median)
awk -v m="$m" 'BEGIN { exit !(m >= 0.09 && m < 1) }' ||
	fail "median $m for sleep 0.1"
n=$(sed -n '/"times": \[/,/\]/p' "$T/j" | grep -c '^ *[0-9]')
[ "$n" -eq 3 ] || fail "times: $n entries, expected 3"
sed -n '/"cpus": \[/,/\]/p' "$T/j" | tr -d ' \n' |
	grep -q '"cpus":\[1,0\]' || fail "cpus [1,0]"
grep -q '"pin": "workers"' "$T/j" || fail "pin: workers by default"
# the accounting: one object per thread, sleep's main thread
sed -n '/^  "threads": \[/,/^  \]/p' "$T/j" | tr -d ' \n' >"$T/th"
for f in '"pid":' '"tid":' '"index":0' '"cpu":1' '"start":0' '"end":' \
	'"cpu_time":' '"runqueue_wait":' '"blocked":{"mutex":' \
	'"condition":' '"barrier":' '"join":' '"semaphore":' '"other":' \
	'"worker":true'; do
	grep -q "$f" "$T/th" || { cat "$T/th"; fail "threads[]: no $f"; }
done
grep -q '"spec": "cpu@1"' "$T/j" || fail "stressor spec"
grep -q '"unit": "ops/s"' "$T/j" || fail "stressor unit"
r=$(sed -n '/"stressors"/,$p' "$T/j" | sed -n 's/^ *"median": *\([0-9.eE+]*\).*/\1/p' | head -n 1)
awk -v r="$r" 'BEGIN { exit !(r > 1e6) }' ||
	fail "stressor rate '$r' ops/s"
grep -q '"alone' "$T/j" && fail "alone rates without --stress-alone"

# --stress-alone: the stressors' rate alone before the command, which
# does not count in the command's time
"$P" run -q -r 2 --json --cpus 0 --stress cpu@1 --stress-alone 0.2 -- \
	sleep 0.2 >"$T/j" 2>"$T/err" || { cat "$T/err"; fail "--stress-alone"; }
m=$(json_num "$T/j" median)
awk -v m="$m" 'BEGIN { exit !(m >= 0.19 && m < 0.35) }' ||
	fail "--stress-alone: the command's median $m s for sleep 0.2"
a=$(sed -n 's/^ *"alone_median": *\([0-9.eE+]*\).*/\1/p' "$T/j")
r=$(sed -n '/"stressors"/,$p' "$T/j" | sed -n 's/^ *"median": *\([0-9.eE+]*\).*/\1/p' | head -n 1)
awk -v a="$a" -v r="$r" 'BEGIN { exit !(a > 1e6 && a < 2 * r && r < 2 * a) }' ||
	{ cat "$T/j"; fail "--stress-alone: alone $a ops/s, beside sleep $r"; }
grep -q '"alone_seconds": 0.2' "$T/j" || fail "--stress-alone: alone_seconds"
# ... and again after it, as long, which does not count either
f=$(sed -n 's/^ *"after_median": *\([0-9.eE+]*\).*/\1/p' "$T/j")
awk -v a="$a" -v f="$f" 'BEGIN { exit !(f > 1e6 && f < 2 * a && a < 2 * f) }' ||
	{ cat "$T/j"; fail "--stress-alone: alone $a ops/s before, $f after"; }
"$P" run -q -r 1 --cpus 0 --stress cpu@1 --stress-alone 0.1 -- true \
	>"$T/t" || fail "--stress-alone, text"
grep -q "^stressor: .*alone before the command [0-9.]* [GMk]*ops/s, after it [0-9]" "$T/t" ||
	{ cat "$T/t"; fail "--stress-alone: no rate alone in the text"; }

# text output: the same numbers for people
"$P" run -q -r 2 --cpus 0 -- sleep 0.05 >"$T/t" || fail "text"
grep -q '^time: *median 0\.0[5-9]' "$T/t" || { cat "$T/t"; fail "text time"; }

# --time-from: the number after the match, or the group; units
for spec in "time:|time: 0.25|0.25" "time: ([0-9.]+)|time: 0.25 s|0.25" \
	"took|took 250 ms|0.25" "x=|x=3.5e-1|0.35"; do
	re=${spec%%|*}
	rest=${spec#*|}
	line=${rest%%|*}
	want=${rest#*|}
	"$P" run -q -r 2 --json --cpus 0 --time-from "$re" -- \
		sh -c "echo noise; echo '$line'; echo more" >"$T/j" ||
		fail "--time-from '$re' on '$line'"
	m=$(json_num "$T/j" median)
	awk -v m="$m" -v w="$want" 'BEGIN { exit !(m > w * 0.999 && m < w * 1.001) }' ||
		fail "--time-from '$re' on '$line': $m, expected $want"
done
# the last matching line wins
"$P" run -q -r 1 --json --cpus 0 --time-from 'time:' -- \
	sh -c 'echo time: 1; echo time: 2 >&2' >"$T/j" || fail "two matches"
[ "$(json_num "$T/j" median)" = 2.0 ] ||
	[ "$(json_num "$T/j" median)" = 2 ] || fail "last match: $(json_num "$T/j" median)"
exit 0
