/*
 * pandia.c - the pandia command: a table of subcommands (builtin/).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "predictor/models.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
};

static const struct cmd commands[] = {
	{ "machine", cmd_machine, usage_machine,
	  "measure this host (or describe another) once" },
	{ "run", cmd_run, usage_run,
	  "run a command at a placement, timed" },
	{ "profile", cmd_profile, usage_profile,
	  "profile a workload in six pinned runs" },
	{ "predict", cmd_predict, usage_predict,
	  "predict and rank every placement" },
	{ "validate", cmd_validate, usage_validate,
	  "measure placements against their predictions" },
	{ "tune", cmd_tune, usage_tune,
	  "measure the few best candidates, report the best" },
	{ "extrapolate", cmd_extrapolate, usage_extrapolate,
	  "predict scaling past the cores measured (ESTIMA)" },
	{ "cpus", cmd_cpus, usage_cpus,
	  "the OS PU list a CPU expression means" },
	{ "explain", cmd_explain, usage_explain,
	  "where the speedup goes: measured and predicted stacks" },
};

static const char usage_main[] =
"usage: pandia [--version] [--help] COMMAND [ARGS]\n"
"\n"
"pandia tells you how many threads to run a parallel in-memory workload\n"
"with, and on which hardware threads (PUs).\n"
"\n"
"commands:\n";

static void print_main_usage(FILE *out)
{
	size_t i;

	fputs(usage_main, out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'pandia help COMMAND' or 'pandia COMMAND --help' describes "
	      "one command;\n'man pandia' describes them all.\n", out);
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

const char *pandia_exe_dir(void)
{
	static char dir[PATH_MAX];
	char path[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		return ".";
	path[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(path));
	return dir;
}

/* --help or -h among the options (before "--") */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	models_install();
	usage_install_report();
	if (argc < 2) {
		print_main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("pandia %s\n", PANDIA_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_main_usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			print_main_usage(stdout);
			return finish_stdout(0);
		}
		c = find_cmd(argv[2]);
		if (!c) {
			error("'%s' is not a pandia command; see "
			      "'pandia --help'", argv[2]);
			return 2;
		}
		fputs(c->usage, stdout);
		return finish_stdout(0);
	}
	c = find_cmd(argv[1]);
	if (!c) {
		error("'%s' is not a pandia command; see 'pandia --help'",
		      argv[1]);
		return 2;
	}
	if (wants_help(argc - 1, argv + 1)) {
		fputs(c->usage, stdout);
		return finish_stdout(0);
	}
	return finish_stdout(c->fn(argc - 1, argv + 1));
}
