# A failing command is an error that shows its exit status (or signal)
# and the end of its standard error; usage errors exit 2.
set -u
. tests/cli/run.inc

"$P" run --cpus 0 -- sh -c 'echo first >&2; echo "the last words" >&2; exit 3' \
	>"$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc -eq 1 ] || fail "exit 3: pandia exit status $rc, expected 1"
grep -q "exited with status 3" "$T/err" || fail "exit status not shown"
grep -q "the last words" "$T/err" || fail "stderr tail not shown"
# the one shape every command shows a failed command's stderr in
grep -qx "pandia: the end of its standard error:" "$T/err" ||
	fail "stderr tail: no header line"
grep -qx "  | the last words" "$T/err" || fail "stderr tail: not indented"
[ -s "$T/out" ] && fail "a failed run printed a result"

# a later repetition that fails is as much an error: the third run
# (warm-up, 1, 2) fails
"$P" run -r 3 --cpus 0 -- sh -c \
	"n=\$(cat '$T/n' 2>/dev/null || echo 0); echo \$((n + 1)) >'$T/n';
	 [ \$n -lt 2 ] || { echo 'third time' >&2; exit 4; }" \
	>/dev/null 2>"$T/err" && fail "failing third run: success"
grep -q "run 2 of 3 exited with status 4" "$T/err" ||
	{ cat "$T/err"; fail "which run failed"; }
grep -q "third time" "$T/err" || fail "third run: stderr"

# killed by a signal
"$P" run --cpus 0 -- sh -c 'kill -SEGV $$' 2>"$T/err"
[ $? -eq 1 ] || fail "signal: exit status"
grep -q "killed by signal 11" "$T/err" || { cat "$T/err"; fail "signal"; }

# no such program
"$P" run --cpus 0 -- ./no-such-program-here 2>"$T/err"
[ $? -eq 1 ] || fail "exec failure: exit status"
grep -q "cannot run './no-such-program-here': No such file" "$T/err" ||
	{ cat "$T/err"; fail "exec failure message"; }

# --time-from that matches nothing
"$P" run --cpus 0 --time-from 'elapsed:' -- echo hello 2>"$T/err"
[ $? -eq 1 ] || fail "no --time-from match: exit status"
grep -q "no line of the output matched --time-from 'elapsed:'" "$T/err" ||
	{ cat "$T/err"; fail "--time-from message"; }

# a PU this process may not use
"$P" run --cpus 0,4095 -- true 2>"$T/err"
[ $? -eq 1 ] || fail "unavailable PU: exit status"
grep -q "PU 4095 of the placement is not available" "$T/err" ||
	{ cat "$T/err"; fail "unavailable PU message"; }

# usage errors: exit 2
for args in "-- true" "--cpus x -- true" "--cpus 0" \
	"--cpus 0 -r 0 -- true" "--cpus 0 --stress gpu@0 -- true" \
	"--cpus 0 --stress bw:L9@0 -- true" "--cpus 0 --timeout -1 -- true" \
	"--cpus 0 --pin sometimes -- true" "--cpus 0 --time-from ( -- true" \
	"--cpus 0 --frobnicate -- true"; do
	# shellcheck disable=SC2086
	"$P" run $args >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || { cat "$T/err"; fail "'run $args': exit $rc, not 2"; }
	grep -q "see 'pandia run --help'" "$T/err" ||
		fail "'run $args': no pointer to --help"
done
exit 0
