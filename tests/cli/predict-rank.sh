# pandia predict: the ranked table, --top/--threads/--within, the
# defaults next to the best, the pin lines, --json and -k.
set -u
P="${B:-build}/pandia"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }
M=machines/paper-figure3.json
W=tests/data/paper-section4-workload.json

"$P" predict -m $M -w $W >"$T/out" 2>"$T/err" || fail "rank exited $?"
grep -q '^placements 20 canonical; 20 ranked' "$T/out" ||
	fail "20 canonical placements of the Figure 3 machine"
grep -q '^rank threads cores sockets' "$T/out" || fail "table header"
ROW='^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+  '
[ "$(grep -Ec "$ROW" "$T/out")" -eq 10 ] ||
	fail "--top defaults to 10 rows"
grep -q '^best ' "$T/out" || fail "best line"
grep -q '^within 5%' "$T/out" || fail "within line"
grep -q 'all PUs, unpinned (OS scheduler) *8 threads' "$T/out" || fail "OS default"
grep -q 'OMP_PROC_BIND=close' "$T/out" || fail "close"
grep -q 'OMP_PROC_BIND=spread' "$T/out" || fail "spread"
grep -q "^  taskset -c [0-9,-]* example-workload --threads [0-9]*$" "$T/out" ||
	fail "taskset line"
grep -q "^  numactl --physcpubind=[0-9,-]* --interleave=all example-workload" "$T/out" ||
	fail "numactl line (the workload's memory is interleaved)"
# example-workload is no OpenMP program (not even a file): no OMP line
grep -q "^  OMP_NUM_THREADS=" "$T/out" && fail "an OpenMP line for no OpenMP program"
grep -q "^  pandia run --cpus [0-9,-]* -- example-workload" "$T/out" ||
	fail "pandia run line"

# --memory local: numactl says --localalloc
"$P" predict -m $M -w $W --memory local >"$T/out" 2>"$T/err" ||
	fail "--memory local"
grep -q -- "--physcpubind=[0-9,-]* --localalloc " "$T/out" || fail "localalloc"

# --threads, --top, --within
"$P" predict -m $M -w $W --threads 4 --top 3 --within 50 >"$T/out" \
	2>"$T/err" || fail "--threads 4"
grep -q '^placements 20 canonical; 5 ranked .*4 threads only' "$T/out" ||
	fail "5 canonical placements with 4 threads"
[ "$(grep -Ec "$ROW" "$T/out")" -eq 3 ] || fail "--top 3 rows"
[ "$(grep -Ec '^ *[1-3] +4 ' "$T/out")" -eq 3 ] || fail "rows of 4 threads"
grep -q 'to run the cheapest-within placement' "$T/out" || fail "--within pins"

# --json: the fields scripts read
"$P" predict -m $M -w $W --json --top 0 >"$T/out" 2>"$T/err" || fail "--json"
grep -q '"schema": "pandia-predict/1"' "$T/out" || fail "json schema"
[ "$(grep -c '"rank": ' "$T/out")" -eq 20 ] || fail "--top 0: all 20"
for k in cpus threads time speedup; do
	grep -q "\"$k\": " "$T/out" || fail "json field $k"
done
"$P" predict -m $M -w $W --json --placement 0,1,4 >"$T/out" 2>"$T/err" ||
	fail "--json --placement"
grep -q '"threads_detail": \[' "$T/out" || fail "threads_detail"
grep -q '"iterations": [0-9]' "$T/out" || fail "iterations"

# oversubscription: up to 2 threads a PU
"$P" predict -m $M -w $W -k 2 --top 1 >"$T/out" 2>"$T/err" || fail "-k 2"
grep -q '^placements [0-9]* canonical (up to 2 threads per PU)' "$T/out" ||
	fail "-k 2 header"
# the range of the best: with no other placement inside it, it says so
# in words ("0 of the placements shown tie with it" before), the equal
# ones counted apart
sed 's/"p": 0.9,/"p": 0.9, "p_uncertainty": 0.0001,/' $W >"$T/u.json"
"$P" predict -m $M -w "$T/u.json" --top 3 >"$T/out" 2>"$T/err" ||
	fail "a workload with uncertainty"
grep -q "from the parameters' uncertainty; 2 placements shown predicted equal to it, no slower one's range reaching it" \
	"$T/out" || fail "no tie: not said in words"
grep -q " 0 of the placements shown tie" "$T/out" && fail "'0 of the placements'"
# one placement tying with the best, and one thread count: singular
"$P" machine --topology "pack:1 core:2 pu:1" \
	--assume tests/data/assume-full.json -o "$T/m2.json" >/dev/null 2>&1 ||
	fail "a 2-core machine"
sed 's/"p": 0.9,/"p": 0.8,/; s/"p_uncertainty": 0.02,/"p_uncertainty": 0.8,/' \
	tests/data/workloads/full.json >"$T/u2.json"
"$P" predict -m "$T/m2.json" -w "$T/u2.json" --force >"$T/out" 2>"$T/err" ||
	fail "a workload too uncertain to choose the thread count"
grep -q "; 1 of the placements shown ties with it" "$T/out" ||
	fail "'1 of the placements shown tie'"
grep -q "choose the thread count: 1 thread ties with 2;" "$T/out" ||
	fail "'1 threads tie'"
# one thread: said in the singular
"$P" predict -m $M -w $W --threads 1 >"$T/out" 2>"$T/err" || fail "--threads 1"
grep -q ', 1 thread only$' "$T/out" || fail "'1 threads only'"
echo ok
