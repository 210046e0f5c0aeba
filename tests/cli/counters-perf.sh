#!/bin/sh
# The perf counter backend end to end (issue 5, item 2).  Where perf
# cannot count hardware events (no PMU, as on this project's machines;
# perf_event_paranoid; seccomp) it checks the refusal instead: auto
# falls back saying why and naming --counters probe, perf fails with
# the same reason; then it skips, printing the reason.  With a PMU it
# counts the stream and compute workloads and compares their demands.
B="${B:-build}"
P="$B/tests/progs/countdemand"
WL="$B/workloads"

skip() {
	echo "$*"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "$P" ] || fail "$P is not built (run make tests)"

out=$("$P" auto true 2>&1)
rc=$?
case $rc in
3)
	why=${out#unavailable: }
	echo "auto: $out"
	case $why in
	*"--counters probe"*) ;;
	*) fail "the fallback reason does not name --counters probe: $why" ;;
	esac
	err=$("$P" perf true 2>&1) && fail "--counters perf counted: $err"
	[ "$err" = "countdemand: $why" ] ||
		fail "--counters perf says '$err', auto said '$why'"
	skip "perf cannot count hardware events here: $why"
	;;
0) ;;
*) fail "countdemand auto true: exit $rc: $out" ;;
esac

for w in stream compute; do
	[ -x "$WL/$w" ] || fail "$WL/$w is not built (run make)"
done
s=$("$P" perf "$WL/stream" --threads 1 --mib 64 --passes 20) ||
	fail "counting stream failed"
c=$("$P" perf "$WL/compute" --threads 1 --work 100) ||
	fail "counting compute failed"
printf 'stream:\n%s\ncompute:\n%s\n' "$s" "$c"

value() {	# value RESOURCE TEXT: the demand, or "null"
	printf '%s\n' "$2" | awk -v r="$1" '$1 == "demand" && $2 == r {
		print $3 }'
}
si=$(value instructions "$s")
ci=$(value instructions "$c")
sd=$(value dram "$s")
cd=$(value dram "$c")
[ "$si" != null ] && [ "$ci" != null ] ||
	fail "instructions not measured"
awk -v s="$si" -v c="$ci" 'BEGIN { exit !(s > 0 && c > s) }' ||
	fail "compute's instruction rate $ci is not above stream's $si"
if [ "$sd" = null ] || [ "$cd" = null ]; then
	echo "DRAM demand not measured on this PMU: compared instructions only"
	exit 0
fi
awk -v s="$sd" -v c="$cd" 'BEGIN { exit !(s > 1e9 && c < s / 10) }' ||
	fail "DRAM demand: stream $sd, compute $cd bytes/s"
