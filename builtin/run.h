/*
 * run.h - what the files of 'pandia run' share (builtin/run*.c).
 */
#ifndef PANDIA_BUILTIN_RUN_H
#define PANDIA_BUILTIN_RUN_H

#include "common/machine.h"
#include "profiler/run.h"

/*
 * --map as text on stdout: the topology of M (this host's when NULL),
 * each PU with the threads that ran there most, then a line a thread,
 * bounded however many threads there are.
 */
void run_map_print(const struct run_map *map, const struct pandia_machine *m);

/* -o DIR made when it is not there; -1 (said) when it cannot be */
int run_map_check_dir(const char *dir);

/*
 * --map with -o DIR: DIR/map.json, DIR/map.gp and DIR/map.png, drawn
 * by gnuplot (a warning when there is none).  TITLE names the run.
 * 0, or -1 when a file cannot be written (said on stderr).
 */
int run_map_save(const struct run_map *map, const struct pandia_machine *m,
		 const char *dir, const char *title);

#endif
