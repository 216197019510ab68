/* storelayout: where a store keeps a cell's files, spelled here alone (the store, the index's
   links, a manifest's stored= and the publish step's uploads, through wheelgen-step store-blob,
   all ask it). Names only: which store and how to reach it is store.c's. */
#ifndef WG_STORELAYOUT_H
#define WG_STORELAYOUT_H

#include <stddef.h>

#include "util.h"

/* the forms a manifest's stored= may take, for messages */
#define STORELAYOUT_FORMS "blobs/<sha256>/<filename> or <release>/<filename>"

/* blobs/<sha256>/<file>, appended to s: a wheel or its .metadata stored by its content (a
   directory or HTTP store), a name that never holds other bytes */
void storeblob(struct sb *s, const char *sha256, const char *file);
/* the directory of a directory or HTTP store where publishers keep their temporaries, tmp/,
   appended to s: a temporary a killed publish left is found there (wheelgen store --unused) */
void storetmpdir(struct sb *s);
/* the directory of the blobs, blobs/, appended to s; with sha256, that blob's directory,
   blobs/<sha256>/ */
void storeblobsdir(struct sb *s, const char *sha256);
/* 1 if name is in a blob's directory (blobs/<sha256>/..., or that directory itself): its
   sha256 into sha256 and the rest of the name (after the directory's '/') into *file (NULL:
   not wanted); else 0 */
int storeblobof(const char *name, char sha256[65], const char **file);
/* <release>/<file>, appended to s: a GitHub release's asset (the release: store.h storerelease) */
void storeasset(struct sb *s, const char *release, const char *file);
/* 1 if s[0..n) is a release name storefile accepts: letters, digits and '-_.+', not starting
   with '.' */
int storereleasename(const char *s, size_t n);
/* 1 if stored is where a store keeps the wheel file whose content is sha256: its blob, or a
   release's asset of that file name */
int storedwheel(const char *stored, const char *sha256, const char *file);

/*
 * 1 if name can name a file of the store: a plain file name (<cell>.manifest, a wheel published
 * flat), blobs/<sha256>/<plain file name> (a wheel and its .metadata stored by content: a
 * name that never holds other bytes, so that no manifest ever names bytes the store lacks), or
 * <release>/<plain file name> (a GitHub release's asset: the release a tag of letters, digits
 * and '-_.+')
 */
int storefile(const char *name);

#endif
