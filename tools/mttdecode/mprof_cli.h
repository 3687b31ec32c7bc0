/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mprof_cli.h - mttdecode's MiniProfiler front end (mprof.c): chosen by
 * --input=mprof, or when the first input file starts with a MiniProfiler
 * response header; it then runs the whole command.
 */
#ifndef MTTD_MPROF_CLI_H
#define MTTD_MPROF_CLI_H

int mprof_wanted(int argc, char **argv);
int mprof_main(int argc, char **argv);

#endif
