# pandia run pins thread i to the i-th PU of --cpus, in creation order,
# for pthreads (through libpandia-pin.so) and OpenMP (OMP_PLACES too).
# showaffinity's threads only sleep: no thread is busier than another,
# so --pin workers (the default) takes them all as workers.  Only while
# they hold on long enough: in a sanitized build the main thread's
# start-up alone is a tenth of a 100 ms life, which makes it the one
# worker (and was of a 300 ms life on a 2-vCPU PVM guest, where the
# roles then changed between runs); the checks below that are about
# creation order say --hold 1000 or --pin threads.
set -u
. tests/cli/run.inc
need_pus 0 1

# pthreads: --cpus 1,0,1 puts threads 0, 1, 2 on PUs 1, 0, 1; {threads}
# is replaced in the arguments
"$P" run -q -r 1 --no-warmup --show-output --cpus 1,0,1 -- \
	"$SA" --threads '{threads}' --hold 1000 >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "pandia run showaffinity"; }
cat "$T/err"
for want in "thread 0 cpus 1" "thread 1 cpus 0" "thread 2 cpus 1"; do
	grep -qx "$want" "$T/err" || fail "expected '$want'"
done
[ "$(grep -c '^thread ' "$T/err")" -eq 3 ] || fail "expected 3 threads"
# pandia's own report, read from /proc: 2 created, each where planned
grep -q "^threads: *3 in 1 process (2 created)" "$T/out" ||
	{ cat "$T/out"; fail "thread count in the report"; }
awk '$1 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ { n++; if ($4 != $NF) bad++ }
     END { exit !(n == 3 && !bad) }' "$T/out" ||
	{ cat "$T/out"; fail "report: planned and allowed differ"; }

# the same from the JSON report
"$P" run -q -r 1 --no-warmup --json --cpus 1,0,1 -- \
	"$SA" --threads '{threads}' --hold 1000 >"$T/json" || fail "--json"
grep -q '"misplaced": 0' "$T/json" || fail "json: misplaced"
grep -q '"created": 2' "$T/json" || fail "json: created"
[ "$(grep -c '"seen": true' "$T/json")" -eq 3 ] ||
	{ cat "$T/json"; fail "json: every thread seen in /proc"; }

# OpenMP: both threads pinned as listed, in either order; a PU listed
# twice gets two threads
for cpus in 0,1 1,0 1,0,1; do
	"$P" run -q -r 1 --no-warmup --show-output --cpus "$cpus" -- \
		"$SA" --omp --threads '{threads}' >"$T/out" 2>"$T/err" ||
		{ cat "$T/err"; fail "OpenMP at $cpus"; }
	i=0
	for pu in $(echo "$cpus" | tr ',' ' '); do
		grep -qx "omp $i cpus $pu" "$T/err" ||
			{ cat "$T/err"; fail "OpenMP $cpus: thread $i not on $pu"; }
		i=$((i + 1))
	done
	grep -q '^omp ' "$T/err" || fail "no OpenMP output"
	echo "OpenMP --cpus $cpus: pinned as listed"
done

# OMP_NUM_THREADS and PANDIA_THREADS are the list's length
"$P" run -q -r 1 --no-warmup --show-output --cpus 0,0,1,1 -- \
	sh -c 'echo "n=$OMP_NUM_THREADS p=$PANDIA_THREADS c={cpus}"' \
	2>"$T/err" >/dev/null || fail "env"
grep -qx "n=4 p=4 c=0,0,1,1" "$T/err" || { cat "$T/err"; fail "env"; }

# --pin set: every thread on the set, none pinned alone
"$P" run -q -r 1 --no-warmup --show-output --pin set --cpus 1,0 -- \
	"$SA" --threads 2 >"$T/out" 2>"$T/err" || fail "--pin set"
[ "$(grep -c '^thread [01] cpus 0-1$\|^thread [01] cpus 0,1$' "$T/err")" \
	-eq 2 ] || { cat "$T/err"; fail "--pin set: threads on 0-1"; }
# without the pinning library the command's children are still found
# (a shell that runs the program as its child): the program's two
# threads beside the shell's one, each allowed on the set
"$P" run -q -r 1 --no-warmup --pin set --cpus 1,0 -- \
	sh -c "'$SA' --threads 2 --hold 1000; true" >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "--pin set under sh"; }
# (a sanitizer's leak check may clone a task of its own at exit: the
# program's process is the one with two threads)
awk '$1 == "-" { n[$2]++; if ($NF != "0-1") bad = 1 }
     END { for (p in n) if (n[p] == 2) two++; exit !(two == 1 && !bad) }' \
	"$T/out" ||
	{ cat "$T/out"; fail "--pin set under sh: not the child's two threads"; }

# more threads than listed PUs: the list is used again from its start
"$P" run -q -r 1 --no-warmup --show-output --pin threads --cpus 1,0 -- \
	"$SA" --threads 3 >"$T/out" 2>"$T/err" || fail "beyond the list"
grep -qx "thread 2 cpus 1" "$T/err" || { cat "$T/err"; fail "beyond"; }
grep -q "warning: more threads to pin than the 2 listed PUs: 1 went" \
	"$T/err" || { cat "$T/err"; fail "no warning about wrap-around"; }
# one PU listed (0,0): every thread is there whatever the count, and
# going round the list again is no news
"$P" run -q -r 1 --no-warmup --show-output --pin threads --cpus 0,0 -- \
	"$SA" --threads 3 >"$T/out" 2>"$T/err" || fail "one PU"
grep -q "wrap-around" "$T/err" && { cat "$T/err"; fail "one PU: wrap-around"; }

# --skip: creation index 1 stays on the set, 0 and 2 take the list
"$P" run -q -r 1 --no-warmup --show-output --skip 1 --cpus 1,0 -- \
	"$SA" --threads 3 >"$T/out" 2>"$T/err" || fail "--skip"
for want in "thread 0 cpus 1" "thread 1 cpus 0,1" "thread 2 cpus 0"; do
	grep -qx "$want" "$T/err" || { cat "$T/err"; fail "--skip: $want"; }
done
exit 0
