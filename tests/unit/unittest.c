/* the unit tests' main: the harness of unit.h, and each module's tests (tests/unit/<module>.c)
   in turn; prints "unit: N passed, N failed" and exits 1 on any failure */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "pep.h"
#include "unit.h"

static int passed, failed;

void
unitcheck(int ok, const char *desc, const char *file, int line)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s:%d: %s\n", file, line, desc);
	}
}

void
unitcheckstr(const char *got, const char *want, const char *desc, const char *file, int line)
{
	int ok = got && strcmp(got, want) == 0;

	unitcheck(ok, desc, file, line);
	if (!ok)
		printf("  want: %s\n  got:  %s\n", want, got ? got : "(null)");
}

char *
unitconfig(const char *text, struct arena *a, struct config **cp, struct matrix *m)
{
	char path[] = "/tmp/wgcfgXXXXXX";
	struct diags d = { 0 };
	struct config *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fatal("cannot write temp config");
	close(fd);
	c = configload(a, path, &d);
	memset(m, 0, sizeof(*m));
	if (c && d.errors == 0)
		matrixexpand(a, c, NULL, m, &d);
	f = open_memstream(&buf, &len);
	d.file = "cfg";
	diagprint(&d, f);
	fclose(f);
	diagfree(&d);
	unlink(path);
	if (cp)
		*cp = c;
	return buf;
}

int
main(void)
{
	testsha256();
	testesc();
	testpep();
	testutil();
	testfiles();
	testmatrix();
	testconfig();
	testmirror();
	testcheckout();
	teststore();
	testwheelfile();
	testmanifest();
	testwheelsjson();
	testhttp();
	testjson();
	testsimpleapi();
	testcoremeta();
	testyamledit();
	testsummary();
	testkey();
	testlayout();
	testdamage();
	testplatform();
	testshardplan();
	testpytag();
	testcmd();
	pepfree();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
