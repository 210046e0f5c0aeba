# Programs that pinning cannot take as planned, and pandia says so: one
# that never creates a thread, one with hundreds, one that exits while
# its threads run, one that sets its own affinity, a static binary.
set -u
. tests/cli/run.inc
need_pus 0 1
TP="$B/tests/progs/threadprog"
TO="$B/tests/progs/threadsof"
[ -x "$TP" ] && [ -x "$TO" ] || fail "test programs not built (make tests)"

# run ARGS...: pandia run -r 1 ARGS --json; threads[] into $T/threads
# (PRE, when set: the words to run pandia under)
run() {
	${PRE:-} "$P" run -r 1 --json "$@" >"$T/j" 2>"$T/err" ||
		{ cat "$T/err"; fail "pandia run $*"; }
	"$TO" "$T/j" >"$T/threads" || fail "threads[] of $*"
}

# no thread created: its main thread is the worker, on the first PU,
# and pandia says the command did not use the other PU
run --cpus 0,1 -- "$TP" --spin 150
cat "$T/threads" "$T/err"
[ "$(wc -l <"$T/threads")" -eq 1 ] || fail "one thread expected"
awk '$1 == 0 && $4 == 0 && $15 == 1 { ok = 1 } END { exit !ok }' \
	"$T/threads" || fail "the main thread: a worker on PU 0"
grep -q "warning: at most 1 worker thread at once for 2 listed PUs" \
	"$T/err" || fail "no warning about the unused PU"
# both causes said: a zstd given a small input runs one job at a time
# and honours {threads} all the same
grep -q "ignores {threads} and OMP_NUM_THREADS, or had too little work" \
	"$T/err" || fail "the warning names one cause only"

# hundreds of threads: every one accounted, the text table cut short
run --cpus 0,1 -- "$TP" --many 300
n=$(wc -l <"$T/threads")
[ "$n" -eq 301 ] || fail "300 threads and main: $n accounted"
awk '$1 < 0 || $6 < $5 { bad = 1 } END { exit bad }' "$T/threads" ||
	fail "a thread without an index or with end before start"
"$P" run -q -r 1 --no-warmup --cpus 0,1 -- "$TP" --many 300 >"$T/t" ||
	fail "text output of 300 threads"
grep -q "^  \.\.\. and 237 more (--json lists every thread)" "$T/t" ||
	{ tail -n 3 "$T/t"; fail "the text table is not cut at 64 rows"; }

# exits while two threads still spin: they are accounted up to the exit
run --cpus 0,1 -- "$TP" --exit-early
cat "$T/threads"
[ "$(wc -l <"$T/threads")" -eq 3 ] || fail "exit-early: 3 threads"
# runnable all along: on a CPU or waiting for one (a busy host gives a
# spinning thread less of the first, not less of the sum; a wait is
# counted once the thread gets a CPU, so the program runs 0.3 s: under
# a load of 6 a thread that had not yet run by 0.08 s looked idle)
awk '$1 > 0 && !($6 > 0.15 && $7 + $8 > 0.1 && $15 == 1) { bad = 1 }
     END { exit bad }' "$T/threads" ||
	fail "exit-early: the spinning threads' end and CPU time"
grep -q '"ended": false' "$T/j" && fail "exit-early: a thread not ended"

# sets its own affinity: pandia's pin was overridden, and it says so
run --cpus 0,1 -- "$TP" --setaffinity 1 --work 100
cat "$T/err"
grep -q '"overridden": 1' "$T/j" || fail "setaffinity: not counted"
grep -q "warning: the program set the affinity of 1 thread itself" \
	"$T/err" || fail "setaffinity: no warning"

# a helper that execs a worker: the shell's main thread, a helper by its
# role (dash/0, learned from the idle shells before it), is on the set
# until it execs threadprog, a worker, which pins itself to its PU; a
# reading of /proc from before the exec is no longer the thread's, and
# it is not taken for a thread off its PU (it was, in about half of
# these runs, when the program ran 20 ms and no sample came after it)
for i in 1 2 3; do
	run --cpus 0,1 -- sh -c 'for i in 1 2 3 4; do sh -c "sleep 0.05"
		done; "$0" --spin 100; sleep 0.25; exec "$0" --spin 20' "$TP"
	grep -q '"misplaced": 0' "$T/j" ||
		{ cat "$T/threads" "$T/err"; fail "exec'd worker: misplaced"; }
done

# an exec that fails: the thread goes back to its own PU, and nothing is
# said of a program without the library
cat >"$T/execfail.c" <<'SRC'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	cpu_set_t s;
	char *av[] = { "x", 0 };
	execv("/nonexistent", av);
	if (sched_getaffinity(0, sizeof(s), &s))
		return 1;
	fprintf(stderr, "after a failed exec: %d PU(s)\n", CPU_COUNT(&s));
	return 0;
}
SRC
${CC:-cc} -O2 -o "$T/execfail" "$T/execfail.c" || fail "cannot build execfail"
"$P" run -r 1 --no-warmup --show-output --cpus 1,0 -- "$T/execfail" \
	>"$T/j" 2>"$T/err" || { cat "$T/err"; fail "execfail"; }
grep -q "after a failed exec: 1 PU(s)" "$T/err" ||
	{ cat "$T/err"; fail "execfail: not back on its PU"; }
grep -q "did not load libpandia-pin.so" "$T/err" &&
	fail "execfail: taken for a program without the library"

# spawn PROG ARGS: posix_spawn of PROG 0.1 s in, waited for
cat >"$T/spawn.c" <<'SRC'
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv)
{
	pid_t pid;
	int st;
	usleep(100000);
	if (posix_spawn(&pid, argv[1], 0, 0, argv + 1, environ))
		return 1;
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ?
		WEXITSTATUS(st) : 1;
}
SRC
${CC:-cc} -O2 -o "$T/spawn" "$T/spawn.c" || fail "cannot build spawn"

# on_set LABEL PROG AFF HOW...: PROG, which does not load the library,
# started by each HOW (a shell's exec, a shell's fork, posix_spawn;
# path: env's execvp along PATH, script: a script whose interpreter it
# is, both $T/bin's) begins on both PUs (it writes how many it may use
# to AFF), counted and said, its two threads found in /proc on the set
on_set() {
	label=$1 prog=$2 aff=$3
	shift 3
	for how; do
		rm -f "$aff"
		case $how in
		script) run --cpus 0,1 -- sh -c 'sleep 0.1; exec "$0"' \
			"$T/bin/script" ;;
		path) PATH="$T/bin:$PATH" run --cpus 0,1 -- sh -c \
			'sleep 0.1; exec env static "$0"' "$aff" ;;
		exec) run --cpus 0,1 -- sh -c 'sleep 0.1; exec "$0" "$1"' \
			"$prog" "$aff" ;;
		fork) run --cpus 0,1 -- sh -c 'sleep 0.1; "$0" "$1"; true' \
			"$prog" "$aff" ;;
		spawn) run --cpus 0,1 -- "$T/spawn" "$prog" "$aff" ;;
		esac
		cat "$T/threads" "$T/err"
		[ "$(cat "$aff" 2>/dev/null)" = 2 ] ||
			fail "$label, $how: started on $(cat "$aff") PU(s), not 2"
		grep -q '"unpinned_processes": 1' "$T/j" ||
			fail "$label, $how: not counted as unpinned"
		w="($(basename "$prog")|script)"
		grep -Eq "warning: 1 process of the command \\($w\\) did not" \
			"$T/err" || fail "$label, $how: no warning"
		grep -q '"misplaced": 0' "$T/j" ||
			fail "$label, $how: a thread not where planned"
		grep -q '"unpinned_narrow": 0' "$T/j" ||
			fail "$label, $how: a thread on less than the set"
		# its two threads, both on the set, found in /proc
		pid=$(awk '$1 == -1 { print $2; exit }' "$T/threads")
		[ "$how" = exec ] && pid=$(awk 'NR == 1 { print $2 }' "$T/threads")
		n=$(awk -v p="$pid" '$2 == p && $4 == -1' "$T/threads" | wc -l)
		[ "$n" -eq 2 ] || fail "$label, $how: $n of its 2 threads found"
	done
}

# static_started: the static binary started by a dynamic program that
# the library pins (a wrapper script that execs it, a shell that forks
# first, posix_spawn): it starts on the whole set, not on its starter's
# one PU (profiler/shim/exec.c), and the runner finds its two threads
# in /proc and says that it could not pin them.  Each starts it 0.1 s
# in, after the runner's first look, and it runs 0.3 s, less than the
# second before the next: found because the library said it execs or
# spawns
static_started() {
	# a raw execve system call, which no library sees, after vfork
	# (Go's os/exec does as much: the process was never reported; the
	# runner's scan once a second finds it, the program running 1.5 s)
	# or fork (it was): the program starts where its starter was pinned
	# (each thread by its index: the starter, a waiting helper, is not
	# let onto the set), and pandia says so
	cat >"$T/rawexec.c" <<'SRC'
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv)
{
	int st;
	pid_t pid;
	/* after the runner's first look for processes without the
	   library: found by the one a second later */
	usleep(100000);
	pid = strcmp(argv[1], "vfork") ? fork() : vfork();
	if (pid == 0) {
		syscall(SYS_execve, argv[2], argv + 2, environ);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ?
		WEXITSTATUS(st) : 1;
}
SRC
	${CC:-cc} -O2 -o "$T/rawexec" "$T/rawexec.c" ||
		fail "cannot build rawexec"
	for how in vfork fork; do
		rm -f "$T/aff"
		run --pin threads --cpus 0,1 -- "$T/rawexec" $how "$T/static" \
			"$T/aff" 1.5
		cat "$T/threads" "$T/err"
		[ "$(cat "$T/aff" 2>/dev/null)" = 1 ] ||
			fail "static, $how and raw exec: on $(cat "$T/aff") PUs"
		grep -q "did not load libpandia-pin.so.*some were allowed on fewer" \
			"$T/err" || fail "static, $how and raw exec: not said"
		grep -q '"unpinned_narrow": 2' "$T/j" ||
			fail "static, $how and raw exec: not 2 threads narrow"
	done
	mkdir -p "$T/bin" && cp "$T/static" "$T/bin/static" ||
		fail "cannot copy static"
	printf '#!%s %s\n' "$T/static" "$T/aff" >"$T/bin/script" &&
		chmod +x "$T/bin/script" || fail "cannot write the script"
	on_set static "$T/static" "$T/aff" exec fork spawn path script
}

# a static binary: LD_PRELOAD cannot act; it runs on the set, said
cat >"$T/static.c" <<'SRC'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double secs = 0.3;
static void *spin(void *a)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < secs);
	return a;
}
int main(int argc, char **argv)
{
	pthread_t t;
	cpu_set_t s;
	/* with a second argument: spin that many seconds */
	if (argc > 2 && atof(argv[2]) > 0)
		secs = atof(argv[2]);
	/* with an argument: the PUs it may run on, counted there */
	if (argc > 1 && !sched_getaffinity(0, sizeof(s), &s)) {
		FILE *f = fopen(argv[1], "w");
		if (f) {
			fprintf(f, "%d\n", CPU_COUNT(&s));
			fclose(f);
		}
	}
	pthread_create(&t, 0, spin, 0);
	spin(0);
	return pthread_join(t, 0);
}
SRC
if ${CC:-cc} -static -O2 -pthread -o "$T/static" "$T/static.c" 2>"$T/cc"; then
	run --cpus 0,1 -- "$T/static"
	cat "$T/threads" "$T/err"
	grep -q '"static": true' "$T/j" || fail "static: not recognised"
	grep -q "warning: '.*static' is statically linked: LD_PRELOAD cannot" \
		"$T/err" || fail "static: no warning"
	grep -q '"misplaced": 0' "$T/j" || fail "static: not on the set"
	awk '$4 != -1 || $1 != -1 { bad = 1 } END { exit bad }' \
		"$T/threads" || fail "static: a thread with a PU or index"
	[ "$(wc -l <"$T/threads")" -eq 2 ] ||
		fail "static: its two threads, from /proc"
	static_started
else
	cat "$T/cc"
	echo "no static C library: the static binary case not tried"
fi

# a set-user-ID program of another owner, which the loader starts in
# secure-execution mode (LD_PRELOAD's paths ignored), started by a
# shell's exec, a shell's fork, posix_spawn: on the set and said, as a
# static one (the program above, built dynamic, owned by nobody; root
# only, and not on a nosuid mount)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 &&
   ! findmnt -no OPTIONS -T "$T" | grep -q nosuid; then
	# nobody writes its count there: $T (mode 700) let through
	chmod 711 "$T" && mkdir -p "$T/su" && chmod 777 "$T/su" &&
		${CC:-cc} -O2 -pthread -o "$T/su/suid" "$T/static.c" &&
		chown nobody "$T/su/suid" && chmod 4755 "$T/su/suid" ||
		fail "cannot make a set-user-ID program"
	on_set set-user-ID "$T/su/suid" "$T/su/aff" exec fork spawn
	# the same, its starter allowed to run it and not to read it (mode
	# 4711; root without the capabilities that read any file): judged
	# by its mode bits (exec.c's secure_path())
	chmod 4711 "$T/su/suid" || fail "cannot make the program unreadable"
	PRE="setpriv --inh-caps=-dac_override,-dac_read_search"
	PRE="$PRE --bounding-set=-dac_override,-dac_read_search"
	if command -v setpriv >/dev/null &&
	   ! $PRE cat "$T/su/suid" >/dev/null 2>&1; then
		on_set "set-user-ID, unreadable" "$T/su/suid" "$T/su/aff" \
			exec fork spawn
	else
		echo "no setpriv that drops root's reading: mode 4711 not tried"
	fi
	PRE=
else
	echo "not root, or $T on a nosuid mount: set-user-ID not tried"
fi
exit 0
