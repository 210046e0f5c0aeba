/*
 * shellword.h - a command's words for /bin/sh: the placeholders
 * ({cpus}, {threads}, {size} ...) filled in and each word quoted
 * where it needs it.  'pandia run' executes what these make, and
 * 'pandia predict' prints it, so the two are one text.
 */
#ifndef PANDIA_SHELLWORD_H
#define PANDIA_SHELLWORD_H

#include <stddef.h>

/* Values of the placeholders. */
struct shell_vars {
	const char *cpus;	/* {cpus}: "1,0,1" */
	int threads;		/* {threads} */
	const char *stress_cpus;	/* {stress_cpus}: "0,1" or "none" */
	const char *stress_kind;	/* {stress_kind}: "cpu,bw:L2", "none" */
	const char *cmd;	/* {cmd}: the command, shell-quoted; NULL:
				   not replaced */
	const char *size;	/* {size}: "2500"; NULL: not replaced */
	const char *numa_maps;	/* {numa_maps}: a file for the pages'
				   placement; NULL: not replaced */
};

/*
 * S with each known placeholder replaced, in one pass (a value is not
 * searched again); anything else in braces (an awk program, a shell
 * brace group) is left as it is.  New string.
 */
char *shell_subst(const char *s, const struct shell_vars *v);

/*
 * The same for a runner template, a /bin/sh command line: each value
 * is escaped for the quoting it lands in, so that it stays the words
 * it was whatever it holds ($(...), backquotes, quotes, ';', newlines,
 * globs): as it is outside quotes ({cmd} is already quoted word by
 * word), with each ' made '\'' inside single quotes, and with \ $ `
 * and " escaped inside double quotes.  Inside single quotes a double
 * quote opens an inner one (sh -c '... "{cmd}" ...', or eval): the
 * value is escaped for both.  Returns NULL with *why set (a static
 * text) when the template's quotes do not close.  New string.
 */
char *shell_subst_template(const char *s, const struct shell_vars *v,
			   const char **why);

/*
 * The first text of S that looks like a placeholder but names none
 * ("{cpu}", "{thread}": a brace, lower-case letters or '_', a brace;
 * not "${name}"), its length in *LEN; NULL when there is none.  Such a
 * text is left as it is, and is most often a misspelt placeholder.
 */
const char *shell_unknown_placeholder(const char *s, size_t *len);

/* The placeholders' names, for messages: "{cpus}, {threads}, ... and
   {numa_maps}". */
const char *shell_placeholders(void);

/*
 * {size}'s text for SIZE into BUF (SIZE bytes at least 32): the
 * shortest of %.15g and %.17g that reads back as the same number.
 * Returns BUF.
 */
const char *shell_size(double size, char *buf, size_t n);

/*
 * S quoted for /bin/sh where it needs it: as it is when every
 * character is a letter, a digit or one of "_-+=./,:@%^", else in
 * single quotes.  New string.
 */
char *shell_quote(const char *s);

/* ARGV's words (NULL-terminated) quoted and joined by spaces (new). */
char *shell_join(char *const *argv);

/* The same of ARGV's first N words (a workload's recorded command). */
char *shell_join_n(char *const *argv, int n);

#endif
