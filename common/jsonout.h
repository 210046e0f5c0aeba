/*
 * jsonout.h - the one way pandia writes JSON files.
 */
#ifndef PANDIA_JSONOUT_H
#define PANDIA_JSONOUT_H

#include <jansson.h>

/*
 * ROOT as indented text: two spaces per level, keys in insertion
 * order, reals with 10 significant digits, arrays of scalars on one
 * line, a final newline.  Deterministic, so writing what was read
 * gives the same bytes.  Returns a new string (caller frees).
 */
char *json_to_text(const json_t *root);

#endif
