/* files: reading, writing and removing files and directories; locks and the leftovers of
   killed writers. Every generated file goes through writeifchanged. */
#ifndef WG_FILES_H
#define WG_FILES_H

#include "util.h"

/* read a whole file into a malloc'd, NUL-terminated buffer; NULL (errno set) on failure */
char *readfile(const char *path, size_t *len);
/* the same, for a file that must hold at most max bytes (0: no limit): a larger one is not read
   past max + 64 KiB and gives NULL with errno EFBIG (a manifest, a page from the network) */
char *readfilemax(const char *path, size_t *len, size_t max);

/* create dir and its parents (like mkdir -p); -1 and a message on failure */
int mkdirs(const char *dir);
/* rm -rf path; 0 when it is gone (or was never there), -1 with errno */
int rmtree(const char *path);

/*
 * Write data to path only if its content differs: the bytes go to a temporary
 * in the same directory, are flushed and checked, then renamed over path.
 * Parent directories are created. Returns 1 if written, 0 if the file already
 * held exactly these bytes, -1 (message printed) on failure, leaving path as it was.
 */
int writeifchanged(const char *path, const char *data, size_t len);

/* 1 if s is a plain file name: not empty, . or .., no '/' or '\\', no control characters (a
   name from a manifest, a store or a listing that becomes part of a path) */
int plainname(const char *s);

/* an exclusive lock (fcntl) on path, created if missing, waited for; the fd to close to
   release it, or -1 with a message */
int lockfile(const char *path);
/* is name prefix followed by the pid of a process that no longer runs? */
int deadpid(const char *name, const char *prefix);
/* remove the entries of dir named prefix<pid> whose process is gone (temporaries of a writer
   killed with -9) */
void sweepdead(const char *dir, const char *prefix);
/* remove the files of dir named <name>.tmp.<pid> whose process is gone (writeifchanged's
   temporaries, and those made like them, of a writer killed with -9) */
void sweeptemps(const char *dir);

/*
 * Read a file of "key=value" lines: for each keys[i] (the list ends with NULL) that
 * appears, slots[i] gets a malloc'd copy of its value (the last one wins); others are
 * left as they are. Returns -1 with errno set if the file cannot be read.
 */
int readkeys(const char *path, const char *const *keys, char **slots);

#endif
