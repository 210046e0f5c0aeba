#!/bin/sh
# serial --serial F has Amdahl's p = 1 - F by construction: on this host
# (2 cores) its time at --cpus 0,1 is within 10% of Amdahl's law,
# t1 * (F + (1 - F) / 2), for F = 0.3 and for F = 0.6 (issue 4, "must
# show").  Median of 5 interleaved pairs, one more try if outside and
# a third where compute's own speedup at 0,1 says the PUs are two full
# ones (else skipped, with the numbers: pus_unequal), "host busy" skip
# as in workloads.inc.
# phase: timing: Amdahl's law against this host's times at 0 and 0,1
. "$(dirname "$0")/workloads.inc"
need_pus 0 1
need_workload serial
echo "timing through: $WL_MODE"

for f in 0.3 0.6; do
	a="serial --scale 0.2 --phases 10 --serial $f"
	ok=
	# Amdahl's law takes two full PUs: where compute itself does not
	# reach 1.8 at 0,1 (a guest's vCPUs shared unseen), not checked;
	# where it does, one try more (a spell of that may have passed)
	for try in 1 2 3; do
		if [ "$try" = 3 ] && pus_unequal 1.8; then
			skip "PUs 0 and 1 do not give two PUs at once here" \
				"(compute's speedup at 0,1 $PU_RATIO): serial" \
				"F=$f at 2 threads $err off Amdahl's law, not" \
				"checked"
		fi
		host_busy_start
		ratio_median 5 0,1 "$a" 0 "$a"
		host_busy_stop
		amdahl=$(awk -v f="$f" \
			'BEGIN { printf "%.4f", f + (1 - f) / 2 }')
		err=$(awk -v r="$RATIO" -v a="$amdahl" \
			'BEGIN { printf "%.4f", r / a - 1 }')
		echo "serial F=$f: [0] $TIME_B s, [0,1] $TIME_A s; t2/t1" \
			"$RATIO, Amdahl $amdahl, error $err (try $try," \
			"others took $BUSY)"
		if within -0.10 "$err" 0.10; then
			ok=1
			break
		fi
	done
	[ -n "$ok" ] || busy_or_fail "serial F=$f at 2 threads is $err off" \
		"Amdahl's law"
done
exit 0
