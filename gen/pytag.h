/*
 * pytag: which wheel tags a CPython X.Y installs, the one owner of that rule. A cell's Python is
 * "3.9", "3.13" or "3.14t" (free-threaded); its CPython's interpreter tag is cp39, cp313, cp314;
 * its ABI tag cp39, cp313, cp314t, and cp36m or cp37m for the Pythons before 3.8 (which had the
 * pymalloc "m" flag); its extension modules' suffix ".cpython-39-...", ".cpython-37m-...",
 * ".cpython-314t-...". The stable ABI (abi3) of any CPython 3 up to the cell's, and py3-none, are
 * installed too (not by a free-threaded Python: it has no abi3).
 */
#ifndef WG_PYTAG_H
#define WG_PYTAG_H

/* a Python version split: 3.14t is major 3, minor 14, freethreaded 1 */
struct pyver {
	int major, minor;
	int freethreaded;
};

/* parse "3.9", "3.14t" into v; 0, or -1 when it is no Python version of that form */
int pyverparse(const char *python, struct pyver *v);
/* the interpreter tag: "cp39" (room for 16) */
void pytaginterp(const struct pyver *v, char out[16]);
/* the ABI tag: "cp39", "cp37m", "cp314t" (room for 16) */
void pytagabi(const struct pyver *v, char out[16]);
/* the ABI's part of an extension module's suffix, after ".cpython-": "39", "37m", "314t" (room for 14) */
void pytagsoabi(const struct pyver *v, char out[14]);
/* the Python a CPython ABI tag is for: cp312 -> "3.12", cp313t -> "3.13t", cp37m -> "3.7"
   (room for 16); "" for another tag (abi3, none, pypy's) */
void pytagpython(const char *abi, char out[16]);

/*
 * Can CPython v install a wheel whose compressed tag sets (dotted, as in a file name) are py
 * and abi? Its own interpreter and ABI tags; abi3 with a cpXY of XY up to its own (not
 * free-threaded); abi "none" with py3, pyXY or its cpXY.
 */
int pytagsok(const struct pyver *v, const char *py, const char *abi);

#endif
