#!/bin/sh
# Where the serial work runs (model.serial_form; docs/model.md, "Where
# the serial work runs"), against the mechanistic simulator, which runs
# a workload's serial part on its first thread alone while the others
# wait, as a fork-join program's main thread does.  The lock-step
# workload (static shares): by default run 8 (a co-runner beside the
# first thread) is made, its two predictions recorded, and "first"
# chosen with l near its true 0; --serial first records the same form
# without choosing; --serial spread, the paper's form, slows the serial
# work with the threads and takes l = 0.1 to 0.18 for it.  The
# streaming workload's serial part (0.1%) is too small for run 8 to
# tell: the paper's form, and l's status says why, after l's own
# caveat where it has one (hash-join-like).  Bad uses of
# --serial are usage errors.
. "$(dirname "$0")/mechsim.inc"

# prof WORKLOAD NAME [OPTIONS...]: tests/data/mechsim/WORKLOAD.sim
# profiled into $T/NAME.json
prof() {
	w=$1 n=$2
	shift 2
	"$P" profile -q -m "$M" -r 3 --counters probe --time-from "$RE" \
		--no-check "$@" -o "$T/$n.json" --runner "$MS -m $M \
-w tests/data/mechsim/$w.sim --cpus {cpus} \
--stress-cpus {stress_cpus} --stress-kind {stress_kind} \
--numa-maps {numa_maps} --noise 0.005 --seed 7 --state $T/$n.state" \
		>"$T/$n.out" 2>"$T/$n.err" ||
		{ cat "$T/$n.err"; fail "$n: pandia profile failed"; }
	echo "$n: l $("$J" model.l <"$T/$n.json"), serial_form" \
		"'$("$J" model.serial_form <"$T/$n.json" 2>/dev/null)'"
}

# below X Y: X < Y
below() {
	awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'
}

prof lockstep auto
[ "$("$J" model.serial_form <"$T/auto.json")" = first ] ||
	fail "default: model.serial_form not 'first'"
l=$("$J" model.l <"$T/auto.json")
below "$l" 0.05 || fail "default: l = $l, not near the true 0"
[ "$("$J" model.l_source <"$T/auto.json")" = run1,run2,run4,run5,run8 ] ||
	fail "default: l's source does not name run 8"
grep -q '"purpose": "where the serial work runs: run 2 with a CPU-bound co-runner on the other PU of the core of the first thread"' \
	"$T/auto.json" || fail "default: no run 8"
grep -q '"model_time_serial_first":' "$T/auto.json" ||
	fail "default: run 8 does not record both forms' predictions"
grep -q '^  serial work      on the first thread alone (run 8)$' \
	"$T/auto.out" || fail "default: the summary does not say the form"

prof lockstep first --serial first
[ "$("$J" model.serial_form <"$T/first.json")" = first ] ||
	fail "--serial first: model.serial_form not 'first'"
grep -q '^  serial work      on the first thread alone (--serial)$' \
	"$T/first.out" || fail "--serial first: the summary does not say it"
l=$("$J" model.l <"$T/first.json")
below "$l" 0.05 || fail "--serial first: l = $l, not near the true 0"

prof lockstep spread --serial spread
"$J" model.serial_form <"$T/spread.json" >/dev/null 2>&1 &&
	fail "--serial spread: model.serial_form written (the default)"
l=$("$J" model.l <"$T/spread.json")
below 0.05 "$l" || fail "--serial spread: l = $l; the paper's form should" \
	"take 0.1 to 0.18 for the serial work the first thread runs alone"

# a serial part run 8 cannot see: the paper's form, said
prof stream stream
[ "$("$J" model.serial_form <"$T/stream.json")" = spread ] ||
	fail "stream: model.serial_form not 'spread'"
"$J" model.l_status <"$T/stream.json" | grep -q "run 8 cannot tell" ||
	fail "stream: l's status does not say run 8 cannot tell:" \
		"$("$J" model.l_status <"$T/stream.json")"
echo "stream: spread, $("$J" model.l_status <"$T/stream.json")"

# l's own caveat and run 8's, both said (hash-join-like: l held at 1)
prof hashjoin hj
st=$("$J" model.l_status <"$T/hj.json")
case $st in
"run 5 was faster than dynamic balancing predicts"*"; run 8 cannot tell"*) ;;
*) fail "hashjoin: l's status does not say both: $st" ;;
esac

# usage errors: exit 2, the option named, nothing run
for bad in "--serial last" "--serial first --solve paper" \
	"--serial spread --model blackbox --sizes 1,2" \
	"--serial first --model blackbox --sizes 1,2"; do
	# shellcheck disable=SC2086 # the options split on purpose
	"$P" profile -q -m "$M" $bad -o "$T/bad.json" -- true \
		>/dev/null 2>"$T/bad.err"
	rc=$?
	[ "$rc" = 2 ] || fail "'$bad': exit $rc, not 2"
	grep -q -- '--serial' "$T/bad.err" ||
		fail "'$bad': the error does not name --serial: $(cat "$T/bad.err")"
	[ -e "$T/bad.json" ] && fail "'$bad': a description was written"
done
echo "usage errors: exit 2, --serial named"
