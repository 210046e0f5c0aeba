/*
 * testkit.h - what the Check suites share: the one main that runs a
 * program's suites, error capture, the bad-file driver, temporary
 * files and directories, and described machines.  Every helper that
 * can fail fails the running test (ck_assert) with the reason.
 */
#ifndef TESTS_LIB_TESTKIT_H
#define TESTS_LIB_TESTKIT_H

#include <check.h>
#include <stdbool.h>

#include "common/error.h"
#include "common/workload.h"
#include "tests/lib/rng.h"

struct dirent;
struct pandia_machine;

/*
 * Every check_*.c defines tk_suites: the functions that build its
 * suites, ending with NULL.  The kit's main (tests/lib/main.c) runs
 * them all in one runner and prints Check's summary line
 * "NN%: Checks: N, Failures: F, Errors: E".
 */
typedef Suite *tk_suite_fn(void);
extern tk_suite_fn *const tk_suites[];

/* The tag of the test cases that time this host (see tests/README.md). */
#define TK_TIMING "timing"

/*
 * Say that the running timing case found the host too busy to tell:
 * prints "tk-skip: WHY" on stderr, which scripts/run-tests counts as a
 * skip instead of a pass.  The case then returns without failing; what
 * it saw wrong that noise cannot explain it must still fail on.
 */
void tk_skip(const char *why);

/* ---- errors --------------------------------------------------------- */

/*
 * The line perr_print() writes for ERR ("pandia: FILE:LINE:COL: TEXT"
 * and a newline), as a new string the caller frees.
 */
char *tk_error_line(const struct pandia_error *err);

/*
 * A loader under test: loads PATH, frees what it loaded and returns
 * whether it was accepted; when refused, the reason is in *err.
 */
typedef bool tk_loader(const char *path, struct pandia_error *err);

/*
 * The bad-file driver: every DIR/NAME.json is refused by LOAD with
 * exactly the message in DIR/NAME.expect (the file, line, column and
 * text perr_print() writes).  DIR holds at least MIN of them.
 */
void tk_bad_dir(const char *dir, int min, tk_loader *load);

/* scandir()'s filter of the *.json files. */
int tk_is_json(const struct dirent *d);

/* ---- temporary files ------------------------------------------------ */

/*
 * A new empty directory /tmp/pandia-NAME-XXXXXX; the caller removes
 * it with tk_tmpdir_remove().
 */
char *tk_tmpdir(const char *name);

/*
 * Remove DIR, made by tk_tmpdir(), with the files directly in it, and
 * free the string.  NULL is a no-op.
 */
void tk_tmpdir_remove(char *dir);

/*
 * A new file /tmp/pandia-NAME-XXXXXX holding TEXT; its path, a new
 * string: the caller unlinks the file and frees the path.
 */
char *tk_tmpfile(const char *name, const char *text);

/* ---- fixtures ------------------------------------------------------- */

/*
 * A new machine from the hwloc topology TOPO (a synthetic string or an
 * XML file; NULL is this host) with the assumptions file ASSUME applied
 * (none when NULL).  The caller frees it with machine_free().
 */
struct pandia_machine *tk_machine(const char *topo, const char *assume);

/*
 * Set on M the figures a description of the 2-vCPU PVM guest read
 * (2026-11-29): its L3 array of 127 MiB (133169152 bytes) at 31.7 GB/s
 * a core, DRAM at 32.8 GB/s a core: a level read at DRAM's rate.
 */
void tk_pvm_figures(struct pandia_machine *m);

/*
 * The Pandia model's time for the placement PUS (N m->pus indexes) of
 * machine M with the memory policy KIND and parameters PRM; with BOTT,
 * its bottleneck's name into BOTT (SIZE bytes).
 */
struct model_params;
double tk_model_time(const struct pandia_machine *m, enum mem_kind kind,
		     const struct model_params *prm, const int *pus, int n,
		     char *bott, size_t size);

/*
 * Counter NAME of run ID of W set to V (added where it has none); the
 * run must exist.
 */
struct pandia_workload;
void tk_set_counter(struct pandia_workload *w, const char *id,
		    const char *name, double v);

/*
 * A NULL-terminated argv of A, B and C (each may be NULL to end it
 * early), in a static array: valid until the next call.
 */
char **tk_argv(const char *a, const char *b, const char *c);

#endif
