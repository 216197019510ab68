/* sha256: the SHA-256 digest (FIPS 180-4), for cell keys and for checking wheels from the store. */
#ifndef WG_SHA256_H
#define WG_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* a digest in progress; fill with sha256init, feed with sha256add, end with sha256hex */
struct sha256 {
	uint32_t h[8];          /* the state */
	uint64_t bytes;         /* bytes fed so far */
	unsigned char blk[64];  /* the block being filled */
	size_t nblk;            /* bytes of blk in use */
};

void sha256init(struct sha256 *c);
/* feed n bytes */
void sha256add(struct sha256 *c, const void *p, size_t n);
/* finish: 64 lowercase hex digits and a NUL into hex (c is spent) */
void sha256hex(struct sha256 *c, char hex[65]);
/* the digest of a file's bytes into hex; -1 (errno set, nothing printed) if it cannot be read */
int sha256file(const char *path, char hex[65]);

#endif
