# pandia explain and predict --explain: usage errors, bad input, -o
# checked before anything runs, a failing command, --t1 and --counters;
# pandia predict --placement --explain (text and JSON).  No timing.
set -u
. "$(dirname "$0")/explain.inc"

# usage: exit 2, the message, and nothing ran
usage() {
	want=$1
	shift
	rm -f "$T/ran"
	"$P" explain "$@" -- touch "$T/ran" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$T/err"; fail "$*: exit $rc, not 2"; }
	grep -q -- "$want" "$T/err" || { cat "$T/err"; fail "$*: message"; }
	[ -e "$T/ran" ] && fail "$*: the command ran"
	return 0
}
M="-m $T/m.json -w $T/w.json --force"
usage "-w WORKLOAD is required" -m "$T/m.json"
# shellcheck disable=SC2086
{
usage "'0;;1' has an empty entry" $M -p '0;;1'
usage "has an empty entry" $M -p '0;'
usage "'x': " $M -p 'x'
usage "-r takes" $M -r 0
usage "--t1 takes run, workload or seconds" $M --t1 soon
usage "--t1 takes" $M --t1 -1
usage "--counters takes auto, perf or probe" $M --counters frob
usage "--t1 run needs a placement of one thread" $M -p 0,1 --t1 run
usage "unknown option '--frob'" $M --frob
usage "bad regular expression" $M --time-from 'x('
usage "--runner: the stacks need" $M --runner 'sh -c {cmd}'
usage "--membind" $M --membind 999
}

# failures: exit 1, the message, nothing ran
failure() {
	want=$1
	shift
	rm -f "$T/ran"
	"$P" explain "$@" -- touch "$T/ran" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/err"; fail "$*: exit $rc, not 1"; }
	grep -q -- "$want" "$T/err" || { cat "$T/err"; fail "$*: message"; }
	[ -e "$T/ran" ] && fail "$*: the command ran"
	return 0
}
# shellcheck disable=SC2086
{
failure "PU 7 is not in machine" $M -p '0;7'
failure "no machine description 'nosuch'" -m nosuch -w "$T/w.json"
: >"$T/afile"
failure "cannot create directory '$T/afile'" $M -p 0 -o "$T/afile"
mkdir -p "$T/d/stacks.png"
failure "'$T/d/stacks.png' is a directory" $M -p 0 -o "$T/d"
failure "describes another machine" -m "$T/m.json" -w "$T/w.json" -p 0
failure "cannot open" -m "$T/m.json" -w "$T/none.json" --force
}
cat >"$T/nomodel.json" <<EOW
{
  "schema": "pandia-workload/1",
  "command": ["true"],
  "machine": {"host": "testhost", "pus": "0-1"},
  "runs": [],
  "models": {"blackbox": {"degree": 1}}
}
EOW
"$P" explain -m "$T/m.json" -w "$T/nomodel.json" --force -p 0 -- true \
	>/dev/null 2>"$T/err"
[ $? -eq 1 ] || { cat "$T/err"; fail "a workload without the model"; }
cat "$T/err"

# CPU expressions as pandia run --cpus takes them
explain -p '0x3;S0:0' --t1 workload --counters none -- "$WL/compute" \
	--scale 0.01 || { cat "$T/err"; fail "-p '0x3;S0:0'"; }
[ "$("$JQ" stacks.0.cpus_text <"$T/out.json")" = 0,1 ] || fail "0x3"
[ "$("$JQ" stacks.2.cpus_text <"$T/out.json")" = 0 ] || fail "S0:0"
sums

# a command that fails: exit 1, the others still shown
"$P" explain $M -q --json -p '0;0,1' -- sh -c \
	'[ "$PANDIA_THREADS" = 1 ] || exit 3; exec "$0" --scale 0.01' \
	"$WL/compute" >"$T/out.json" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/err"; fail "a failing placement: exit $rc"; }
grep -q "placement 0,1 (2 threads) failed" "$T/err" ||
	{ cat "$T/err"; fail "no message for the failed placement"; }
[ "$("$JQ" failed.0.cpus <"$T/out.json")" = 0,1 ] ||
	fail "failed[] does not name 0,1"
[ "$("$JQ" stacks.0.cpus <"$T/out.json")" = 0 ] ||
	fail "the placement that ran is not shown"
sums

# the text names the command as the shell takes it: sh -c's script
# one quoted word
"$P" explain $M -q -p 0 --t1 0.5 --counters none -- sh -c \
	'exec "$0" --scale 0.01' "$WL/compute" >"$T/out.txt" 2>"$T/err" ||
	{ cat "$T/err"; fail "sh -c: explain failed"; }
grep -qF "command   sh -c 'exec \"\$0\" --scale 0.01' $WL/compute" \
	"$T/out.txt" || fail "sh -c: $(grep '^command' "$T/out.txt")"

# --t1 SECONDS and --t1 workload: said in the JSON
W="$WL/compute"
explain -p 0,1 --t1 0.5 --counters none -- "$W" --scale 0.01 ||
	{ cat "$T/err"; fail "--t1 0.5"; }
[ "$("$JQ" t1 <"$T/out.json")" = 0.5 ] || fail "--t1 0.5: t1"
[ "$("$JQ" t1_source <"$T/out.json")" = given ] || fail "--t1: source"
[ "$("$JQ" counters <"$T/out.json")" = none ] || fail "--counters none"
sums
explain -p '0;0,1' --t1 workload -- "$W" --scale 0.01 ||
	{ cat "$T/err"; fail "--t1 workload"; }
[ "$("$JQ" t1 <"$T/out.json")" = 1 ] || fail "--t1 workload: t1"
[ "$("$JQ" t1_source <"$T/out.json")" = workload ] ||
	fail "--t1 workload: source"
sums
# --counters perf: counted, or refused saying why
if explain -p 0 --counters perf -- "$W" --scale 0.01; then
	[ "$("$JQ" counters <"$T/out.json")" = perf ] ||
		fail "--counters perf: not perf"
	"$JQ" stacks.0.remainder <"$T/out.json" | grep -q "split" ||
		fail "--counters perf: no remainder"
	sums
else
	grep -q "no hardware stall counts: " "$T/err" ||
		{ cat "$T/err"; fail "--counters perf refused, no reason"; }
fi

# the split by counted stall events, on any host: software events
# counted in their place (PANDIA_EXPLAIN_TEST_EVENTS)
PANDIA_EXPLAIN_TEST_EVENTS=busy=perf::PERF_COUNT_SW_TASK_CLOCK \
	explain -p '0;0,1' -- "$W" --scale 0.01 ||
	{ cat "$T/err"; fail "test events"; }
[ "$("$JQ" counters <"$T/out.json")" = perf ] || fail "events: counters"
for i in 0 2; do
	[ "$("$JQ" stacks.$i.remainder <"$T/out.json")" = \
	  "split by counted stalls" ] || fail "events: stack $i not split"
	"$JQ" stacks.$i.components.busy <"$T/out.json" >/dev/null ||
		fail "events: stack $i has no component 'busy'"
	"$JQ" stacks.$i.components.overhead <"$T/out.json" >/dev/null ||
		fail "events: stack $i has no 'overhead'"
	"$JQ" stacks.$i.components.contention <"$T/out.json" \
		>/dev/null 2>&1 && fail "events: stack $i still has contention"
done
sums

# predict --placement --explain
"$P" predict -m "$T/m.json" -w "$T/w.json" --force -p 0,0,1 --explain \
	>"$T/out.txt" 2>"$T/err" || { cat "$T/err"; fail "predict --explain"; }
grep -q '^speedup stack of N = 3' "$T/out.txt" || fail "predict: no stack"
grep -q '^  time_sharing  .* 1\.000 ' "$T/out.txt" ||
	fail "predict: time sharing at 0,0,1 is not 1"
grep -q '^  sum  .* 3\.000 ' "$T/out.txt" || fail "predict: sum not 3"
"$P" predict -m "$T/m.json" -w "$T/w.json" --force -p 0,0,1 --explain \
	--json >"$T/out.json" 2>"$T/err" || fail "predict --explain --json"
[ "$("$JQ" placements.0.stack.kind <"$T/out.json")" = predicted ] ||
	fail "predict --json: no placements[0].stack"
[ "$("$JQ" placements.0.stack.threads <"$T/out.json")" = 3 ] ||
	fail "predict --json: stack.threads"
"$P" predict -m "$T/m.json" -w "$T/w.json" --force --explain \
	>/dev/null 2>"$T/err"
[ $? -eq 2 ] || fail "--explain without --placement: not a usage error"
grep -q "needs --placement" "$T/err" || fail "--explain: message"
exit 0
