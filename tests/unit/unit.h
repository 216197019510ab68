/*
 * unit: the unit tests' harness, shared by the test files of tests/unit/ (one per module of
 * gen/). A check prints "FAIL file:line: description" when it fails and counts either way;
 * main (unittest.c) prints "unit: N passed, N failed" and exits 1 on any failure.
 */
#ifndef WG_UNIT_H
#define WG_UNIT_H

/* count a check: ok or not, with what it checks and where */
void unitcheck(int ok, const char *desc, const char *file, int line);
/* check that got is the string want (NULL fails), printing both when not */
void unitcheckstr(const char *got, const char *want, const char *desc, const char *file, int line);

#define CHECK(cond, desc) unitcheck((cond), (desc), __FILE__, __LINE__)
#define CHECKSTR(got, want, desc) unitcheckstr((got), (want), (desc), __FILE__, __LINE__)

/* the tests of each module, one function per test file */
void testpytag(void);

#endif
