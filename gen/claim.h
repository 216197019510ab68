#ifndef WG_CLAIM_H
#define WG_CLAIM_H

/*
 * Claim builddir for the ninja this process runs under (BUILDDIR/.lock: its pid and start
 * time). 0: claimed, or already this run's, or no ninja above us and no live owner; -1 (error
 * printed): another ninja that still runs owns it. stepfd (or -1): a descriptor on
 * BUILDDIR/.lock.run that the step's shell keeps open; it gets a shared lock, and taking over
 * from a dead owner first waits for the steps that still hold theirs.
 */
int claimbuilddir(const char *builddir, int stepfd);

/* 1 (and *pid) when the ninja that claimed builddir still runs, else 0 */
int claimowner(const char *builddir, long *pid);

#endif
