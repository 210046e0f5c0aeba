/*
 * exec.c - a program the command starts, interposed: before execve (and
 * the exec functions that glibc does not route through it) and around
 * posix_spawn, where the program will not load the library (a static
 * one, a set-user-ID one, or its environment without the library in
 * LD_PRELOAD), the calling thread is let onto the whole set of listed
 * PUs, so that the program begins there: it cannot be pinned thread by
 * thread and runs on the set, as 'pandia run --pin set' runs a static
 * command, instead of on the one PU its starter was pinned to.  A
 * dynamic program that loads the library takes its own position
 * (pin.c: the same index after an exec, the next one after a spawn),
 * its starter left as it was.  The runner finds such a process in
 * /proc and counts its threads (profiler/run/procs.c), told to look by
 * the report's "exec" and "spawned" lines.  A failed exec puts the
 * thread back on its PU.  A program the caller may run but not read
 * (mode 4711) is judged by its mode bits alone.
 *
 * Nothing here allocates, takes a lock or looks a symbol up (resolve()
 * found them at load): the caller may be the child of a vfork, sharing
 * its parent's memory.
 */
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>

#include "common/elfstatic.h"
#include "profiler/shim/shim.h"

extern char **environ;

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *,
			const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[],
			char *const[]);

/* the argv of execl and its kind, at most this long */
#define EXEC_MAX_ARGS 4096

static execve_fn real_execve;
static execve_fn real_execvpe;
static fexecve_fn real_fexecve;
static spawn_fn real_spawn, real_spawnp;
static char self_path[PATH_MAX];	/* this library's file, as loaded */

void resolve_exec(void)
{
	Dl_info di;

#define REAL(var, name) (var = (__typeof__(var))dlsym(RTLD_NEXT, name))
	REAL(real_execve, "execve");
	REAL(real_execvpe, "execvpe");
	REAL(real_fexecve, "fexecve");
	REAL(real_spawn, "posix_spawn");
	REAL(real_spawnp, "posix_spawnp");
#undef REAL
	if (dladdr((void *)resolve_exec, &di) && di.dli_fname &&
	    strlen(di.dli_fname) < sizeof(self_path))
		memcpy(self_path, di.dli_fname, strlen(di.dli_fname) + 1);
}

/*
 * Whether the program of ST (the file on FD, or at PATH when FD < 0)
 * starts in secure-execution mode (AT_SECURE: set-user-ID or
 * set-group-ID to other ids than the caller's real ones, or file
 * capabilities for a caller other than root), where the loader ignores
 * an LD_PRELOAD path with a '/': it will not load the library.  Not on
 * a nosuid mount, nor under no_new_privs: the bits do nothing there.
 */
static int secure(const struct stat *st, int fd, const char *path)
{
	struct statfs fs;
	uid_t u;
	gid_t g;

	if (!S_ISREG(st->st_mode))
		return 0;
	u = st->st_mode & S_ISUID ? st->st_uid : geteuid();
	g = st->st_mode & S_ISGID ? st->st_gid : getegid();
	if (u == getuid() && g == getgid() &&
	    (getuid() == 0 ||
	     (fd >= 0 ? fgetxattr(fd, "security.capability", NULL, 0) :
	      getxattr(path, "security.capability", NULL, 0)) <= 0))
		return 0;
	/* fstatfs: glibc's fstatvfs may read /proc/mounts, allocating */
	if (!(fd >= 0 ? fstatfs(fd, &fs) : statfs(path, &fs)) &&
	    (fs.f_flags & ST_NOSUID))
		return 0;
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
}

static int secure_fd(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && secure(&st, fd, NULL);
}

/*
 * A program the caller may run but not read (mode 4711): whether it is
 * secure, from its path (whether it is static cannot be read).
 */
static int secure_path(const char *path)
{
	struct stat st;

	return !stat(path, &st) && secure(&st, -1, path);
}

/* whether the program on FD will not load the library: static, or secure */
static int bare_fd(int fd)
{
	return elf_fd_is_static(fd) || secure_fd(fd);
}

/*
 * Whether the program at PATH will not load the library (bare_fd), or
 * is a script ("#!") whose interpreter will not (one level; a script's
 * own set-user-ID bit does nothing).
 */
static int bare_file(const char *path, int depth)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), bare;

	if (fd < 0)
		return errno == EACCES && secure_path(path);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 3 || buf[0] != '#' || buf[1] != '!') {
		bare = bare_fd(fd);
		close(fd);
		return bare;
	}
	close(fd);
	if (depth > 0)
		return 0;
	buf[n] = '\0';
	{
		char *p = buf + 2, *e;

		p += strspn(p, " \t");
		e = p + strcspn(p, " \t\n");
		*e = '\0';
		return *p ? bare_file(p, depth + 1) : 0;
	}
}

/*
 * Whether FILE, found along PATH when SEARCH and it has no '/', is a
 * program that will not load the library (looked for without
 * allocating).
 */
static int bare_program(const char *file, int search)
{
	char buf[PATH_MAX];
	const char *dirs, *d, *e;

	if (!file || !*file)
		return 0;
	if (!search || strchr(file, '/'))
		return bare_file(file, 0);
	dirs = getenv("PATH");
	for (d = dirs && *dirs ? dirs : "/usr/local/bin:/usr/bin:/bin"; ;
	     d = e + 1) {
		size_t dl, fl = strlen(file);

		e = strchr(d, ':');
		dl = e ? (size_t)(e - d) : strlen(d);
		if (dl + fl + 2 <= sizeof(buf)) {
			memcpy(buf, dl ? d : ".", dl ? dl : 1);
			dl = dl ? dl : 1;
			buf[dl] = '/';
			memcpy(buf + dl + 1, file, fl + 1);
			if (!access(buf, X_OK))
				return bare_file(buf, 0);
		}
		if (!e)
			return 0;
	}
}

/* whether ENVP (environ when NULL) preloads this library */
static int preloaded(char *const envp[])
{
	char *const *v = envp ? envp : environ;

	if (!self_path[0])
		return 1;
	for (; v && *v; v++)
		if (!strncmp(*v, "LD_PRELOAD=", 11) && strstr(*v, self_path))
			return 1;
	return 0;
}

/*
 * Whether the program an exec or spawn starts will not load the
 * library, so that it must start on the set: static, set-user-ID (or
 * else secure: bare_fd), or its environment ENVP without the library
 * in LD_PRELOAD.  A dynamic one
 * that loads it pins itself, and its starter's thread is left where it
 * is (a reading of its affinity while it loads shows its own PU).
 */
static int needs_set(const char *file, int search, char *const envp[])
{
	return pin_n > 0 && (!preloaded(envp) || bare_program(file, search));
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

/* before an exec of NAME: onto the set (WIDE), said in the report */
static void exec_begin(const char *name, int wide)
{
	if (wide)
		place(1);
	report_exec(name);
}

/* after one that failed with RC: back on its PU, errno kept */
static int exec_end(int rc, int wide)
{
	int e = errno;

	report_exec("-");
	if (wide)
		place(0);
	errno = e;
	return rc;
}

/*
 * REAL (execve, or execvpe with SEARCH along PATH) of FILE, the thread
 * let onto the set first where the program will not load the library.
 */
static int exec_with(execve_fn real, int search, const char *file,
		     char *const argv[], char *const envp[])
{
	int wide;

	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	wide = needs_set(file, search, envp);
	exec_begin(file, wide);
	return exec_end(real(file, argv, envp), wide);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_with(real_execve, 0, path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_with(real_execvpe, 1, file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	int wide;

	if (!real_fexecve) {
		errno = ENOSYS;
		return -1;
	}
	wide = pin_n > 0 && (!preloaded(envp) || bare_fd(fd));
	exec_begin(argv[0] ? argv[0] : "?", wide);
	return exec_end(real_fexecve(fd, argv, envp), wide);
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

/*
 * posix_spawn or posix_spawnp (REAL, SEARCH along PATH): a child that
 * will not load the library starts on the set.
 */
static int spawn(spawn_fn real, int search, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	int rc, wide;

	if (!real)
		return ENOSYS;
	wide = needs_set(path, search, envp);
	if (wide)
		place(1);
	rc = real(pid, path, fa, attr, argv, envp);
	if (wide)
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
	return spawn(real_spawn, 0, pid, path, fa, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	return spawn(real_spawnp, 1, pid, file, fa, attr, argv, envp);
}
