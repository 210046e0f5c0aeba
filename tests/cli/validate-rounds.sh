# pandia validate -r N runs every placement once per round, N rounds,
# so that a host whose speed moves during the validation moves every
# placement alike: between two runs of one placement every other
# placement runs.  Each row keeps its runs in validate.json ("times"),
# and its median is the one reported; the report gives the host's
# speed in each round.
set -u
. tests/cli/validate.inc

JQ="$B/tests/progs/jsonq"
RE='time: ([0-9.]+)'
# a "workload" whose reported time tells when it ran: 0.1/threads s
# plus 1 ms for each run of the command made before it; shell builtins
# only, one process of one thread, whose roles never vary
cat >"$T/fake.sh" <<'EOS'
n=0
[ -f "$SEQ" ] && read -r n <"$SEQ"
n=$((n + 1))
echo "$n" >"$SEQ"
ms=$((100 / PANDIA_THREADS + n))
printf 'time: %d.%03d\n' $((ms / 1000)) $((ms % 1000))
EOS
workload fake 0.1 1 0 "[\"sh\", \"$T/fake.sh\"]"

SEQ="$T/seq" PANDIA_TEST_TAG=$TAG "$P" validate -m "$T/m.json" \
	-w "$T/fake.json" --force -k 2 -r 3 --no-warmup --time-from "$RE" \
	-o "$T/out" -- sh "$T/fake.sh" >"$T/stdout" 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "validate -r 3"; }
grep -q "3 runs each, one of each per round" "$T/stderr" ||
	fail "the first line does not say the runs go in rounds"
grep -q "round 3 of 3, " "$T/stderr" || fail "no progress line of round 3"
# the unpinned row's lines say so, as its first line does
grep -q "round 3 of 3, [0-9]*/[0-9]*: unpinned, [0-9,]*: measured" \
	"$T/stderr" || fail "the unpinned row's measured line does not say so"
# each run reports more than the last: the later rounds are slower
grep -q "^rounds  *3; the host's speed in each" "$T/stdout" ||
	fail "no line of the rounds' speeds in the report"
lv=$("$JQ" metrics.rounds.levels <"$T/out/validate.json") ||
	fail "no metrics.rounds in validate.json"
echo "$lv" | awk -F, '{ exit !(NF == 3 && $1 < $2 && $2 < $3) }' ||
	fail "the rounds' speeds $lv do not rise as the runs' times do"

"$JQ" rows cpus repetitions measured times \
	<"$T/out/validate.json" >"$T/rows" || fail "no rows in validate.json"
n=$(wc -l <"$T/rows")
[ "$n" -ge 5 ] || fail "$n rows, expected at least 5"
# every row: 3 runs, its median reported, and between two of its runs
# at least every other row's run (n - 1 of them), so its reported
# times at least n ms apart
awk -F '\t' -v n="$n" '
	{
		if ($2 != 3) { print "row " $1 ": " $2 " runs"; bad = 1 }
		k = split($4, t, ",")
		if (k != 3) { print "row " $1 ": " k " times"; bad = 1 }
		for (i = 2; i <= k; i++)
			if (t[i] - t[i - 1] < (n - 0.5) * 0.001) {
				print "row " $1 ": runs " t[i - 1] " and " \
					t[i] " made back to back"
				bad = 1
			}
		m = t[1] + t[2] + t[3] - (t[1] < t[2] ? (t[1] < t[3] ? t[1] : t[3]) : (t[2] < t[3] ? t[2] : t[3])) - (t[1] > t[2] ? (t[1] > t[3] ? t[1] : t[3]) : (t[2] > t[3] ? t[2] : t[3]))
		if ($3 - m > 1e-9 || m - $3 > 1e-9) {
			print "row " $1 ": measured " $3 ", median " m
			bad = 1
		}
	}
	END { exit bad }' "$T/rows" || { cat "$T/rows"; fail "not in rounds"; }
# the runs made: every row's three, those made again because others
# disturbed them, and one for each pinned row on two PUs or more to
# find its threads' roles, in round 1 only (later rounds pin by them)
"$JQ" rows cpus pinned <"$T/out/validate.json" >"$T/pinned" ||
	fail "no rows in validate.json"
find=$(awk -F '\t' '$2 == "true" {
	k = split($1, p, ","); d = 0; delete seen
	for (i = 1; i <= k; i++) if (!(p[i] in seen)) { seen[p[i]] = 1; d++ }
	if (d > 1) f++ } END { print f + 0 }' "$T/pinned")
again=$(grep -c "measuring it again" "$T/stderr")
read -r made <"$T/seq"
[ "$made" -eq $((3 * n + find + again)) ] ||
	fail "$made runs of the command made: expected $((3 * n)) measured," \
		"$again made again and $find that found roles"

# with warm-ups: one a row, before its first run, which also finds its
# roles; a run made again because others disturbed it, even its
# first, has no warm-up of its own.  Two other tenants keep PUs 0 and
# 1 busy meanwhile, so that runs are disturbed and made again.
taskset -c 0 sh -c 'while :; do :; done' &
s0=$!
taskset -c 1 sh -c 'while :; do :; done' &
s1=$!
SEQ="$T/seq2" PANDIA_TEST_TAG=$TAG "$P" validate -m "$T/m.json" \
	-w "$T/fake.json" --force -k 2 -r 3 --time-from "$RE" \
	-o "$T/out2" -- sh "$T/fake.sh" >"$T/stdout2" 2>"$T/stderr2"
rc=$?
kill $s0 $s1 2>/dev/null
wait $s0 $s1 2>/dev/null
[ $rc -eq 0 ] || { cat "$T/stderr2"; fail "validate -r 3 with warm-ups"; }
again=$(grep -c "measuring it again" "$T/stderr2")
[ "$again" -gt 0 ] || echo "no run was disturbed beside the tenants"
read -r made <"$T/seq2"
[ "$made" -eq $((4 * n + again)) ] ||
	fail "$made runs of the command made with warm-ups: expected" \
		"$((3 * n)) measured, $n warm-ups and $again made again"
exit 0
