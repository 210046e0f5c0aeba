/*
 * exec.c - a program the command starts, interposed: before execve (and
 * the exec functions that glibc does not route through it) and around
 * posix_spawn, the calling thread is let onto the whole set of listed
 * PUs, so that what it starts begins there.  A dynamic program loads
 * the library again and takes its own position (pin.c: the same index
 * after an exec, the next one after a spawn); a static one, or one
 * started without LD_PRELOAD, cannot be pinned thread by thread and
 * runs on the set, as 'pandia run --pin set' runs a static command,
 * instead of on the one PU its starter was pinned to.  The runner finds
 * such a process in /proc and counts its threads (profiler/run/
 * procs.c), told to look by the report's "exec" and "spawned" lines.
 * A failed exec puts the thread back on its PU.
 *
 * Nothing here allocates, takes a lock or looks a symbol up (resolve()
 * found them at load): the caller may be the child of a vfork, sharing
 * its parent's memory.
 */
#include <spawn.h>
#include <stdarg.h>

#include "profiler/shim/shim.h"

extern char **environ;

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execvpe_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *,
			const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[],
			char *const[]);

/* the argv of execl and its kind, at most this long */
#define EXEC_MAX_ARGS 4096

static execve_fn real_execve;
static execvpe_fn real_execvpe;
static fexecve_fn real_fexecve;
static spawn_fn real_spawn, real_spawnp;

void resolve_exec(void)
{
#define REAL(var, name) (var = (__typeof__(var))dlsym(RTLD_NEXT, name))
	REAL(real_execve, "execve");
	REAL(real_execvpe, "execvpe");
	REAL(real_fexecve, "fexecve");
	REAL(real_spawn, "posix_spawn");
	REAL(real_spawnp, "posix_spawnp");
#undef REAL
}

/*
 * The report's "exec PID NAME" before an exec of PATH ('-' for NAME:
 * the exec failed, the process goes on as it was).  A process whose
 * last exec line no "start" of its main thread follows runs a program
 * without the library.
 */
static void report_exec(const char *path)
{
	struct line l = { .len = 0 };
	const char *b, *p;

	if (pin_n < 1)
		return;
	b = path ? strrchr(path, '/') : NULL;
	b = b ? b + 1 : path && *path ? path : "?";
	put_str(&l, "exec ");
	put_int(&l, getpid_());
	put_str(&l, " ");
	for (p = b; *p && l.len < 200; p++)
		l.s[l.len++] = *p == ' ' || *p == '\n' ? '_' : *p;
	emit(&l);
}

/*
 * The report's "spawned PID": process PID started a child by
 * posix_spawn (the child's own id is of this process's PID namespace,
 * which may not be the runner's: not given).
 */
static void report_spawned(void)
{
	struct line l = { .len = 0 };

	if (pin_n < 1)
		return;
	put_str(&l, "spawned ");
	put_int(&l, getpid_());
	emit(&l);
}

/*
 * This thread's affinity: the set (WIDE) or back to its own PU, without
 * allocating.  Not for a thread the library does not know, nor one
 * whose creator chose its affinity.
 */
static void place(int wide)
{
	unsigned long set[PIN_MAX_CPUS / (8 * sizeof(unsigned long))];
	const struct pin_rec *r = self_rec;
	int cpu;

	if (pin_n < 1 || pin_float || !r || r->keep)
		return;
	cpu = slot_cpu(r->slot);
	if (wide || cpu < 0) {
		syscall(SYS_sched_setaffinity, 0, pin_setsize, pin_union);
		return;
	}
	memset(set, 0, sizeof(set));
	set[(size_t)cpu / (8 * sizeof(unsigned long))] |=
		1UL << ((size_t)cpu % (8 * sizeof(unsigned long)));
	syscall(SYS_sched_setaffinity, 0, pin_setsize, (cpu_set_t *)set);
}

/* before an exec of NAME: onto the set, said in the report */
static void exec_begin(const char *name)
{
	place(1);
	report_exec(name);
}

/* after one that failed with RC: back on its PU, errno kept */
static int exec_end(int rc)
{
	int e = errno;

	report_exec("-");
	place(0);
	errno = e;
	return rc;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	if (!real_execve) {
		errno = ENOSYS;
		return -1;
	}
	exec_begin(path);
	return exec_end(real_execve(path, argv, envp));
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!real_execvpe) {
		errno = ENOSYS;
		return -1;
	}
	exec_begin(file);
	return exec_end(real_execvpe(file, argv, envp));
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (!real_fexecve) {
		errno = ENOSYS;
		return -1;
	}
	exec_begin(argv[0] ? argv[0] : "?");
	return exec_end(real_fexecve(fd, argv, envp));
}

/*
 * execl's arguments into V (at most EXEC_MAX_ARGS, the NULL included),
 * and, when ENVP, the environment after them.  -1 (E2BIG) when longer.
 */
static int gather(const char *arg, va_list ap, char **v, char ***envp)
{
	int n = 0;

	v[n++] = (char *)arg;
	while (arg) {
		if (n >= EXEC_MAX_ARGS) {
			errno = E2BIG;
			return -1;
		}
		arg = va_arg(ap, const char *);
		v[n++] = (char *)arg;
	}
	if (envp)
		*envp = va_arg(ap, char **);
	return 0;
}

int execl(const char *path, const char *arg, ...)
{
	char *v[EXEC_MAX_ARGS];
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = gather(arg, ap, v, NULL);
	va_end(ap);
	return rc < 0 ? -1 : execve(path, v, environ);
}

int execle(const char *path, const char *arg, ...)
{
	char *v[EXEC_MAX_ARGS], **envp = NULL;
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = gather(arg, ap, v, &envp);
	va_end(ap);
	return rc < 0 ? -1 : execve(path, v, envp);
}

int execlp(const char *file, const char *arg, ...)
{
	char *v[EXEC_MAX_ARGS];
	va_list ap;
	int rc;

	va_start(ap, arg);
	rc = gather(arg, ap, v, NULL);
	va_end(ap);
	return rc < 0 ? -1 : execvpe(file, v, environ);
}

/* posix_spawn or posix_spawnp (REAL): the child starts on the set */
static int spawn(spawn_fn real, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	int rc;

	if (!real)
		return ENOSYS;
	place(1);
	rc = real(pid, path, fa, attr, argv, envp);
	place(0);
	if (!rc)
		report_spawned();
	return rc;
}

int posix_spawn(pid_t *pid, const char *path,
		const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *attr, char *const argv[],
		char *const envp[])
{
	return spawn(real_spawn, pid, path, fa, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	return spawn(real_spawnp, pid, file, fa, attr, argv, envp);
}
