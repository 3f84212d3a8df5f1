/*
 * cache.h — the on-disk kernel cache, for the core and the backends. An entry is a file
 * `<key>.<ext>` and its checksum `<key>.<ext>.sha256`, both written through a temporary file and
 * rename() (many processes may build the same kernel at once; the last rename wins and every
 * reader sees a whole file). A missing, unreadable or mismatching entry is a miss. The folder:
 * gp_cache_set_dir(), else $GPUPORT_CACHE_DIR, else the per-user cache folder, mode 0700.
 */
#ifndef GP_RUNTIME_CACHE_H
#define GP_RUNTIME_CACHE_H

#include <stddef.h>

#include "gpuport/gpuport.h"

/* The most an entry may hold; larger blobs are not cached. */
#define GP_CACHE_MAX_ENTRY ((size_t)256 << 20)

/* Loads entry key.ext into a heap buffer (free() it). GP_ERR_NOT_FOUND on a miss, a corrupt or
 * a truncated entry (the caller rebuilds and stores again). Thread-safe. */
gp_status gp_cache_load(const char *key, const char *ext, void **data, size_t *len);
/* How many entries gp_cache_load and gp_cache_lookup_path found on the calling thread so far
 * (the timeline compares it before and after a build). */
uint64_t gp_cache_found_on_thread(void);
/* Stores a blob as key.ext. Failures are returned but callers may ignore them (a cache that
 * cannot be written is only slower). Thread-safe. */
gp_status gp_cache_store(const char *key, const char *ext, const void *data, size_t len);
/* For entries used by path (the CPU backend's shared objects): on a hit, *path (free() it) is the
 * verified entry file. GP_ERR_NOT_FOUND on a miss. */
gp_status gp_cache_lookup_path(const char *key, const char *ext, char **path);
/* Moves the file at src_path (same file system or not) into the cache as key.ext; on success
 * *path (optional; free() it) is the entry's path. */
gp_status gp_cache_store_file(const char *key, const char *ext, const char *src_path, char **path);
/* Removes key.ext: the backend rejected it (a loader refused the binary). */
void gp_cache_discard(const char *key, const char *ext);
/* The folder in use (created on demand when `create`), as a heap string (free() it). */
gp_status gp_cache_dir_path(char **path, int create);

#endif
