# pandia profile on a real program with helper threads: zstd honours
# -T{threads}, so run 2 must not say that it ignores the thread count
# (its compressing workers, not its main and I/O threads, get the
# PUs); zstd -T1 ignores {threads}, and the warning names what the
# accounting saw: one busy thread at a time.
# phase: timing: the busy threads the accounting sees in zstd on this host
. "$(dirname "$0")/profile.inc"
need_pus 0 1
command -v zstd >/dev/null 2>&1 ||
	skip "zstd is not installed (scripts/install-deps installs it)"

"$P" machine -q --assume tests/data/assume-full.json -o "$T/m.json" \
	>/dev/null 2>&1 || fail "cannot describe this host's topology"
seq 1 4000000 >"$T/in"

prof() {
	"$P" profile -q -m "$T/m.json" --force -r 1 --keep-unreliable -o "$T/w.json" -- \
		zstd -q -f "$1" "$T/in" -o /dev/null 2>"$T/err" ||
		{ cat "$T/err"; fail "pandia profile zstd $1"; }
	grep -v "^pandia: perf counters unavailable" "$T/err"
}

prof '-T{threads}'
grep -q "ignore the thread count" "$T/err" &&
	fail "zstd -T{threads}: said to ignore the thread count"
# run 2's accounting: two workers at once, the placement's two PUs
awk '/"id": "run2"/ { r2 = 1 } r2 && /"workers_at_once"/ { print; exit }' \
	"$T/w.json" | grep -q '"workers_at_once": 2' ||
	fail "run 2: not two workers at once"

prof -T1
# the rule: the warning exactly when the accounting saw one busy thread
# at a time (zstd -T1 runs its compressing thread and, on a busy host,
# its reading main thread may be busy enough to count as a second)
once=$(awk '/"id": "run2"/ { r2 = 1 } r2 && /"workers_at_once"/ {
	print $2; exit }' "$T/w.json" | tr -d ',')
want="run 2 asked the command for 2 threads; of the [0-9]* it ran,"
want="$want one at a time was busy.*{threads}.*OMP_NUM_THREADS"
case $once in
1 | 1.0) grep -q "$want" "$T/err" ||
	fail "zstd -T1: one worker at a time, but no warning naming it" ;;
*)	grep -q "ignore the thread count" "$T/err" &&
	fail "zstd -T1: $once workers at once, yet said to ignore the count"
	echo "zstd -T1: run 2 saw $once workers at once (a busy host): no" \
		"warning, as the rule says" ;;
esac
exit 0
