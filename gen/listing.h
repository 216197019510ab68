/*
 * listing: what a store's directory listing says of its files, read the way the store offers
 * it: a directory by readdir and stat; an HTTP store's directory index (nginx's autoindex, as
 * JSON or HTML: names, sizes, modification times; another server's: the names alone); a GitHub
 * store's releases and their assets, every page of the API (names, sizes, ids). Each file gets
 * a validator where the listing allows one: text that differs whenever the file may have
 * changed, with the clock it was read against, so that a reader can keep what it read under it
 * (catalog.h) and read again only what changed. The listing is network input: bounded
 * (STORE_LISTING_MAX), parsed strictly, and a name that is not a plain file name is left out.
 */
#ifndef WG_LISTING_H
#define WG_LISTING_H

#include "store.h"

/* one file (or directory) of a listing */
struct listent {
	char *name;             /* its name in the listed directory (GitHub: as storelist names it) */
	int dir;                /* 1: a directory */
	long long size;         /* its size, -1 when the listing does not say */
	char validator[96];     /* "" when the listing gives none */
	long long mtime;        /* its modification time (seconds since 1970, the store's clock), 0: not known */
	int res;                /* how coarse mtime is, in seconds (nginx's HTML lists minutes: 60); 0: the
				   validator holds an id that changes with every upload (GitHub) */
};

/* a directory of the store, as listed */
struct listing {
	struct listent *e;      /* sorted by name */
	size_t n, cap;
	long long date;         /* the store's clock when it listed (seconds; a directory store: this
				   host's), 0: not known */
	int validators;         /* 1: its files carry validators */
	int isindex;            /* 1: it is a directory index (not some page of links): what it does not
				   name is not there */
	size_t requests;        /* the requests the listing took */
};

struct stat;

/*
 * List the store's directory dir ("" its top, "blobs/", "blobs/<sha256>/"; a GitHub store: ""
 * alone, every release of the store's and its assets) into l. 0; 1 when the store has no
 * such directory or serves no listing of it (404, 403 without a token, a page without links:
 * why says so); -1 with why when the store could not be read.
 */
int storelisting(const struct store *s, const char *dir, struct listing *l, struct sb *why);
/* what a directory store's stat says of a file, as its listing says it: size, validator */
void listentstat(struct listent *e, const struct stat *st);
/* the entry called name, or NULL */
const struct listent *listingfind(const struct listing *l, const char *name);
void listingfree(struct listing *l);

/*
 * Is an entry read when the listing said validator v of it, at the store's time seen, still
 * what the listing now says of it (e)? Its validator the same, and, where the listing's time is
 * coarse, the read made after that time's step (git's racily clean entries): a change in the
 * same second (minute) as the read could keep the validator.
 */
int listingsame(const struct listent *e, const char *v, long long seen);

/* the store's file names ending in suffix, one per line into names (its top's listing; GitHub:
   every release's assets, <release>/<asset> but a cell's manifest in its own release); 0 or -1
   with why */
int storelist(const struct store *s, const char *suffix, struct sb *names, struct sb *why);

/* an HTTP date ("Fri, 27 Nov 2026 16:24:10 GMT") as seconds since 1970; -1 when it is none */
long long httpdate(const char *s);

/* the entries of an HTTP listing's text (text[0..len), as the store sent it) into l: nginx's
   autoindex JSON or HTML, else the page's links; 0, or -1 with why (not a listing) */
int listingparse(const char *text, size_t len, struct listing *l, struct sb *why);

#endif
