# pandia profile of a command that starts a static program (a shell
# running it, as a wrapper script would): the program cannot load the
# pinning library, so its threads run on each run's PUs as a set and
# are found in /proc; the profile says so, and does not take the shell,
# which created no thread, for a command that ignores {threads}.
. "$(dirname "$0")/profile.inc"
need_pus 0 1

cat >"$T/spin.c" <<'SRC'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
/* PANDIA_THREADS threads, each spinning for 0.15 s */
static void *spin(void *a)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 1.5e8);
	return a;
}
int main(void)
{
	const char *e = getenv("PANDIA_THREADS");
	int n = e ? atoi(e) : 1, i;
	pthread_t t[16];
	if (n < 1 || n > 16)
		n = 1;
	for (i = 1; i < n; i++)
		pthread_create(&t[i], 0, spin, 0);
	spin(0);
	for (i = 1; i < n; i++)
		pthread_join(t[i], 0);
	return 0;
}
SRC
${CC:-cc} -static -O2 -pthread -o "$T/spin" "$T/spin.c" 2>"$T/cc" ||
	skip "no static C library to build a static program with"

"$P" machine -q --assume tests/data/assume-full.json -o "$T/m.json" \
	>/dev/null 2>&1 || fail "cannot describe this host's topology"
"$P" profile -q -m "$T/m.json" --force --quick -r 1 --keep-unreliable \
	-o "$T/w.json" -- sh -c '"$0"; true' "$T/spin" 2>"$T/err" ||
	{ cat "$T/err"; fail "pandia profile of a shell running it"; }
cat "$T/err"
grep -q "warning: run 2: 1 process of the command (spin) did not load" \
	"$T/err" || fail "the static program is not said to run unpinned"
grep -q "created none" "$T/err" &&
	fail "the shell taken for a command that ignores {threads}"
exit 0
