#ifndef WG_STATUS_H
#define WG_STATUS_H

/*
 * Print the steps of builddir's ninja runs: whether a ninja runs there (its claim), and for
 * each build and test step its cell, state (running, ok, failed, stopped), time and the last
 * line of its log; running steps first, then the 20 newest (all with all).
 */
int buildstatus(const char *builddir, int all);

#endif
