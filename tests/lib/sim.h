/*
 * sim.h - what the simulated programs (tests/progs: simworkload,
 * mechsim) share besides the noise (rng.h): dying with a message, and
 * the PUs of a placement.  Nothing here needs Check.
 */
#ifndef TESTS_LIB_SIM_H
#define TESTS_LIB_SIM_H

struct pandia_machine;

/*
 * Print "PROGRAM: MESSAGE" on stderr, PROGRAM this program's name
 * (program_invocation_short_name), and exit 1.
 */
void tk_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * The m->pus indexes of the OS indexes in LIST, a new array the caller
 * frees; NULL with *n = 0 for NULL, "" or "none".  A bad list, or a PU
 * not in M: tk_die() says which.
 */
int *tk_pus_of(const struct pandia_machine *m, const char *list, int *n);

#endif
