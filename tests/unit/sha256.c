/* unit tests of sha256: the FIPS 180-4 example digests */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "unit.h"

/* the FIPS 180-4 example digests, fed whole and in uneven pieces */
void
testsha256(void)
{
	static const struct {
		const char *in, *want;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	struct sha256 c;
	char hex[65], block[1000];
	size_t i, k, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256init(&c);
		sha256add(&c, v[i].in, strlen(v[i].in));
		sha256hex(&c, hex);
		CHECKSTR(hex, v[i].want, "sha256 of a FIPS example");
		sha256init(&c);
		for (k = 0, n = strlen(v[i].in); k < n; k += 7)
			sha256add(&c, v[i].in + k, n - k < 7 ? n - k : 7);
		sha256hex(&c, hex);
		CHECKSTR(hex, v[i].want, "sha256 fed in 7-byte pieces");
	}
	/* a million 'a's: many blocks, and a length past 2^16 bits */
	memset(block, 'a', sizeof(block));
	sha256init(&c);
	for (i = 0; i < 1000; i++)
		sha256add(&c, block, sizeof(block));
	sha256hex(&c, hex);
	CHECKSTR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of a million a's");
	/* 55, 56 and 64 bytes: the padding's edges; sha256file agrees with sha256add */
	for (k = 0; k < 3; k++) {
		static const size_t lens[] = { 55, 56, 64 };
		FILE *f = fopen("/tmp/wg-unit-sha", "wb");
		char viafile[65];

		n = lens[k];
		sha256init(&c);
		sha256add(&c, block, n);
		sha256hex(&c, hex);
		CHECK(f && fwrite(block, 1, n, f) == n && fclose(f) == 0, "write a file to hash");
		CHECK(sha256file("/tmp/wg-unit-sha", viafile) == 0 && !strcmp(hex, viafile), "sha256file equals sha256add");
	}
	sha256init(&c);
	sha256add(&c, block, 56);
	sha256hex(&c, hex);
	CHECKSTR(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a", "sha256 of 56 a's (a second block of padding)");
	unlink("/tmp/wg-unit-sha");
}
