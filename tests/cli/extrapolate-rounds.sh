#!/bin/sh
# pandia extrapolate -r N runs every thread count once per round, N
# rounds, so that a host whose speed moves during the sweep moves every
# count alike: between two runs of one count the other counts run.  A
# count's time and user categories are the medians over its rounds,
# its runs kept in the file ("times").  Interrupted after the first
# round, every count is measured and the message says how many of the
# runs were made.
. "$(dirname "$0")/extrapolate.inc"
. "$(dirname "$0")/procs.inc"
need_pus 0 1

host_machine "$T/host.json" || fail "pandia machine --quick failed"

# a command whose output tells when it ran: time 0.1/threads s plus 1 ms
# for each run made before it, and that number of runs as a category;
# shell builtins only, one process of one thread, whose roles never vary
cat >"$T/fake.sh" <<'EOS'
n=0
[ -f "$SEQ" ] && read -r n <"$SEQ"
n=$((n + 1))
echo "$n" >"$SEQ"
[ -n "${NAP_AT:-}" ] && [ "$n" -ge "$NAP_AT" ] && exec sleep 5
ms=$((100 / PANDIA_THREADS + n))
printf 'time: %d.%03d\nseq: %d\n' $((ms / 1000)) $((ms % 1000)) "$n"
EOS

SEQ="$T/seq" "$P" extrapolate -m "$T/host.json" -o "$T/runs.json" \
	--threads 1-2 -r 3 --no-warmup --frequency 1e9 \
	--time-from 'time: ([0-9.]+)' --category 'seq=seq: ([0-9]+):max' \
	-- sh "$T/fake.sh" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "extrapolate -r 3"; }
grep -q "3 runs each, one of each per round" "$T/err" ||
	{ cat "$T/err"; fail "the first line does not say the runs go in rounds"; }
grep -q "round 3 of 3, 2/2: 2 threads: [0-9.]* s (spread" "$T/err" ||
	{ cat "$T/err"; fail "no progress line of round 3 with the spread"; }
grep -q "one of each count per round" "$T/runs.json" ||
	fail "the file's note does not say the runs went in rounds"
for i in 0 1; do
	ts=$(jq "$T/runs.json" runs.$i.times | tr -d '[] \n')
	t=$(jq "$T/runs.json" runs.$i.time)
	s=$(jq "$T/runs.json" runs.$i.stalls.seq)
	# of the seven runs (the second finds the 2 threads' roles), count
	# 0 made 1, 4 and 6, count 1 3, 5 and 7: at least 2 ms apart, the
	# medians' 4 and 5 (back to back: 2 and 6)
	echo "$ts" | awk -F, -v t="$t" '{
		if (NF != 3) { print NF " times"; exit 1 }
		for (k = 2; k <= NF; k++)
			if ($k - $(k - 1) < 0.0015) {
				print "runs " $(k - 1) " and " $k \
					" made back to back"
				exit 1
			}
		d = $2 - t; if (d < 0) d = -d
		if (d > 1e-9) { print "time " t ", median " $2; exit 1 }
	}' || fail "count $i: times $ts, time $t"
	[ "$s" = "$((i + 4))" ] ||
		fail "count $i: seq $s, not the median of its rounds' $((i + 4))"
done
# six runs, and the one that found the 2 threads' roles in round 1:
# later rounds pin by those roles, without a run made to find them
read -r n <"$T/seq"
[ "$n" = 7 ] || fail "$n runs of the command made, expected 7"

# interrupted in round 2 (its first run naps until the signal comes):
# every count measured once, kept, and said
rm -f "$T/seq" "$T/runs.json"
SEQ="$T/seq" NAP_AT=4 "$P" extrapolate -m "$T/host.json" \
	-o "$T/runs.json" --threads 1-2 -r 3 --no-warmup --frequency 1e9 \
	--time-from 'time: ([0-9.]+)' -- sh "$T/fake.sh" \
	>"$T/out" 2>"$T/err" &
pid=$!
# runs_made N: whether the command has been run N times or more
runs_made() {
	n=0
	[ -f "$T/seq" ] && read -r n <"$T/seq"
	[ "${n:-0}" -ge "$1" ]
}
wait_until 5 runs_made 4 || { kill $pid; fail "round 2 never started"; }
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" -eq 143 ] || { cat "$T/err"; fail "interrupted: exit status $rc, expected 143"; }
grep -q "interrupted by signal 15: 2 of 2 thread counts measured (2 of 6 runs made), kept in $T/runs.json" \
	"$T/err" || { cat "$T/err"; fail "the interrupted message"; }
[ "$(jq "$T/runs.json" runs threads | tr '\n' ' ')" = "1 2 " ] ||
	fail "the runs kept are not those at 1 and 2 threads"
echo "extrapolate-rounds: rounds and medians as run"
