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

/*
 * A placement in every JSON pandia prints, one shape everywhere:
 * "cpus", an array of OS PU numbers in thread order, and "cpus_text",
 * the same as 'pandia run --cpus' takes it ("0-3,8,8").  From OS
 * numbers, or from such a text.
 */
void json_set_cpus(json_t *obj, const int *os, int n);
void json_set_cpus_text(json_t *obj, const char *text);

/* Set KEY of OBJ to the string S; nothing when S is NULL. */
void json_set_str(json_t *obj, const char *key, const char *s);

#endif
