# The accounting against waits of known length: a thread blocked 0.5 s
# in pthread_mutex_lock shows blocked.mutex 0.5 s within 10%, and so
# for a barrier, a condition variable and a semaphore; for every thread
# of these and of real programs, cpu_time + runqueue_wait + the sum of
# blocked is end - start within 5% (1 ms for the shortest threads),
# counting the waits as timed, before the runner takes their overlap
# with the run-queue wait off them (placement.threads[].overlap).
# Timing-sensitive: a wait timed from call to return also holds the
# run-queue wait after the wake-up, so on a busy host (or beside busy
# workers) the sum runs over by up to the thread's run-queue wait; then
# its numbers are shown and the test skips (77) if that is all that is
# wrong.  A wait in the wrong kind, or an excess that the run-queue
# wait does not explain, fails whatever the host.
# phase: timing: blocked and CPU times measured against 0.5 s waits
set -u
. tests/cli/run.inc
need_pus 0 1
TP="$B/tests/progs/threadprog"
TO="$B/tests/progs/threadsof"
[ -x "$TP" ] && [ -x "$TO" ] || fail "test programs not built (make tests)"
busy=""

# columns of threadsof: 9 mutex, 10 condition, 11 barrier, 12 join,
# 13 semaphore
for spec in mutex:9 barrier:11 cond:10 sem:13; do
	kind=${spec%:*}
	col=${spec#*:}
	"$P" run -q -r 1 --json --cpus 0,1 -- "$TP" --wait $kind --secs 0.5 \
		>"$T/j" 2>"$T/err" || { cat "$T/err"; fail "$kind"; }
	"$TO" "$T/j" >"$T/threads" || fail "$kind: threads[]"
	cat "$T/threads"
	line=$(awk '$1 == 1' "$T/threads")
	[ -n "$line" ] || fail "$kind: no thread of index 1"
	v=$(echo "$line" | awk -v c=$col '{ print $c }')
	# the wait is in its own kind, and not in the others
	echo "$line" | awk -v c=$col '{ for (k = 9; k <= 13; k++)
		if (k != c && $k > 0.05) exit 1 }' ||
		fail "$kind: the wait was counted in another kind: $line"
	if awk -v v="$v" 'BEGIN { exit !(v >= 0.45 && v <= 0.55) }'; then
		echo "$kind: blocked $v s of 0.5 s"
	elif echo "$line" | awk '{ exit !($8 > 0.05 * ($6 - $5)) }'; then
		busy="$busy $kind($v s)"
	else
		fail "$kind: blocked $v s, expected 0.5 s within 10%"
	fi
	cp "$T/threads" "$T/acc-$kind"
done

# the balance, on these and on programs with many threads and waits
seq 1 2000000 >"$T/in"
"$P" run -q -r 1 --json --cpus 0,1 -- "$TP" --threads 2 --work 50 \
	--phases 3 >"$T/j" && "$TO" "$T/j" >"$T/acc-phases" ||
	fail "per-phase run"
if command -v zstd >/dev/null 2>&1; then
	"$P" run -q -r 1 --json --cpus 0,1 -- zstd -q -f -T2 "$T/in" \
		-o /dev/null >"$T/j" && "$TO" "$T/j" >"$T/acc-zstd" ||
		fail "zstd run"
fi
for f in "$T"/acc-*; do
	awk -v name="${f##*/acc-}" '{
		w = $6 - $5; s = $7 + $8 + $16
		for (k = 9; k <= 14; k++) s += $k
		ok = s <= 1.05 * w + 0.001 && s >= 0.95 * w - 0.001
		if (ok) next
		printf "%s: thread %d: cpu %.4f + runq %.4f + blocked " \
		       "%.4f = %.4f s, end - start %.4f s\n", name, $1, $7,
		       $8, s - $7 - $8, s, w
		if (s - w <= $8 + 0.05 * w + 0.001 && s >= 0.95 * w - 0.001)
			busy = 1
		else
			bad = 1
	} END { exit bad ? 1 : busy ? 2 : 0 }' "$f"
	case $? in
	0) echo "${f##*/acc-}: every thread balanced within 5%" ;;
	2) busy="$busy ${f##*/acc-}(balance)" ;;
	*) cat "$f"; fail "${f##*/acc-}: a thread's time does not add up" ;;
	esac
done
[ -z "$busy" ] || skip "busy host (waits held run-queue time over 5% of" \
	"their thread's time, see above): could not tell$busy"
exit 0
