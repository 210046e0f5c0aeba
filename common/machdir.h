/*
 * machdir.h - where machine descriptions live, and which one a
 * command uses.
 *
 * The search path: the directories of $PANDIA_MACHINES (a colon-separated
 * list: a description shared by the identical nodes of a cluster), then
 * the user's directory ($XDG_DATA_HOME/pandia/machines,
 * else ~/.local/share/pandia/machines), where 'pandia machine' writes
 * by default; then the installed ones ($(DATADIR)/machines of
 * config.mk, compiled in as PANDIA_DATADIR); then EXTRA (the source
 * tree's machines/ when pandia runs from its build directory).
 */
#ifndef PANDIA_MACHDIR_H
#define PANDIA_MACHDIR_H

#include "common/error.h"
#include "common/machine.h"

/* The user's machine directory (new string), or NULL without HOME. */
char *machdir_user(void);

/*
 * The path of description ARG: ARG itself when it names a file (or
 * holds a '/', or ends in ".json"), else NAME.json in the first
 * directory of the search path (EXTRA may be NULL) that has it.
 * Returns a new string, or NULL with err naming every place looked in.
 */
char *machdir_find(const char *arg, const char *extra,
		   struct pandia_error *err);

/*
 * This host's own description: HOST.json on the search path whose
 * host and CPU model are this host's (THIS, from topology_load() of
 * this host).  Returns it loaded, with *path a new string, or NULL:
 * with err empty when there is none, or naming the file and what did
 * not match (or was wrong in it).
 */
struct pandia_machine *machdir_this_host(const struct pandia_machine *this,
					 const char *extra, char **path,
					 struct pandia_error *err);

#endif
