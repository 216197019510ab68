/* plan: the cells a run builds (see plan.h). */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "plan.h"

int
plancells(struct keyctx *k, const struct store *st, struct matrix *m, const struct planopts *o, char (*keys)[65],
	  size_t *n)
{
	size_t i;
	int down = 0, rc = 0;

	*n = 0;
	for (i = 0; i < m->n && rc == 0; i++) {
		struct sb why = SB_INIT;
		enum storestate ss = NOTSTORED;

		if (o->prof && !profilehas(o->prof, &m->cells[i]))
			continue;
		if (o->missing && st->kind != STORE_NONE && !down) {
			ss = storelookup(k, st, &m->cells[i], o->tmp, 1, keys[*n], &why);
			if (ss == STOREDOWN) {
				warn("%s: every cell counts as missing", why.buf);
				down = 1;
			} else if (ss == WHEELBAD || ss == BADENTRY) {
				/* the store heals: the cell is built and published again */
				notice("planned %s: %s", m->cells[i].id, why.buf);
			}
			if (ss == KEYERROR)
				rc = -1;
		} else if (o->missing || o->needkeys) {
			int r = cellkey(k, &m->cells[i], NULL, keys[*n], NULL);

			if (r < 0)
				rc = -1;
			if (r == 1)
				keys[*n][0] = '\0';
		}
		sbfree(&why);
		if (ss != STORED && rc == 0)
			m->cells[(*n)++] = m->cells[i];
	}
	unlink(o->tmp);
	return rc;
}
