#!/bin/sh
# balance: the static partition is lock-step (l = 0), the shared queue
# is dynamic (l = 1).  At --cpus 0,0,1 (threads 0 and 1 time-share PU 0)
# the static schedule waits for PU 0 to do 2/3 of the work while the
# dynamic one keeps both PUs busy: expected static/dynamic = 4/3.  The
# dynamic queue must beat the static partition by at least 20% (issue 4,
# "must show"): be at least 1.2 times as fast, static/dynamic >= 1.2.
# On dedicated cores (0,1) the two must be alike (ratio 0.9 to 1.1).
# Medians of interleaved pairs, one retry, "host busy" skip as in
# workloads.inc; at 0,1 a third try where PUs 0 and 1 give two full PUs
# at once, else a skip (pus_unequal), with the numbers.
# phase: timing: the static/dynamic speed ratio on this host's PUs
. "$(dirname "$0")/workloads.inc"
need_pus 0 1
need_workload balance
echo "timing through: $WL_MODE"

s="balance --scale 0.2 --schedule static"
d="balance --scale 0.2 --schedule dynamic"
ok=
for try in 1 2; do
	host_busy_start
	ratio_median 5 0,0,1 "$s" 0,0,1 "$d"
	host_busy_stop
	echo "balance at 0,0,1: static $TIME_A s, dynamic $TIME_B s;" \
		"static/dynamic $RATIO (median of pairs, try $try," \
		"others took $BUSY)"
	if within 1.2 "$RATIO" 100; then
		ok=1
		break
	fi
done
[ -n "$ok" ] || busy_or_fail "at 0,0,1 dynamic is not 20% faster than" \
	"static (static/dynamic $RATIO, want >= 1.2)"

for try in 1 2 3; do
	# the third try only where the PUs are two full ones (a spell of
	# unequal PUs may have passed); else not checked, with the numbers
	[ "$try" = 3 ] && pus_unequal &&
		skip "PUs 0 and 1 do not give two full PUs at once here" \
			"(compute's speedup at 0,1 $PU_RATIO): a static" \
			"partition waits for the slower, not checked: at 0,1" \
			"static/dynamic $RATIO"
	host_busy_start
	ratio_median 3 0,1 "$s" 0,1 "$d"
	host_busy_stop
	echo "balance at 0,1: static $TIME_A s, dynamic $TIME_B s;" \
		"static/dynamic $RATIO (median of pairs, try $try," \
		"others took $BUSY)"
	within 0.9 "$RATIO" 1.1 && exit 0
done
busy_or_fail "at 0,1 static and dynamic differ (static/dynamic $RATIO," \
	"want 0.9 to 1.1)"
