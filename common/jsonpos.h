/*
 * jsonpos.h - where a value sits in JSON text, for error messages.
 *
 * jansson reports line and column for syntax errors only; semantic
 * errors found after parsing (a negative bandwidth, a PU listed twice)
 * are located again in the text with json_locate().
 */
#ifndef PANDIA_JSONPOS_H
#define PANDIA_JSONPOS_H

/*
 * Find the value at PATH in the JSON TEXT.  PATH is a sequence of
 * object keys and array indexes: "links[2].per_core_bw",
 * "model.demands.dram", "pus[3]".  On success sets *line and *column
 * (1-based) to the start of the value and returns 0; if the path is
 * not there, sets them to the deepest container found and returns -1.
 */
int json_locate(const char *text, const char *path, int *line,
		int *column);

#endif
