/*
 * main.c - the one main of every check_* program: the suites the
 * program lists in tk_suites, run in one runner.  CK_ENV lets
 * CK_VERBOSITY choose the output (Check's normal summary line when it
 * is unset), and Check reads CK_INCLUDE_TAGS / CK_EXCLUDE_TAGS itself:
 * scripts/run-tests runs the cases tagged TK_TIMING apart, and counts
 * a case that called tk_skip() as skipped.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/lib/testkit.h"
#include "predictor/models.h"

void tk_skip(const char *why)
{
	fprintf(stderr, "tk-skip: %s\n", why);
	fflush(stderr);
}

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int i, failed;

	models_install();
	for (i = 0; tk_suites[i]; i++)
		srunner_add_suite(sr, tk_suites[i]());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
