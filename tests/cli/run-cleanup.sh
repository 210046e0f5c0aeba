# pandia run leaves no process behind: after a timeout, after SIGINT or
# SIGTERM to pandia during a run with stressors, and when the command
# leaves children running (also ones that left its process group).
set -u
. tests/cli/run.inc
need_pus 0 1

# --timeout 1 -- sleep 100: an error within 2 s, nothing left
t0=$(now)
PANDIA_TEST_TAG=$TAG "$P" run --timeout 1 --cpus 0 -- sleep 100 \
	>"$T/out" 2>"$T/err"
rc=$?
t1=$(now)
cat "$T/err"
[ $rc -eq 1 ] || fail "timeout: exit status $rc, expected 1"
grep -q "timed out after 1 s" "$T/err" || fail "timeout: message"
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 2) }' ||
	fail "timeout: took $(awk -v a="$t0" -v b="$t1" \
		'BEGIN { print b - a }') s, expected < 2 s"
none_left "timeout"

# a timeout with grandchildren, one of them in a session of its own
PANDIA_TEST_TAG=$TAG "$P" run --timeout 1 --cpus 0 -- \
	sh -c 'sleep 100 & setsid sleep 100 & sleep 100' \
	>/dev/null 2>"$T/err"
[ $? -eq 1 ] || fail "timeout with children: exit status"
none_left "timeout with children"

# a command that exits leaving children behind: they are killed, and
# pandia says so
PANDIA_TEST_TAG=$TAG "$P" run -r 1 --cpus 0 -- \
	sh -c 'sleep 100 & setsid sleep 100 & (sleep 100 &); true' \
	>/dev/null 2>"$T/err" || { cat "$T/err"; fail "leftovers run"; }
grep -q "left 3 processes running; pandia killed them" "$T/err" ||
	{ cat "$T/err"; fail "leftovers: no warning"; }
none_left "leftovers"

# SIGKILL of pandia, which no subreaper outlives: the command's own PID
# namespace ends the whole tree with it.  Where pandia cannot have one
# it says so; PANDIA_PID_NAMESPACE=0 shows that message here.
PANDIA_PID_NAMESPACE=0 "$P" run -r 1 --no-warmup --json --cpus 0 -- true \
	>"$T/json" 2>"$T/err" || fail "PANDIA_PID_NAMESPACE=0 run"
grep -q "warning: the command runs without a PID namespace of its own (PANDIA_PID_NAMESPACE=0: .*may outlive it" \
	"$T/err" || { cat "$T/err"; fail "no namespace: no warning"; }
"$J" pid_namespace <"$T/json" | grep -qx false ||
	fail "no namespace: JSON pid_namespace not false"
"$P" run -r 1 --no-warmup --json --cpus 0 -- true >"$T/json" 2>"$T/err" ||
	fail "namespace probe run"
ns=$("$J" pid_namespace <"$T/json")
if [ "$ns" = true ]; then
	"$J" no_pid_namespace <"$T/json" | grep -qx null ||
		fail "namespace: a reason given"
	mkdir -p "$T/tmp"
	PANDIA_TEST_TAG=$TAG TMPDIR="$T/tmp" "$P" run -r 3 --cpus 0 -- \
		sh -c 'sleep 100 & setsid sleep 100 & (sleep 100 &); sleep 100' \
		>/dev/null 2>"$T/err" &
	pid=$!
	# pandia, the namespace's init, sh and 4 sleeps
	wait_tagged 7
	ls "$T/tmp" | grep -q "^pandia-pin\.$pid\." ||
		fail "SIGKILL: no pinning files of pandia $pid to watch"
	kill -KILL $pid
	wait $pid
	none_left "SIGKILL"
	# the init removes the pinning library's files as it goes
	wait_until 2 no_pin_files "$T/tmp" ||
		{ ls "$T/tmp"; fail "SIGKILL: pinning files left in TMPDIR (above)"; }
	echo "SIGKILL: nothing left behind, no file either"
	# files that a pandia killed between two runs left are removed by
	# the next one (their maker's pid is in the name, and gone)
	touch "$T/tmp/pandia-pin.999999999.abcdef"
	TMPDIR="$T/tmp" "$P" run -q -r 1 --no-warmup --cpus 0 -- true ||
		fail "a run beside a stale file"
	[ -e "$T/tmp/pandia-pin.999999999.abcdef" ] &&
		fail "a dead pandia's file was not removed"
	ls "$T/tmp" | grep '^pandia-pin\.' &&
		fail "a run left its own files (above)"
else
	grep -q "warning: the command runs without a PID namespace" \
		"$T/err" || { cat "$T/err"; fail "no namespace, not said"; }
	echo "no PID namespace here: $("$J" no_pid_namespace <"$T/json")"
fi

# SIGINT and SIGTERM to pandia while the command and stressors run.
# A shell starts background commands with SIGINT ignored, which pandia
# respects; env --default-signal gives it back its default.
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG="env --default-signal=INT"
else
	DEFSIG=""
fi
for sig in INT TERM; do
	[ "$sig" = INT ] && [ -z "$DEFSIG" ] &&
		{ echo "no env --default-signal: SIGINT not tested"; continue; }
	PANDIA_TEST_TAG=$TAG $DEFSIG "$P" run -r 3 --cpus 0 \
		--stress cpu@1 --stress bw:L1@0 -- \
		sh -c 'sleep 100 & setsid sleep 100 & sleep 100' \
		>/dev/null 2>"$T/err" &
	pid=$!
	# pandia, 2 stressors, sh, 3 sleeps
	wait_tagged 7
	kill -"$sig" $pid
	wait $pid
	rc=$?
	cat "$T/err"
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	[ $rc -eq $want ] || fail "SIG$sig: exit status $rc, expected $want"
	grep -q "interrupted by signal" "$T/err" || fail "SIG$sig: message"
	none_left "SIG$sig"
	echo "SIG$sig: nothing left behind"
done
exit 0
