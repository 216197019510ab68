/* unit tests of http: the private header file, the token's host, redirects */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "http.h"
#include "util.h"
#include "unit.h"

/* the fake curl testhttp puts on PATH: records its arguments and the header files it is handed,
   and answers by URL as curl's -w line would */
static const char fakecurl[] =
	"#!/bin/sh\n"
	"d=${0%/*}\n"
	"prev= url=\n"
	"for a do\n"
	"	printf '%s\\n' \"$a\" >>\"$d/argv\"\n"
	"	if [ \"$prev\" = -H ]; then case $a in @*) { stat -c %a \"${a#@}\"; cat \"${a#@}\"; } >>\"$d/hdr\" ;; esac; fi\n"
	"	[ \"$prev\" != --url ] || url=$a\n"
	"	prev=$a\n"
	"done\n"
	"echo \"url $url\" >>\"$d/hdr\"\n"
	"case $url in\n"
	"*/start) printf '\\nwg-http: 302 0 0|||0||%s|\\n' \"${url%/start}/next\" >&2 ;;\n"
	"*/next) printf '\\nwg-http: 302 0 0|||0||%s|\\n' \"$(echo \"$url\" | sed 's|//a\\.|//b.|; s|/next$|/file|')\" >&2 ;;\n"
	"*/file) printf body; printf '\\nwg-http: 200 0 4|text/plain||4|||\\n' >&2 ;;\n"
	"*/loop) printf '\\nwg-http: 301 0 0|||0||%s|\\n' \"$url\" >&2 ;;\n"
	"*) printf '\\nwg-http: 404 0 0|||0|||\\n' >&2 ;;\n"
	"esac\n";

/* http: the private header file; the token never in curl's arguments, and only to url's host;
   redirects by hand within the host (or to https), never for a PUT, 5 at most */
void
testhttp(void)
{
	char dir[] = "/tmp/wgunithttp.XXXXXX", path[4096], *text, *oldpath, *oldtmp;
	struct httpget g;
	struct stat st;
	struct sb p = SB_INIT;
	FILE *f;

	CHECK(httpsamehost("https://A.example:8/x", "https://a.example:8/y?z") &&
	      !httpsamehost("https://a.example/x", "https://a.example:8/x") &&
	      !httpsamehost("http://a.example/x", "https://a.example/x") &&
	      !httpsamehost("https://a.example.evil/x", "https://a.example/x"), "httpsamehost: scheme, host and port");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	oldtmp = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
	oldpath = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("TMPDIR", dir, 1);
	CHECK(httpheaderfile("s3cret", path, sizeof(path)) == 0 && startswith(path, dir) && stat(path, &st) == 0 &&
	      (st.st_mode & 0777) == 0600, "the header file: in TMPDIR, mode 0600");
	text = readfile(path, NULL);
	CHECKSTR(text ? text : "", "Authorization: Bearer s3cret\n", "the header file holds the header");
	free(text);
	unlink(path);
	CHECK(httpheaderfile("a\nX-Evil: 1", path, sizeof(path)) < 0 && errno == EINVAL, "a token with a newline refused");
	CHECK(httpheaderfile("a b", path, sizeof(path)) < 0 && httpheaderfile("", path, sizeof(path)) < 0,
	      "a token with a blank, an empty token refused");

	sbaddf(&p, "%s/curl", dir);
	f = fopen(p.buf, "w");
	CHECK(f && fputs(fakecurl, f) >= 0 && fclose(f) == 0 && chmod(p.buf, 0755) == 0, "the fake curl");
	sbreset(&p);
	sbaddf(&p, "%s:%s", dir, oldpath);
	setenv("PATH", p.buf, 1);

	/* within the host with the token, to another https host without it */
	memset(&g, 0, sizeof(g));
	sbreset(&p);
	sbaddf(&p, "%s/body", dir);
	g.url = "https://a.example/start";
	g.dest = p.buf;
	g.how.token = "s3cret";
	g.how.redirect = HTTP_SAMEHOST_HTTPS;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.status == 200 && !g.why.len && g.length == 4 &&
	      !strcmp(g.at.buf, "https://b.example/file") && g.got == 4, "redirects followed by hand, to any https host");
	sbreset(&p);
	sbaddf(&p, "%s/hdr", dir);
	text = readfile(p.buf, NULL);
	CHECKSTR(text ? text : "", "600\nAuthorization: Bearer s3cret\nurl https://a.example/start\n"
				   "600\nAuthorization: Bearer s3cret\nurl https://a.example/next\n"
				   "url https://b.example/file\n", "the token to the URL's host only, from a 0600 file");
	free(text);
	unlink(p.buf);
	sbreset(&p);
	sbaddf(&p, "%s/argv", dir);
	text = readfile(p.buf, NULL);
	CHECK(text && !strstr(text, "s3cret") && strstr(text, "--netrc-optional") == NULL && strstr(text, "-L") == NULL,
	      "no token, no netrc unless asked, no -L in curl's arguments");
	free(text);
	unlink(p.buf);
	httpgetfree(&g);

	/* within the host only: another host is not followed, and says where */
	memset(&g, 0, sizeof(g));
	g.url = "https://a.example/start";
	g.how.redirect = HTTP_SAMEHOST;
	g.how.netrc = 1;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.status == 302 && g.stop == HTTP_STOP_HOST &&
	      !strcmp(g.location.buf, "https://b.example/file") && !strcmp(g.at.buf, "https://a.example/next"),
	      "a redirect to another host is not followed");
	httpgetfree(&g);
	memset(&g, 0, sizeof(g));
	g.url = "https://a.example/loop";
	g.how.redirect = HTTP_SAMEHOST;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.stop == HTTP_STOP_HOPS, "more than 5 redirects: stopped");
	httpgetfree(&g);
	memset(&g, 0, sizeof(g));
	g.method = HTTP_PUT;
	g.upload = "/dev/null";
	g.url = "https://a.example/start";
	g.how.redirect = HTTP_SAMEHOST;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.stop == HTTP_STOP_METHOD && !strcmp(g.location.buf, "https://a.example/next"),
	      "a PUT answered with a redirect is not redirected");
	httpgetfree(&g);
	sbreset(&p);
	sbaddf(&p, "%s/argv", dir);
	text = readfile(p.buf, NULL);
	CHECK(text && strstr(text, "\n--netrc-optional\n") && strstr(text, "\n-T\n/dev/null\n"), "netrc where asked; PUT -T");
	free(text);

	sbreset(&p);
	sbaddf(&p, "rm -rf '%s'", dir);
	CHECK(system(p.buf) == 0, "cleanup (no header file left behind)");
	setenv("PATH", oldpath, 1);
	if (oldtmp)
		setenv("TMPDIR", oldtmp, 1);
	else
		unsetenv("TMPDIR");
	free(oldpath);
	free(oldtmp);
	sbfree(&p);
}
