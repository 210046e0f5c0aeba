/*
 * protocol.h - what the runner ('pandia run', profiler/run/) and the
 * pinning library it preloads (libpandia-pin.so, profiler/shim/) tell
 * each other: the environment the runner sets and the report the
 * library writes.  The library is built without libpandia, so this
 * header holds nothing but names and numbers.
 *
 * Environment (set by the runner for the command):
 *   PANDIA_PIN_CPUS="1,0,1"  the placement: one PU per position
 *   PANDIA_PIN_SKIP="0,3-4"  creation indexes that are helpers
 *   PANDIA_PIN_HELPERS       helpers by role, one "PROGRAM/LOCAL" a
 *                            line: the LOCAL-th thread (0: main) of
 *                            every process running PROGRAM
 *   PANDIA_PIN_FLOAT=1       pin nothing to a PU (the accounting run)
 *   PANDIA_PIN_SHARED        a file shared by every process of the
 *                            command: the index counter, the positions
 *                            taken, the processes seen (the library's
 *                            own layout; the runner only empties it
 *                            before each run)
 *   PANDIA_PIN_REPORT        the report file, lines appended
 *
 * Report lines, each written at once (at most PIN_LINE bytes):
 *   start PID TID INDEX LOCAL CPU T FLAGS ALLOWED ROUTINE PROGRAM
 *   end PID TID T CPU_NS RUNQ_NS MUTEX COND BARRIER JOIN SEM
 *   affinity PID TID LIST
 *   exec PID NAME
 *   spawned PID
 * T in ns of CLOCK_MONOTONIC, CPU -1 for the set, FLAGS letters
 * (PIN_FLAG_*, or "-" for none), ALLOWED the affinity read back as a
 * cpulist, CPU_NS and RUNQ_NS -1 when schedstat cannot be read, the
 * waits (PIN_BLOCK_KINDS of them, in enum pin_block's order) in ns;
 * "affinity" says the program set thread TID's affinity itself (-1: a
 * thread the library does not know).  ROUTINE is the thread's start
 * routine as MODULE+0xOFFSET ("main" for a process's main thread), the
 * same in every run of the program.  Ids are those of the runner's
 * PID namespace.  "exec" is written before process PID execs the
 * program NAME (its file's base name), and again with NAME "-" when
 * that failed: a process whose last exec line is not followed by a
 * "start" of its main thread runs a program that did not load the
 * library (static, set-user-ID, or started without LD_PRELOAD).
 * "spawned" says that process PID has just started a child by
 * posix_spawn, which may be such a program.
 */
#ifndef PANDIA_SHIM_PROTOCOL_H
#define PANDIA_SHIM_PROTOCOL_H

#define PIN_ENV_CPUS	"PANDIA_PIN_CPUS"	/* "1,0,1" */
#define PIN_ENV_SKIP	"PANDIA_PIN_SKIP"	/* helpers by index */
#define PIN_ENV_HELPERS	"PANDIA_PIN_HELPERS"	/* by role */
#define PIN_ENV_FLOAT	"PANDIA_PIN_FLOAT"	/* "1": pin nothing */
#define PIN_ENV_SHARED	"PANDIA_PIN_SHARED"	/* shared state file */
#define PIN_ENV_REPORT	"PANDIA_PIN_REPORT"	/* report file */

#define PIN_LINE	8192	/* a report line's bytes, newline included */

/* FLAGS of a "start" line: one letter each, as strings to paste */
#define PIN_FLAG_MAIN		"m"	/* a process's main thread */
#define PIN_FLAG_FORKED		"f"	/* ... started by fork */
#define PIN_FLAG_WRAPPED	"w"	/* every position was taken */
#define PIN_FLAG_KEPT		"k"	/* kept its creator's affinity */

/* the waits of an "end" line, in its order */
enum pin_block {
	PIN_BLOCK_MUTEX,
	PIN_BLOCK_COND,
	PIN_BLOCK_BARRIER,
	PIN_BLOCK_JOIN,
	PIN_BLOCK_SEM,
	PIN_BLOCK_KINDS
};

#endif
