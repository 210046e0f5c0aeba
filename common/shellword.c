/*
 * shellword.c - placeholders and quoting for /bin/sh (shellword.h).
 */
#include "common/shellword.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/util.h"

/* every placeholder, in the order of struct shell_vars */
static const char *const names[] = {
	"{cpus}", "{threads}", "{stress_cpus}", "{stress_kind}", "{cmd}",
	"{size}", "{numa_maps}",
};

/* the placeholder at S, if one with a value: its value, *len its length */
static const char *placeholder(const char *s, const struct shell_vars *v,
			       const char *num, size_t *len)
{
	const char *vals[] = {
		v->cpus, num, v->stress_cpus, v->stress_kind, v->cmd, v->size,
		v->numa_maps,
	};
	size_t i, n;

	if (*s != '{')
		return NULL;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = strlen(names[i]);
		if (vals[i] && !strncmp(s, names[i], n)) {
			*len = n;
			return vals[i];
		}
	}
	return NULL;
}

/* quoting contexts of a /bin/sh line */
enum quoting { Q_NONE, Q_SINGLE, Q_DOUBLE };

/* VAL escaped for the quoting Q (new string) */
static char *escape_for(const char *val, enum quoting q)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_printf(&b, "%s", "");
	for (; *val; val++) {
		if (q == Q_DOUBLE && strchr("\\$`\"", *val))
			strbuf_addc(&b, '\\');
		if (q == Q_SINGLE && *val == '\'')
			strbuf_printf(&b, "'\\''");
		else
			strbuf_addc(&b, *val);
	}
	return b.s;
}

/* VAL appended to B for the quoting Q, with INNER (Q_NONE: none) the
   one opened inside it for the shell that Q's text goes to */
static void add_escaped(struct strbuf *b, const char *val, enum quoting q,
			enum quoting inner)
{
	char *in = escape_for(val, inner), *out = escape_for(in, q);

	strbuf_printf(b, "%s", out);
	free(in);
	free(out);
}

/* the other quote: the one that opens an inner level inside Q */
static char inner_quote(enum quoting q)
{
	return q == Q_SINGLE ? '"' : '\'';
}

static char *subst(const char *s, const struct shell_vars *v, bool sh,
		   const char **why)
{
	struct strbuf b = STRBUF_INIT;
	enum quoting q = Q_NONE, inner = Q_NONE;
	char num[32];

	snprintf(num, sizeof(num), "%d", v->threads);
	strbuf_printf(&b, "%s", "");
	while (*s) {
		size_t n = 0;
		const char *val = placeholder(s, v, num, &n);

		if (val) {
			if (sh)
				add_escaped(&b, val, q, inner);
			else
				strbuf_printf(&b, "%s", val);
			s += n;
			continue;
		}
		if (!sh) {
			strbuf_addc(&b, *s++);
			continue;
		}
		if (*s == '\\' && s[1] == '"' && q == Q_DOUBLE &&
		    inner != Q_SINGLE) {
			/* \" in double quotes: the inner shell's quote */
			inner = inner == Q_NONE ? Q_DOUBLE : Q_NONE;
			strbuf_addc(&b, *s++);
		} else if (*s == '\\' && s[1] && q != Q_SINGLE) {
			strbuf_addc(&b, *s++);	/* the next one is literal */
		} else if ((*s == '\'' && q != Q_DOUBLE) ||
			   (*s == '"' && q != Q_SINGLE)) {
			/* a quote of this level opens or closes it */
			q = q == Q_NONE ? (*s == '"' ? Q_DOUBLE : Q_SINGLE) :
			    Q_NONE;
			inner = Q_NONE;
		} else if (q != Q_NONE && *s == inner_quote(q)) {
			/* the other quote inside: the inner shell's */
			inner = inner == Q_NONE ?
				(*s == '"' ? Q_DOUBLE : Q_SINGLE) : Q_NONE;
		}
		strbuf_addc(&b, *s++);
	}
	if (q != Q_NONE) {
		*why = q == Q_SINGLE ? "a single quote is not closed" :
			"a double quote is not closed";
		free(b.s);
		return NULL;
	}
	return b.s;
}

char *shell_subst(const char *s, const struct shell_vars *v)
{
	return subst(s, v, false, NULL);
}

char *shell_subst_template(const char *s, const struct shell_vars *v,
			   const char **why)
{
	return subst(s, v, true, why);
}

const char *shell_unknown_placeholder(const char *s, size_t *len)
{
	const char *p, *e;
	size_t i, n;

	for (p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
		if (p > s && p[-1] == '$')
			continue;
		for (e = p + 1; (*e >= 'a' && *e <= 'z') || *e == '_'; e++)
			;
		if (e == p + 1 || *e != '}')
			continue;
		n = (size_t)(e - p) + 1;
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i]) == n && !strncmp(p, names[i], n))
				break;
		if (i == ARRAY_SIZE(names)) {
			*len = n;
			return p;
		}
	}
	return NULL;
}

const char *shell_placeholders(void)
{
	static char text[160];
	size_t i, k = ARRAY_SIZE(names);

	if (!text[0])
		for (i = 0; i < k; i++)
			snprintf(text + strlen(text), sizeof(text) -
				 strlen(text), "%s%s", i == 0 ? "" :
				 i + 1 < k ? ", " : " and ", names[i]);
	return text;
}

const char *shell_size(double size, char *buf, size_t n)
{
	/* the shortest text that reads back as the same size */
	snprintf(buf, n, "%.15g", size);
	if (strtod(buf, NULL) != size)
		snprintf(buf, n, "%.17g", size);
	return buf;
}

char *shell_quote(const char *s)
{
	size_t len = 2, i;
	char *out, *p;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			 "_-+=./,:@%^") == strlen(s))
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		len += s[i] == '\'' ? 4 : 1;
	p = out = xmalloc(len + 1);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

char *shell_join(char *const *argv)
{
	int n = 0;

	while (argv && argv[n])
		n++;
	return shell_join_n(argv, n);
}

char *shell_join_n(char *const *argv, int n)
{
	struct strbuf b = STRBUF_INIT;
	char *q;
	int i;

	/* linear: a command of half a million words joins at once */
	strbuf_printf(&b, "%s", "");
	for (i = 0; i < n; i++) {
		q = shell_quote(argv[i]);
		if (i)
			strbuf_addc(&b, ' ');
		strbuf_printf(&b, "%s", q);
		free(q);
	}
	return b.s;
}
