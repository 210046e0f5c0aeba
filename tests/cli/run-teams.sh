# Teams that come and go, OpenMP, and commands of several processes:
# the listed PUs go to the workers in every phase and every process.
set -u
. tests/cli/run.inc
need_pus 0 1
TP="$B/tests/progs/threadprog"
TO="$B/tests/progs/threadsof"
[ -x "$TP" ] && [ -x "$TO" ] || fail "test programs not built (make tests)"

# run ARGS...: pandia run -r 1 --json ARGS, threads into $T/threads
run() {
	"$P" run -q -r 1 --json "$@" >"$T/j" 2>"$T/err" ||
		{ cat "$T/err"; fail "pandia run $*"; }
	"$TO" "$T/j" >"$T/threads" || fail "threads[] of $*"
	cat "$T/threads"
}

# A new team of two in each of 4 phases, the main thread waiting: the
# index of a thread that exits is given back, so every phase's workers
# are on PUs 0 and 1, one each (before: only the first phase).
run --cpus 0,1 --show-output -- "$TP" --threads 2 --work 60 --phases 4
grep '^phase' "$T/err" | tail -n 8 >"$T/phases"
cat "$T/phases"
for p in 0 1 2 3; do
	got=$(awk -v p=$p '$2 == p { print $6 }' "$T/phases" | sort |
		tr '\n' ' ')
	[ "$got" = "0 1 " ] || fail "phase $p: workers on '$got', not 0 and 1"
done
[ "$(awk '$15 == 1 && ($4 == 0 || $4 == 1)' "$T/threads" | wc -l)" -eq 8 ] ||
	fail "per-phase: expected 8 workers, each on PU 0 or 1"
awk '$1 == 0 && $15 == 0 && $4 == -1 { ok = 1 } END { exit !ok }' \
	"$T/threads" || fail "per-phase: the waiting main thread is a helper"

# OpenMP: every thread of the team busy, each on its place, as listed
for cpus in 0,1 1,0; do
	run --cpus $cpus --show-output -- "$TP" --omp 2 --work 100
	i=0
	for pu in $(echo $cpus | tr ',' ' '); do
		grep -qx "omp $i cpus $pu" "$T/err" ||
			{ cat "$T/err"; fail "OpenMP $cpus: $i not on $pu"; }
		i=$((i + 1))
	done
	[ "$(awk '$15 == 1' "$T/threads" | wc -l)" -eq 2 ] ||
		fail "OpenMP $cpus: expected 2 workers"
done

# Two busy processes started by a shell: one on each PU (before, every
# process started the list anew: both on PU 0); the shell is a helper.
run --cpus 0,1 -- sh -c "'$TP' --spin 300 & '$TP' --spin 300 & wait"
[ "$(awk '$15 == 1 { print $4 }' "$T/threads" | sort | tr '\n' ' ')" = \
	"0 1 " ] || fail "two processes: not one on each PU"
awk '$1 == 0 && $15 == 0 && $4 == -1 { ok = 1 } END { exit !ok }' \
	"$T/threads" || fail "two processes: the shell is a helper"

# The second process continues the list: 0,1,1,0 puts the first
# process's workers on 0 and 1 and the second's, in creation order, on
# 1 and 0.
run --cpus 0,1,1,0 -- sh -c "'$TP' --threads 2 --work 300 & sleep 0.1;
	'$TP' --threads 2 --work 300 & wait"
# one line per process, first worker index first: its workers' PUs
awk '$15 == 1 { if (!($2 in first)) first[$2] = $1; pus[$2] = pus[$2] " " $4 }
     END { for (p in pus) print first[p] pus[p] }' "$T/threads" |
	sort -n | awk '{ $1 = ""; print substr($0, 2) }' >"$T/procs"
cat "$T/procs"
[ "$(wc -l <"$T/procs")" -eq 2 ] || fail "expected two worker processes"
[ "$(head -n 1 "$T/procs")" = "0 1" ] ||
	fail "first process: workers not on 0 1"
[ "$(tail -n 1 "$T/procs")" = "1 0" ] ||
	fail "second process: workers not on 1 0 (the list continued)"

# Roles that change after the first run: the warm-up finds a waiting
# main thread (a helper), every later run a busy one.  The first run
# pinned by the wrong roles is made again with its own roles, once, so
# the runs kept pin the main thread and count no role change.
"$P" run -q -r 2 --json --cpus 0,1 -- sh -c "if [ -e '$T/seen' ]; then
	exec '$TP' --spin 150; fi; touch '$T/seen';
	exec '$TP' --threads 2 --work 150" >"$T/j" 2>"$T/err" ||
	{ cat "$T/err"; fail "pandia run (roles that change)"; }
cat "$T/err"
"$TO" "$T/j" >"$T/threads" || fail "threads[] (roles that change)"
cat "$T/threads"
grep -q '"role_changes": 0' "$T/j" ||
	fail "roles that change: a role change counted in the run kept"
[ "$(awk '$1 == 0 && $15 == 1 && $4 == 0' "$T/threads" | wc -l)" -eq 1 ] ||
	fail "roles that change: the busy main thread is not pinned to PU 0"
"$J" placement.helpers <"$T/j" >"$T/helpers" ||
	fail "roles that change: no placement.helpers"
grep -q 'threadprog/0' "$T/helpers" &&
	fail "roles that change: the main thread is still named a helper"
# ... and with --show-output, the run made again is said before its
# output comes again: once, after the first measured run's
rm -f "$T/seen"
"$P" run -q -r 2 --show-output --cpus 0,1 -- sh -c "echo shown;
	if [ -e '$T/seen' ]; then exec '$TP' --spin 150; fi;
	touch '$T/seen'; exec '$TP' --threads 2 --work 150" \
	>/dev/null 2>"$T/err" || { cat "$T/err"; fail "pandia run --show-output"; }
awk '/^shown$/ { s++ } /roles changed in this run: it is made again/ {
	a++; at = s } END { exit !(a == 1 && at == 2 && s == 4) }' "$T/err" ||
	{ cat "$T/err"; fail "--show-output: the run made again is not said once, after its output"; }
exit 0
