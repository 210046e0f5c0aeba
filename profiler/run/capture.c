/*
 * capture.c - the command's output: passed on, cut into lines for
 * --time-from (its regular expression lives here too), the on_line
 * callback and a template's stressor rates, and the tail of its
 * stderr kept for the error message.
 */
#include "profiler/run/internal.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/timeparse.h"
#include "common/util.h"

struct run_regex {
	regex_t re;
	bool group;
};

struct run_regex *run_regex_new(const char *re, struct pandia_error *err)
{
	struct run_regex *rx = xcalloc(1, sizeof(*rx));
	int rc = regcomp(&rx->re, re, REG_EXTENDED);

	if (rc) {
		char why[256];

		regerror(rc, &rx->re, why, sizeof(why));
		free(rx);
		perr_set(err, "bad regular expression '%s': %s", re, why);
		return NULL;
	}
	rx->group = rx->re.re_nsub > 0;
	return rx;
}

void run_regex_free(struct run_regex *rx)
{
	if (!rx)
		return;
	regfree(&rx->re);
	free(rx);
}

bool run_regex_time(const struct run_regex *rx, const char *line,
		    double *secs)
{
	regmatch_t m[2];
	const char *p;

	if (regexec(&rx->re, line, 2, m, 0))
		return false;
	if (rx->group) {
		if (m[1].rm_so < 0)
			return false;
		return time_value_at(line + m[1].rm_so, secs, NULL);
	}
	p = line + m[0].rm_eo;
	while (*p == ' ' || *p == '\t' || *p == ':' || *p == '=')
		p++;
	return time_value_at(p, secs, NULL);
}

static void keep_tail(struct ctx *c, const char *p, size_t n)
{
	if (n >= TAIL_BYTES) {
		p += n - TAIL_BYTES;
		n = TAIL_BYTES;
	}
	if (c->capture.tail_len + n > TAIL_BYTES) {
		size_t drop = c->capture.tail_len + n - TAIL_BYTES;

		memmove(c->capture.tail, c->capture.tail + drop,
			c->capture.tail_len - drop);
		c->capture.tail_len -= drop;
	}
	memcpy(c->capture.tail + c->capture.tail_len, p, n);
	c->capture.tail_len += n;
}

/* one complete line of output */
static void output_line(struct ctx *c, const char *line)
{
	double v;
	int i;

	if (c->capture.rx && run_regex_time(c->capture.rx, line, &v)) {
		c->capture.out_time = v;
		c->capture.have_time = true;
	}
	if (c->o->on_line)
		c->o->on_line(line, c->run, c->o->data);
	if (!c->local && c->stress.tmpl_rates &&
	    sscanf(line, "pandia-stress: %d %lf", &i, &v) == 2 &&
	    i >= 0 && i < c->stress.n)
		c->stress.tmpl_rates[i] = v;
	/* the stressor's rate with the command not running */
	if (!c->local && c->stress.tmpl_alone &&
	    sscanf(line, "pandia-stress-alone: %d %lf", &i, &v) == 2 &&
	    i >= 0 && i < c->stress.n)
		c->stress.tmpl_alone[i] = v;
	/* ... and after it, as long */
	if (!c->local && c->stress.tmpl_after &&
	    sscanf(line, "pandia-stress-after: %d %lf", &i, &v) == 2 &&
	    i >= 0 && i < c->stress.n)
		c->stress.tmpl_after[i] = v;
}

static void feed_lines(struct ctx *c, int k, const char *p, size_t n)
{
	struct linebuf *lb = &c->capture.lb[k];
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			lb->buf[lb->len] = '\0';
			output_line(c, lb->buf);
			lb->len = 0;
		} else if (lb->len < LINE_MAX_BYTES) {
			lb->buf[lb->len++] = p[i];
		}
	}
}

/* read what is there on output k; close it at EOF */
void read_output(struct ctx *c, int k)
{
	char buf[16384];
	ssize_t n;

	for (;;) {
		n = read(c->capture.fd[k], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return;		/* EAGAIN: later */
		if (n == 0) {
			struct linebuf *lb = &c->capture.lb[k];

			if (lb->len) {
				lb->buf[lb->len] = '\0';
				output_line(c, lb->buf);
				lb->len = 0;
			}
			close(c->capture.fd[k]);
			c->capture.fd[k] = -1;
			return;
		}
		/* a copy that cannot be written is not the run's failure */
		if (c->o->output_fd >= 0 && !c->capture.hide)
			(void)write_all(c->o->output_fd, buf, (size_t)n);
		if (k == 1)
			keep_tail(c, buf, (size_t)n);
		feed_lines(c, k, buf, (size_t)n);
	}
}

/* the last lines of the command's stderr into r->stderr_tail */
void set_tail(struct ctx *c)
{
	size_t start, len = c->capture.tail_len;
	int lines = 0;

	free(c->r->stderr_tail);
	c->r->stderr_tail = NULL;
	while (len && c->capture.tail[len - 1] == '\n')
		len--;
	if (!len)
		return;
	for (start = len; start > 0; start--) {
		if (c->capture.tail[start - 1] == '\n' && ++lines == TAIL_LINES)
			break;
	}
	c->r->stderr_tail = xasprintf("%.*s", (int)(len - start),
				      c->capture.tail + start);
}
