# pandia predict under a CPU quota (docs/model.md, "A CPU quota"): on a
# described 8-PU machine a compute-bound workload ranks 8 threads first
# without a quota, and 2 threads first with --cpu-quota 2, the rows
# above 2 threads saying the quota is their bottleneck; a description
# that recorded a quota is predicted for it without the option; a
# quota below one PU is refused, in the option and in a description.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }
W=tests/data/quota-workload.json

"$P" machine --topology 'pack:1 core:8 pu:1' \
	--assume tests/data/assume-full.json -o "$T/m8.json" \
	>/dev/null 2>&1 || fail "machine --topology exited $?"

# the ranking's row of N threads: "time speedup bottleneck"
row() {
	awk -v n="$1" '$1 ~ /^[0-9]+$/ && $2 == n && NF >= 8 {
		print $5, $6, $7, $8; exit }' "$T/out"
}
first() {
	awk '$1 == "1" && NF >= 8 { print $2; exit }' "$T/out"
}

"$P" predict -q -m "$T/m8.json" -w "$W" >"$T/out" 2>"$T/err" ||
	fail "predict exited $?"
[ "$(first)" = 8 ] || fail "without a quota: rank 1 is $(first) threads"
[ "$(row 8)" = "1.337 7.477 - 0-7" ] || fail "8 threads: '$(row 8)'"

"$P" predict -m "$T/m8.json" -w "$W" --cpu-quota 2 >"$T/out" 2>"$T/err" ||
	fail "predict --cpu-quota 2 exited $?"
[ "$(first)" = 2 ] || fail "--cpu-quota 2: rank 1 is $(first) threads"
[ "$(row 2)" = "5.050 1.980 - 0,1" ] || fail "2 threads: '$(row 2)'"
[ "$(row 4)" = "5.050 1.980 cpu quota" ] || fail "4 threads: '$(row 4)'"
[ "$(row 8)" = "5.050 1.980 cpu quota" ] || fail "8 threads: '$(row 8)'"
grep -q "a CPU quota of 2 PUs' time per second (--cpu-quota)" "$T/err" ||
	fail "no progress line naming the quota"
grep -q "more threads than that share it and run no faster" "$T/out" ||
	fail "the ranking does not say why"

# one placement: every thread's bottleneck is the quota
"$P" predict -q -m "$T/m8.json" -w "$W" --cpu-quota 2 -p 0-7 \
	>"$T/out" 2>"$T/err" || fail "predict -p 0-7 exited $?"
grep -q "predicted time 5.05 s, speedup 1.98" "$T/out" ||
	fail "-p 0-7: not 5.05 s"
[ "$(grep -c '^  [0-7] *cpu quota of 2 PUs$' "$T/out")" = 8 ] ||
	fail "-p 0-7: not every thread held by the quota"

# a description that recorded a quota of 2 is predicted for it
sed 's/^  "identity": {/  "limits": { "allowed": "0-7", "cpu_quota": 2, "source": "\/sys\/fs\/cgroup\/x\/cpu.max" },\n  "identity": {/' \
	"$T/m8.json" >"$T/m8q.json"
"$P" predict -m "$T/m8q.json" -w "$W" >"$T/out" 2>"$T/err" ||
	fail "predict of a description with limits exited $?"
[ "$(first)" = 2 ] || fail "recorded quota: rank 1 is $(first) threads"
grep -q "(/sys/fs/cgroup/x/cpu.max)" "$T/err" ||
	fail "the recorded quota's file is not named"
# and --cpu-quota overrides it
"$P" predict -q -m "$T/m8q.json" -w "$W" --cpu-quota 8 >"$T/out" \
	2>"$T/err" || fail "predict --cpu-quota 8 exited $?"
[ "$(first)" = 8 ] || fail "--cpu-quota 8: rank 1 is $(first) threads"

# below one PU: refused, the option and the description
"$P" predict -m "$T/m8.json" -w "$W" --cpu-quota 0.5 >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "--cpu-quota 0.5 did not exit 2"
grep -q "cpu-quota 0.5 is below one PU" "$T/err" ||
	fail "--cpu-quota 0.5: no clear error"
[ -s "$T/out" ] && fail "--cpu-quota 0.5 wrote to stdout"
"$P" predict -m "$T/m8.json" -w "$W" --cpu-quota two >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "--cpu-quota two did not exit 2"
sed 's/"cpu_quota": 2,/"cpu_quota": 0.5,/' "$T/m8q.json" >"$T/m8h.json"
"$P" predict -m "$T/m8h.json" -w "$W" >"$T/out" 2>"$T/err"
[ $? = 1 ] || fail "a description with a quota of 0.5 was not refused"
grep -q "m8h.json:[0-9]*:[0-9]*: limits.cpu_quota: a CPU quota below one PU" \
	"$T/err" || fail "quota 0.5 in a description: no clear error"
echo "predict under a CPU quota: 2 threads ranked before 8 at a quota of 2"
