# pandia validate when things go wrong: a placement that fails is
# reported and the others still run; without gnuplot the figure is
# skipped with a warning; SIGINT or SIGTERM keeps what was measured
# in DIR and leaves no process behind.
set -u
. tests/cli/validate.inc

RE='time: ([0-9.]+)'
# a "workload" that reports 0.1/threads s, and fails at $FAIL threads
cat >"$T/fake.sh" <<'EOS'
if [ "$PANDIA_THREADS" = "$FAIL" ]; then
	echo "boom at $FAIL threads" >&2
	exit 3
fi
sleep "${NAP:-0}"
echo "time: $(awk -v n="$PANDIA_THREADS" 'BEGIN { print 0.1 / n }')"
EOS
workload fake 0.1 1 0 "[\"sh\", \"$T/fake.sh\"]"

# 1. a failing placement: 3 threads (0,0,1) of 5 canonical ones
FAIL=3 PANDIA_TEST_TAG=$TAG "$P" validate -m "$T/m.json" \
	-w "$T/fake.json" --force -k 2 -r 1 --no-warmup --time-from "$RE" \
	-o "$T/fail" -- sh "$T/fake.sh" >"$T/stdout" 2>"$T/stderr"
rc=$?
cat "$T/stdout" "$T/stderr"
[ $rc -eq 1 ] || fail "failing placement: exit status $rc, expected 1"
grep -q "the command differs" "$T/stderr" && fail "a command warning"
grep -q "placement 0,0,1 (3 threads) failed" "$T/stderr" ||
	fail "no failure message"
grep -q "boom at 3 threads" "$T/stderr" || fail "no stderr of the command"
grep -q "^  | .*boom at 3 threads" "$T/stderr" ||
	fail "the command's stderr not shown as run shows it"
# the progress lines say the spread as a percentage, nothing after it
# when the run was not disturbed (it printed "spread 1.7%0")
grep -q "measured .* s (spread [0-9.]*%), predicted" "$T/stderr" ||
	fail "no progress line with its spread"
grep -q "spread [0-9.]*%0" "$T/stderr" && fail "a stray 0 after the spread"
grep -q "going on with the other placements" "$T/stderr" ||
	fail "does not say it goes on"
grep -q "1 of [0-9]* placements failed" "$T/stderr" ||
	fail "no count of failures"
grep -q "1 FAILED" "$T/stdout" || fail "the summary lacks the failure"
C="$T/fail/validate.csv"
grep -q '"0,0,1",yes,.*,failed,.*boom at 3 threads' "$C" ||
	fail "validate.csv: the failed row"
[ "$(grep -c ',ok,' "$C")" -ge 4 ] || fail "validate.csv: the others"
grep -q '"failed": 1' "$T/fail/validate.json" || fail "json: failed"
json_has "$T/fail/validate.json" median_error || fail "json: no metrics"
none_left "failing placement"

# 2. no gnuplot: the figure is skipped with a warning, not a failure
FAIL=99 PANDIA_GNUPLOT=/nonexistent/gnuplot "$P" validate \
	-m "$T/m.json" -w "$T/fake.json" --force -r 1 --no-warmup \
	--time-from "$RE" -q -o "$T/nogp" -- sh "$T/fake.sh" \
	>/dev/null 2>"$T/stderr"
rc=$?
cat "$T/stderr"
[ $rc -eq 0 ] || fail "no gnuplot: exit status $rc"
grep -q "gnuplot not found: .*validate.png not drawn" "$T/stderr" ||
	fail "no gnuplot: no warning"
[ -f "$T/nogp/validate.png" ] && fail "no gnuplot: a png anyway"
[ -s "$T/nogp/validate.gp" ] || fail "no gnuplot: no validate.gp"
[ -s "$T/nogp/validate.csv" ] || fail "no gnuplot: no validate.csv"

# 3. a signal in the middle: what was measured is in DIR, nothing
# left behind.  A shell starts background commands with SIGINT
# ignored, which pandia respects; env --default-signal gives it back.
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG="env --default-signal=INT"
else
	DEFSIG=""
fi
# measured_rows N: whether N placements or more are measured
measured_rows() {
	n=$(grep -c ',ok,' "$T/sig/validate.csv" 2>/dev/null)
	[ "${n:-0}" -ge "$1" ]
}
for sig in INT TERM; do
	[ "$sig" = INT ] && [ -z "$DEFSIG" ] &&
		{ echo "no env --default-signal: SIGINT not tested"; continue; }
	rm -rf "$T/sig"
	# SIGTERM's with two rounds: the runs made are said too
	reps=1
	[ "$sig" = TERM ] && reps=2
	FAIL=99 NAP=0.4 PANDIA_TEST_TAG=$TAG $DEFSIG "$P" validate \
		-m "$T/m.json" -w "$T/fake.json" --force -k 2 -r $reps \
		--no-warmup --time-from "$RE" -o "$T/sig" -- \
		sh "$T/fake.sh" >/dev/null 2>"$T/stderr" &
	pid=$!
	wait_until 5 measured_rows 2 ||
		{ kill $pid; fail "SIG$sig: nothing measured"; }
	kill -"$sig" $pid
	wait $pid
	rc=$?
	cat "$T/stderr"
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	[ "$rc" -eq "$want" ] || fail "SIG$sig: exit status $rc, expected $want"
	grep -q "interrupted by signal" "$T/stderr" || fail "SIG$sig: message"
	[ $reps -eq 1 ] ||
		grep -q "placements measured, [2-9] of 12 runs made" \
			"$T/stderr" || fail "SIG$sig: the runs made not said"
	[ "$(grep -c ',ok,' "$T/sig/validate.csv")" -ge 2 ] ||
		fail "SIG$sig: the measured rows are lost"
	grep -q '"complete": false' "$T/sig/validate.json" ||
		fail "SIG$sig: validate.json says complete"
	none_left "SIG$sig"
	echo "SIG$sig: kept what was measured, nothing left behind"
done

# without CMD: a description is data.  Its recorded command is shown,
# quoted for the shell, and run only with --recorded: a canary file
# that the command would make must not appear without it.
"$P" machine -q --topology 'pack:1 core:2 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m2.json" 2>/dev/null ||
	fail "cannot describe two cores"
sed "s|\"command\": \\[.*\\]|\"command\": [\"sh\", \"-c\", \"touch $T/canary; echo time: 0.1 {threads}\"]|" \
	tests/data/workload-bounds.json >"$T/rec.json"
grep -q canary "$T/rec.json" || fail "the recorded command was not planted"
"$P" validate -m "$T/m2.json" -w "$T/rec.json" -n >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "validate -n, no CMD"; }
grep -qF "the command that '$T/rec.json' records, which it would run with --recorded: sh -c 'touch $T/canary; echo time: 0.1 {threads}'" \
	"$T/err" || { cat "$T/err"; fail "-n does not say what it would run"; }
for cmd in validate explain; do
	"$P" $cmd -m "$T/m2.json" -w "$T/rec.json" --force -r 1 >/dev/null \
		2>"$T/err"
	[ $? -eq 2 ] || { cat "$T/err"; fail "$cmd without --recorded: exit not 2"; }
	[ -e "$T/canary" ] && fail "$cmd ran the recorded command unasked"
	grep -qF "records the command" "$T/err" &&
		grep -qF "sh -c 'touch $T/canary; echo time: 0.1 {threads}'" \
			"$T/err" && grep -q -- "--recorded" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: the command or the way to run it not shown"; }
done
"$P" validate -m "$T/m2.json" -w "$T/rec.json" --force --recorded -r 1 \
	--no-warmup -p top:1 --time-from 'time: ([0-9.]+)' >/dev/null 2>"$T/err"
[ -e "$T/canary" ] || { cat "$T/err"; fail "--recorded did not run it"; }
grep -qF "running the command that '$T/rec.json' records (--recorded)" \
	"$T/err" || { cat "$T/err"; fail "--recorded: not said"; }
exit 0
