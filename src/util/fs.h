/* fs.h — reading outside files safely: size-capped whole reads for small files, read-only
 * mappings for large ones, and the few path helpers every tool needs. All report errors as
 * text naming the path, into a caller buffer, and never abort. */
#ifndef GP_UTIL_FS_H
#define GP_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads at most `cap` bytes of `path` into a NUL-terminated heap buffer (free() it).
 * *len (optional) receives the byte count. When the file is longer than `cap`, fails with
 * "file is larger than N bytes" unless `truncate_ok`, which returns the first `cap` bytes.
 * On failure returns NULL and writes "PATH: reason" into err (errlen bytes). */
char *gp_read_file(const char *path, size_t cap, bool truncate_ok, size_t *len, char *err,
                   size_t errlen);

/* A read-only view of a whole file: mmap where possible (an empty file maps to data == NULL,
 * size == 0). */
typedef struct gp_mapped_file {
    const uint8_t *data;
    size_t size;
    int fd;
} gp_mapped_file;

/* 0 on success; -1 with "PATH: reason" in err. Directories and devices are refused. */
int gp_map_file(const char *path, gp_mapped_file *out, char *err, size_t errlen);
void gp_unmap_file(gp_mapped_file *m);

/* Joins two path pieces with exactly one '/', into a heap string (free() it); NULL on ENOMEM. */
char *gp_path_join(const char *a, const char *b);
bool gp_path_is_dir(const char *path);
bool gp_path_is_file(const char *path);
bool gp_path_exists(const char *path);
/* The entries of folder `dir` (without "." and ".."), sorted by byte order so that whatever is
 * built from them is the same on every run and file system: a heap array of heap strings in
 * *names, their count in *count; free with gp_dir_names_free. 0, or -1 with "DIR: reason" in err
 * (nothing to free then). */
int gp_dir_names(const char *dir, char ***names, size_t *count, char *err, size_t errlen);
void gp_dir_names_free(char **names, size_t count);
/* Creates `path` and its parents with `mode` (existing folders are fine). 0 or -1 (errno). */
int gp_mkdir_p(const char *path, unsigned mode);
/* Writes `len` bytes to `path` through a temporary file in the same folder and rename(), so
 * readers never see a partial file. 0 or -1 with "PATH: reason" in err. */
int gp_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
