/*
 * unit: the unit tests' harness, shared by the test files of tests/unit/: one per module of
 * gen/, named as it is (tests/unit/pep.c tests gen/pep.c), with one function that runs its
 * tests. A check prints "FAIL file:line: description" when it fails and counts either way;
 * main (unittest.c) runs every file's function, prints "unit: N passed, N failed" and exits 1
 * on any failure.
 */
#ifndef WG_UNIT_H
#define WG_UNIT_H

struct arena;
struct config;
struct matrix;

/* count a check: ok or not, with what it checks and where */
void unitcheck(int ok, const char *desc, const char *file, int line);
/* check that got is the string want (NULL fails), printing both when not */
void unitcheckstr(const char *got, const char *want, const char *desc, const char *file, int line);
/* text loaded as a config (named "cfg" in messages) and expanded into m: the diagnostics printed
   (the caller frees them, m's cells and dropped, and a); its config into *cp unless cp is NULL */
char *unitconfig(const char *text, struct arena *a, struct config **cp, struct matrix *m);

#define CHECK(cond, desc) unitcheck((cond), (desc), __FILE__, __LINE__)
#define CHECKSTR(got, want, desc) unitcheckstr((got), (want), (desc), __FILE__, __LINE__)

/* the tests of each module, one function per test file */
void testcheckout(void);
void testcmd(void);
void testconfig(void);
void testcoremeta(void);
void testdamage(void);
void testesc(void);
void testfiles(void);
void testhttp(void);
void testjson(void);
void testkey(void);
void testlayout(void);
void testmanifest(void);
void testmatrix(void);
void testmirror(void);
void testpep(void);
void testplatform(void);
void testpytag(void);
void testsha256(void);
void testshardplan(void);
void testsimpleapi(void);
void teststore(void);
void testsummary(void);
void testutil(void);
void testwheelfile(void);
void testwheelsjson(void);
void testyamledit(void);

#endif
