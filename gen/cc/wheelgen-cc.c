/*
 * wheelgen-cc: the compiler in front of the compilers, for shards and deadlines (docs/manual.md,
 * "Shards and deadlines"). build-host.sh puts a directory of symlinks to it (cc, c++, gcc, g++,
 * nvcc, ar, ranlib, the cross compilers) first on PATH and in CC, CXX, NVCC and PYTORCH_NVCC.
 * Each call finds the next program of its name (ccache's masks or the real compiler: the
 * directory's .next, else PATH after the directory) and runs it, unless the call is a compile
 * of one of the package's objects: that compile it owns.
 *
 * An owned compile: a compile (-c; nvcc -c, --compile, -dc), one source file, -o OUT, the
 * source inside WG_CC_ROOT/src (the cell's copy of its source) but not in CMake's scratch
 * (CMakeFiles/). Its identity is the sha256 of the compiler's name, the working directory, the
 * source and the output, with WG_CC_ROOT spelt as a placeholder: the same compile of the same
 * cell in another directory, on another machine, has the same identity. The arguments are not
 * hashed: they hold paths that are new on every build (uv's and pip's isolated build
 * environments, in every -I) and numbers of this host's (nvcc --threads); what they may change
 * is what the cell's key (WG_CC_KEY) fixes: the source, the flags and the toolchain. Objects are
 * kept under WG_CC_STORE/<part>/, beside a file "key", and only those of a directory whose key
 * is WG_CC_KEY are ever used.
 *
 * The environment (set by build-host.sh; without WG_CC_ROOT every call runs the next compiler):
 *   WG_CC_MASK      the directory of symlinks; its file .next says what each name runs next
 *                   ("NAME<TAB>PATH" lines), else the next of that name on PATH after it
 *   WG_CC_ROOT      the cell's scratch directory (its /src is the source)
 *   WG_CC_KEY       the cell's key: objects are reused only from directories of this key
 *   WG_CC_STORE     the cell's parts: WG_CC_STORE/<dir>/key and WG_CC_STORE/<dir>/<id>.o
 *   WG_CC_SAVE      where a compiled object is kept (a part's directory, or resume/), or unset
 *   WG_CC_PART      "K/N": compile only the objects whose identity falls in part K of N
 *   WG_CC_DEADLINE  unix time: no compile starts after it, and one in flight is stopped at it
 *   WG_CC_LOG       a file each owned compile appends one line to: "WHAT ID SECONDS SOURCE",
 *                   WHAT one of compiled, family (the compile cache had it: an object of the
 *                   cell's family, docs/manual.md "Families"), reused (from a part or an earlier
 *                   attempt), other (another part's), late (past the deadline); SECONDS the
 *                   processor seconds of the compile and what it ran ("-" where nothing ran):
 *                   the work, which other load on the machine changes little
 *   CCACHE_STATSLOG where ccache is the next program (build-host.sh sets it): each owned compile
 *                   gets a statistics log of its own, read to tell a cache hit from a compile
 *                   and then appended to this one
 * An owned object that is not compiled here (another part's, or past the deadline) is written
 * as a placeholder; a link, archive, ranlib or device link given a placeholder does nothing
 * but make its output, and the build step then throws the wheel away.
 *
 * Every object nvcc compiles through it, owned or not, loses the names of nvcc's temporary
 * files (nvccsame): build-host.sh puts it before nvcc in every CUDA build, shards or not, with
 * only WG_CC_MASK set.
 *
 * Static, and linked against nothing of wheelgen's libraries (only its own sha256.c, and esc.c
 * and util.c for the depfile's rule): it runs inside the build containers too (which mount the
 * build directory).
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../esc.h"
#include "../sha256.h"

/* the first bytes of a placeholder object (no object format starts so) */
static const char magic[] = "!<wheelgen placeholder object>\n";

static const char *me = "wheelgen-cc";

static void
die(const char *fmt, const char *a)
{
	fprintf(stderr, "%s: ", me);
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	exit(127);
}

/* PATH without the directory mask: the compiler runs as if wheelgen-cc were not there (ccache's
   masks find the real compiler, not this program again; nvcc's own host compiles and the
   compiler's other children are not looked at) */
static void
unmaskpath(const char *mask)
{
	const char *path = getenv("PATH"), *p, *e;
	char rmask[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX];
	char *out;
	size_t len = 0;

	if (!path || !mask || !realpath(mask, rmask))
		return;
	if (!(out = malloc(strlen(path) + 1)))
		die("out of memory%s", "");
	for (p = path; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if ((size_t)(e - p) < sizeof(dir)) {
			snprintf(dir, sizeof(dir), "%.*s", (int)(e - p), p);
			if (e > p && realpath(dir, rdir) && !strcmp(rdir, rmask))
				continue;
		}
		if (len)
			out[len++] = ':';
		memcpy(out + len, p, (size_t)(e - p));
		len += (size_t)(e - p);
	}
	out[len] = 0;
	setenv("PATH", out, 1);
	free(out);
}

/* the program mask/.next names for name ("NAME<TAB>PATH" lines), into buf; 0 when it names one */
static int
nextof(const char *name, const char *mask, char *buf, size_t size)
{
	char path[PATH_MAX], line[PATH_MAX + 256];
	size_t n = strlen(name);
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/.next", mask);
	if (!(f = fopen(path, "r")))
		return -1;
	while (rc != 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, name, n) && line[n] == '\t' && strlen(line + n + 1) < size) {
			memcpy(buf, line + n + 1, strlen(line + n + 1) + 1);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

/* the program to run for name: the one mask/.next names, else the next called name on PATH
   after the directory mask (never this program again) */
static char *
findnext(const char *name, const char *mask, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p, *e;
	char rmask[PATH_MAX], rdir[PATH_MAX], rself[PATH_MAX], rcand[PATH_MAX];
	ssize_t n;

	if (strchr(name, '/'))
		return NULL;
	if (mask && nextof(name, mask, buf, size) == 0)
		return buf;
	if (!mask || !realpath(mask, rmask))
		rmask[0] = 0;
	n = readlink("/proc/self/exe", rself, sizeof(rself) - 1);
	rself[n > 0 ? n : 0] = 0;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p || (size_t)(e - p) + strlen(name) + 2 > size)
			continue;
		snprintf(buf, size, "%.*s", (int)(e - p), p);
		if (rmask[0] && realpath(buf, rdir) && !strcmp(rdir, rmask))
			continue;
		snprintf(buf + (e - p), size - (size_t)(e - p), "/%s", name);
		if (access(buf, X_OK) != 0)
			continue;
		/* never ourselves again (a second mask of the same name) */
		if (rself[0] && realpath(buf, rcand) && !strcmp(rcand, rself))
			continue;
		return buf;
	}
	return NULL;
}

/* whether path is a placeholder object */
static int
isplaceholder(const char *path)
{
	char head[sizeof(magic)];
	struct stat st;
	int fd;
	ssize_t n;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(magic) - 1)
		return 0;
	if ((fd = open(path, O_RDONLY)) < 0)
		return 0;
	n = read(fd, head, sizeof(magic) - 1);
	close(fd);
	return n == (ssize_t)sizeof(magic) - 1 && !memcmp(head, magic, sizeof(magic) - 1);
}

/* write data to path through a temporary beside it; -1 on error */
static int
writefile(const char *path, const char *data, size_t len)
{
	char tmp[PATH_MAX + 32];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.wgcc%ld", path, (long)getpid());
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return -1;
	if ((len && write(fd, data, len) != (ssize_t)len) || close(fd) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* copy the file from to path (through a temporary); -1 on error */
static int
copyfile(const char *from, const char *path)
{
	char tmp[PATH_MAX + 32], buf[65536];
	int in, out;
	ssize_t n;

	if ((in = open(from, O_RDONLY)) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.wgcc%ld", path, (long)getpid());
	if ((out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	}
	close(in);
	if (close(out) != 0 || n < 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * Feed path to the digest as the cell's tree names it: absolute (against cwd), with the cell's
 * scratch directory root (as given, or its real path rp) spelt @ROOT@, and the directory right
 * under root/tmp spelt @TMP@ (a build's temporary directory, a new name each time: CMake's under
 * scikit-build-core, say).
 */
static void
addpath(struct sha256 *c, const char *path, const char *cwd, const char *root, const char *rp)
{
	char abs[2 * PATH_MAX + 2];
	const char *s = abs, *r = NULL;
	size_t n = strlen(root), m = strlen(rp);

	if (path[0] == '/')
		snprintf(abs, sizeof(abs), "%s", path);
	else
		snprintf(abs, sizeof(abs), "%s/%s", cwd, path);
	if (n && !strncmp(s, root, n) && (s[n] == '/' || !s[n]))
		r = s + n;
	else if (m && !strncmp(s, rp, m) && (s[m] == '/' || !s[m]))
		r = s + m;
	if (r) {
		sha256add(c, "@ROOT@", 6);
		if (!strncmp(r, "/tmp/", 5) && r[5]) {
			sha256add(c, "/tmp/@TMP@", 10);
			r = strchr(r + 5, '/');
			if (!r)
				r = "";
		}
		s = r;
	}
	sha256add(c, s, strlen(s) + 1);
}

static const char *const srcexts[] = { ".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cu", ".S", ".s", ".m", ".mm", NULL };

static int
issource(const char *a)
{
	size_t i;

	for (i = 0; srcexts[i]; i++) {
		if (endswith(a, srcexts[i]))
			return 1;
	}
	return 0;
}

/* the options whose next argument is a file or a value, never a source */
static int
takesvalue(const char *a)
{
	static const char *const v[] = {
		"-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-x", "-I", "-isystem", "-iquote", "-idirafter",
		"-D", "-U", "-L", "-l", "-Xcompiler", "-Xlinker", "-Xptxas", "-Xnvlink", "-Xfatbin", "-Xcudafe",
		"-ccbin", "--compiler-bindir", "-gencode", "--generate-code", "-arch", "-code", "--threads", "-t",
		"--output-file", "--dependency-output", "-odir", "--output-directory", NULL,
	};
	size_t i;

	for (i = 0; v[i]; i++) {
		if (!strcmp(a, v[i]))
			return 1;
	}
	return 0;
}

/* what a call is: an owned compile, or anything else */
struct call {
	const char *src;      /* the one source file */
	const char *out;      /* -o */
	const char *depfile;  /* -MF / --dependency-output, or NULL */
	int mdnodepfile;      /* -MD or -MMD without -MF: the depfile is OUT with .d */
};

/* fill cl for a compile of one source to one output; 0 when it is one, -1 otherwise */
static int
parse(int argc, char **argv, int nvcc, struct call *cl)
{
	int i, compile = 0, nsrc = 0, other = 0;

	memset(cl, 0, sizeof(*cl));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-c") || (nvcc && (!strcmp(a, "--compile") || !strcmp(a, "-dc") || !strcmp(a, "--device-c"))))
			compile = 1;
		else if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
			 !strcmp(a, "-fsyntax-only") || (nvcc && (!strcmp(a, "-ptx") || !strcmp(a, "-cubin") ||
			 !strcmp(a, "-fatbin") || !strcmp(a, "-dlink") || !strcmp(a, "--device-link") ||
			 !strcmp(a, "-lib") || !strcmp(a, "-M") || !strcmp(a, "--preprocess") || !strcmp(a, "-cuda") ||
			 !strcmp(a, "--dryrun") || !strcmp(a, "-dryrun"))))
			other = 1;
		else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD"))
			cl->mdnodepfile = 1;
		else if ((!strcmp(a, "-o") || !strcmp(a, "--output-file")) && i + 1 < argc)
			cl->out = argv[++i];
		else if (!strncmp(a, "--output-file=", 14))
			cl->out = a + 14;
		else if (!strncmp(a, "-o", 2) && a[2] && !nvcc)
			cl->out = a + 2;
		else if ((!strcmp(a, "-MF") || !strcmp(a, "--dependency-output")) && i + 1 < argc)
			cl->depfile = argv[++i];
		else if (!strncmp(a, "-MF", 3) && a[3])
			cl->depfile = a + 3;
		else if (takesvalue(a) && i + 1 < argc)
			i++;
		else if (a[0] != '-' && issource(a)) {
			cl->src = a;
			nsrc++;
		}
	}
	if (cl->depfile)
		cl->mdnodepfile = 0;
	return compile && !other && nsrc == 1 && cl->out ? 0 : -1;
}

/* whether the source is the package's: inside root/src, not in CMake's scratch */
static int
owned(const char *src, const char *rroot)
{
	char r[PATH_MAX];
	size_t n = strlen(rroot);

	if (!realpath(src, r))
		return 0;
	if (strncmp(r, rroot, n) || strncmp(r + n, "/src/", 5))
		return 0;
	return !strstr(r + n, "/CMakeFiles/") && !strstr(r + n, "/CMakeScratch/") && !strstr(r + n, "/CMakeTmp/");
}

/* append one line to the log (one write: lines of parallel compiles do not mix); secs < 0: "-" */
static void
logline(const char *what, const char *id, double secs, const char *src)
{
	const char *path = getenv("WG_CC_LOG");
	char line[PATH_MAX + 128], t[32];
	int fd, n;

	if (!path || !*path)
		return;
	if (secs < 0)
		snprintf(t, sizeof(t), "-");
	else
		snprintf(t, sizeof(t), "%.3f", secs);
	n = snprintf(line, sizeof(line), "%s %s %s %s\n", what, id, t, src);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = snprintf(line, sizeof(line), "%s %s %s ?\n", what, id, t);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644)) < 0)
		return;
	if (write(fd, line, (size_t)n) != n)
		fprintf(stderr, "%s: cannot write %s\n", me, path);
	close(fd);
}

/* the depfile a compile the compiler did not run must still leave (ninja reads it): OUT and
   its source, by esc.c's rule (the one of every depfile) */
static void
fakedeps(const struct call *cl)
{
	char path[PATH_MAX];
	const char *dot, *slash;
	struct sb text = SB_INIT, bad = SB_INIT;

	if (cl->depfile) {
		snprintf(path, sizeof(path), "%s", cl->depfile);
	} else if (cl->mdnodepfile) {
		dot = strrchr(cl->out, '.');
		slash = strrchr(cl->out, '/');
		if (dot && (!slash || dot > slash))
			snprintf(path, sizeof(path), "%.*s.d", (int)(dot - cl->out), cl->out);
		else
			snprintf(path, sizeof(path), "%s.d", cl->out);
	} else {
		return;
	}
	if (escdepfile(&text, &bad, cl->out, NULL, &cl->src, 1) < 0)
		die("cannot name %s in a depfile (a backslash, tab, CR or newline)", bad.len ? bad.buf : cl->out);
	if (writefile(path, text.buf, text.len) != 0)
		die("cannot write the depfile %s", path);
	sbfree(&text);
	sbfree(&bad);
}

/* whether store/dir is a directory of objects of this key */
static int
ofkey(const char *store, const char *dir, const char *key)
{
	char path[PATH_MAX], buf[80];
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "%s/%s/key", store, dir);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = 0;
		ok = !strcmp(buf, key);
	}
	fclose(f);
	return ok;
}

/* copy the object id from a directory of this key to out; 0 when found */
static int
reuse(const char *store, const char *key, const char *id, const char *out)
{
	DIR *d;
	struct dirent *e;
	char path[PATH_MAX];
	int rc = -1;

	if (!store || !key || !(d = opendir(store)))
		return -1;
	while (rc != 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !ofkey(store, e->d_name, key))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s.o", store, e->d_name, id);
		if (access(path, R_OK) == 0 && !isplaceholder(path))
			rc = copyfile(path, out) == 0 ? 0 : (die("cannot copy %s", path), -1);
	}
	closedir(d);
	return rc;
}

static void
placeholder(const struct call *cl, const char *id)
{
	char text[sizeof(magic) + 80];
	int n = snprintf(text, sizeof(text), "%s%s\n", magic, id);

	if (writefile(cl->out, text, (size_t)n) != 0)
		die("cannot write %s", cl->out);
	fakedeps(cl);
}

/* the part (1..n) an identity falls in: its first 32 bits modulo n, plus one */
static long
partof(const char *id, long n)
{
	char head[9];

	memcpy(head, id, 8);
	head[8] = 0;
	return (long)(strtoul(head, NULL, 16) % (unsigned long)n) + 1;
}

static volatile sig_atomic_t gotsig;

static void
onsig(int s)
{
	gotsig = s;
}

/* run the compiler; its exit status, or -2 when the deadline stopped it */
static int
run(const char *next, char **argv, long deadline)
{
	pid_t pid;
	int st;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if ((pid = fork()) < 0)
		die("cannot fork for %s", next);
	if (pid == 0) {
		/* a group of its own: the deadline stops the compiler's children too */
		if (deadline)
			setpgid(0, 0);
		execv(next, argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", me, next, strerror(errno));
		_exit(127);
	}
	if (deadline)
		setpgid(pid, pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			die("cannot wait for %s", next);
		if (gotsig) {
			kill(deadline ? -pid : pid, SIGTERM);
			waitpid(pid, &st, 0);
			signal(gotsig, SIG_DFL);
			raise(gotsig);
			_exit(128 + gotsig);
		}
		if (!deadline) {
			/* no deadline: wait (a signal interrupts it, and is passed on above) */
			if (waitpid(pid, &st, 0) == pid)
				break;
			continue;
		}
		if (time(NULL) >= deadline) {
			kill(-pid, SIGTERM);
			ts.tv_sec = 2;
			ts.tv_nsec = 0;
			nanosleep(&ts, NULL);
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -2;
		}
		nanosleep(&ts, NULL);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/*
 * nvcc names its temporary files tmpxft_<pid>_<count>-..., and the host compiler writes the name
 * into the object (its file symbol; the debug information where there is one): the same compile
 * never made the same object twice. The digits become zeros, in place (the same length: the
 * object stays as it was laid out), so that an object, and the wheel, is the same bytes
 * whichever build, part or machine compiled it.
 */
static void
nvccsame(const char *path)
{
	static const char pre[] = "tmpxft_";
	char *buf = NULL, *p;
	size_t len = 0, cap = 0, i;
	ssize_t n;
	int fd, changed = 0;

	if ((fd = open(path, O_RDONLY)) < 0)
		return;
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			if (!(p = realloc(buf, cap)))
				die("out of memory reading %s", path);
			buf = p;
		}
		if ((n = read(fd, buf + len, cap - len)) <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (n < 0)
		die("cannot read %s", path);
	for (p = buf; len >= 25 && (size_t)(p - buf) <= len - 25; p++) {
		p = memchr(p, 't', len - 24 - (size_t)(p - buf));
		if (!p)
			break;
		if (memcmp(p, pre, 7) || p[15] != '_' || p[24] != '-')
			continue;
		for (i = 7; i < 24 && (i == 15 || isxdigit((unsigned char)p[i])); i++)
			;
		if (i < 24)
			continue;
		for (i = 7; i < 24; i++) {
			if (i != 15 && p[i] != '0') {
				p[i] = '0';
				changed = 1;
			}
		}
	}
	if (changed && writefile(path, buf, len) != 0)
		die("cannot write %s", path);
	free(buf);
}

/*
 * ccache's statistics of one compile (its own CCACHE_STATSLOG file: "# FILE" lines, each
 * followed by the counters of that compile): whether the compile of src was a cache hit. nvcc
 * runs its host compiles through ccache too; their records name nvcc's temporary files, so
 * only the records of src's own name count.
 */
static int
cachehit(const char *statslog, const char *src)
{
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	char line[PATH_MAX + 16];
	FILE *f;
	int ours = 0, hit = 0;

	if (!(f = fopen(statslog, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#') {
			const char *p = line + 1 + strspn(line + 1, " ");
			const char *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

			ours = !strcmp(b, base);
		} else if (ours && (!strcmp(line, "direct_cache_hit") || !strcmp(line, "preprocessed_cache_hit"))) {
			hit = 1;
		}
	}
	fclose(f);
	return hit;
}

/* append the file from to the file to (ccache's statistics log of the whole build), and remove it */
static void
appendlog(const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in, out;

	if ((in = open(from, O_RDONLY)) < 0)
		return;
	if ((out = open(to, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0) {
			if (write(out, buf, (size_t)n) != n)
				break;
		}
		close(out);
	}
	close(in);
	unlink(from);
}

/* the processor seconds (user and system) of this process's children that ended: the compile
   it ran, with every process that compile waited for (ccache, nvcc's cicc and ptxas, cc1plus) */
static double
childcpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* a link, archive or device link given a placeholder: make its output, and nothing else */
static int
linkplaceholders(int argc, char **argv, int ar)
{
	const char *out = NULL;
	int i, any = 0, fd;

	for (i = 1; i < argc; i++) {
		if (isplaceholder(argv[i]))
			any = 1;
	}
	if (!any)
		return -1;
	if (ar) {
		/* ar OP ARCHIVE MEMBER...: the first word after the operation */
		for (i = 2; i < argc && argv[i][0] == '-'; i++)
			;
		out = i < argc ? argv[i] : NULL;
	} else {
		struct call cl;

		parse(argc, argv, 0, &cl);
		out = cl.out;
	}
	if (out && (fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
		if (write(fd, magic, sizeof(magic) - 1) != (ssize_t)sizeof(magic) - 1)
			die("cannot write %s", out);
		close(fd);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *root = getenv("WG_CC_ROOT"), *key = getenv("WG_CC_KEY"), *store = getenv("WG_CC_STORE");
	const char *save = getenv("WG_CC_SAVE"), *part = getenv("WG_CC_PART"), *dl = getenv("WG_CC_DEADLINE");
	const char *statslog = getenv("CCACHE_STATSLOG");
	char next[PATH_MAX], rroot[PATH_MAX], cwd[PATH_MAX], id[65], obj[PATH_MAX], ownlog[PATH_MAX + 96] = "";
	double t0, secs;
	int hit = 0;
	struct sha256 c;
	struct call cl;
	long k = 0, n = 0, deadline = dl && *dl ? strtol(dl, NULL, 10) : 0;
	int nvcc = endswith(name, "nvcc"), ar = !strcmp(name, "ar") || endswith(name, "-ar"), rc;

	if (!findnext(name, getenv("WG_CC_MASK"), next, sizeof(next)))
		die("no '%s' on PATH after wheelgen's own", name);
	argv[0] = next;
	unmaskpath(getenv("WG_CC_MASK"));
	if (!root || !*root || !realpath(root, rroot))
		root = NULL;
	if (key && strlen(key) != 64)
		key = NULL;
	if (part && *part && (sscanf(part, "%ld/%ld", &k, &n) != 2 || n < 1 || k < 1 || k > n))
		die("WG_CC_PART must be K/N, not '%s'", part);
	if (ar)
		return root && linkplaceholders(argc, argv, 1) == 0 ? 0 : (execv(next, argv), 127);
	if (parse(argc, argv, nvcc, &cl) != 0) {
		if (root && linkplaceholders(argc, argv, 0) == 0)
			return 0;
		goto pass;
	}
	if (!root || !owned(cl.src, rroot)) {
		/* not the package's: compiled as it is (an nvcc object made the same whoever made it) */
		if (!nvcc)
			goto pass;
		if ((rc = run(next, argv, 0)) == 0)
			nvccsame(cl.out);
		return rc;
	}
	/* the compile's identity */
	if (!getcwd(cwd, sizeof(cwd)))
		die("cannot read the working directory%s", "");
	sha256init(&c);
	sha256add(&c, "wheelgen-cc 1", 14);
	sha256add(&c, name, strlen(name) + 1);
	addpath(&c, cwd, "/", root, rroot);
	addpath(&c, cl.src, cwd, root, rroot);
	addpath(&c, cl.out, cwd, root, rroot);
	sha256hex(&c, id);
	if (n && partof(id, n) != k) {
		placeholder(&cl, id);
		logline("other", id, -1, cl.src);
		return 0;
	}
	if (key && reuse(store, key, id, cl.out) == 0) {
		fakedeps(&cl);
		logline("reused", id, -1, cl.src);
		return 0;
	}
	if (deadline && time(NULL) >= deadline) {
		placeholder(&cl, id);
		logline("late", id, -1, cl.src);
		return 0;
	}
	/* ccache behind: a statistics log of this compile's own, to tell a hit */
	if (statslog && *statslog) {
		snprintf(ownlog, sizeof(ownlog), "%s.%.16s.%ld", statslog, id, (long)getpid());
		unlink(ownlog);
		setenv("CCACHE_STATSLOG", ownlog, 1);
	}
	t0 = childcpu();
	rc = run(next, argv, deadline);
	secs = childcpu() - t0;
	if (ownlog[0]) {
		hit = cachehit(ownlog, cl.src);
		appendlog(ownlog, statslog);
	}
	if (rc == -2) {
		placeholder(&cl, id);
		logline("late", id, -1, cl.src);
		return 0;
	}
	if (rc != 0)
		return rc;
	if (nvcc)
		nvccsame(cl.out);
	if (key && save && *save) {
		snprintf(obj, sizeof(obj), "%s/%s.o", save, id);
		if (copyfile(cl.out, obj) != 0)
			die("cannot keep the object in %s", save);
	}
	logline(hit ? "family" : "compiled", id, secs, cl.src);
	return 0;
pass:
	execv(next, argv);
	die("cannot run %s", next);
	return 127;
}
