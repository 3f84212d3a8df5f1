/* fs.h — reading outside files safely: one opener that never blocks on a special file, size-capped
 * whole reads for small files, read-only mappings for large ones, and the few path helpers every
 * tool needs. All report errors as text naming the path, into a caller buffer, and never abort. */
#ifndef GP_UTIL_FS_H
#define GP_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* What gp_open_regular accepts beyond a regular file, and how it treats links. */
enum {
    GP_OPEN_NOFOLLOW = 1, /* a symbolic link is refused, not followed */
    GP_OPEN_DIR_OK = 2,   /* a directory is opened too (for walkers) */
};

/* Every reader of outside data opens through here. Opens `path` read-only only when it is a
 * regular file (or, with GP_OPEN_DIR_OK, a directory): a named pipe, socket or device is refused
 * without being opened, so nothing can block or trigger a device's side effects; the open itself
 * is O_NONBLOCK and its fstat must show the same regular file, so a path swapped for a FIFO in
 * between is refused too. Returns the descriptor (blocking mode, close-on-exec) with its fstat in
 * *st (optional), or -1 with "PATH: is a named pipe (FIFO), not a regular file" (or the system's
 * reason) in err. */
int gp_open_regular(const char *path, int flags, struct stat *st, char *err, size_t errlen);
/* "a named pipe (FIFO)", "a socket", "a character device", "a block device", "a directory",
 * "a symbolic link", "a regular file". */
const char *gp_file_kind(mode_t mode);

/* Reads at most `cap` bytes of regular file `path` (opened with gp_open_regular) into a
 * NUL-terminated heap buffer (free() it). *len (optional) receives the byte count. When the file
 * is longer than `cap`, fails with "file is larger than N bytes" unless `truncate_ok`, which
 * returns the first `cap` bytes; a file whose size says so is refused before a byte is read.
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

/* 0 on success; -1 with "PATH: reason" in err. Only regular files are mapped (gp_open_regular). */
int gp_map_file(const char *path, gp_mapped_file *out, char *err, size_t errlen);
void gp_unmap_file(gp_mapped_file *m);

/* The mapping primitives under gp_map_file, for readers that open the file themselves
 * (fs_posix.c: mmap; fs_win.c: CreateFileMapping). gp_map_fd maps `len` > 0 bytes of open
 * descriptor `fd` read-only; NULL with errno on failure. The mapping outlives the descriptor. */
void *gp_map_fd(int fd, size_t len);
void gp_unmap(const void *p, size_t len);
typedef enum gp_map_advice {
    GP_MAP_SEQUENTIAL, /* will be read front to back once */
    GP_MAP_RANDOM,     /* will be read here and there: no read-ahead */
    GP_MAP_DONTNEED    /* done with these pages: give their memory back (they can be read again) */
} gp_map_advice;
/* A hint, never an error: page-aligns the range itself. */
void gp_map_advise(const void *p, size_t len, gp_map_advice advice);

/* The characters that separate folders in a path: "/" on POSIX, "/\\" on Windows. */
#if defined(_WIN32)
#define GP_PATH_SEPARATORS "/\\"
#else
#define GP_PATH_SEPARATORS "/"
#endif

/* The separator of a list of folders in one variable (PATH, LD_LIBRARY_PATH): ":" on POSIX, ";"
 * on Windows, whose paths hold ":" after the drive letter. */
#if defined(_WIN32)
#define GP_PATH_LIST_SEP ";"
#else
#define GP_PATH_LIST_SEP ":"
#endif

/* The empty device: reads give end of file, writes vanish. */
#if defined(_WIN32)
#define GP_DEV_NULL "NUL"
#else
#define GP_DEV_NULL "/dev/null"
#endif

/* The type of a readdir entry (DT_DIR, DT_REG, DT_LNK), or DT_UNKNOWN where the system does
 * not say (Windows): then ask gp_stat_entry. */
#if defined(_WIN32)
#define GP_DIRENT_TYPE(de) ((void)(de), DT_UNKNOWN)
#else
#define GP_DIRENT_TYPE(de) ((de)->d_type)
#endif
/* lstat of entry `name` of the folder open as descriptor `dfd`, whose full path is `path`:
 * fstatat(AT_SYMLINK_NOFOLLOW) on POSIX, lstat(path) on Windows (no folder descriptors). */
struct stat;
int gp_stat_entry(int dfd, const char *name, const char *path, struct stat *st);

/* Why the folder `real` (a resolved path, no links left) is not the user's alone: it, or a
 * folder above it, lets someone else put or replace a file there; "" when it is the user's.
 * POSIX: owners and mode bits (fs_posix.c); Windows: owners and access lists (fs_win.c). */
void gp_dir_untrusted_why(const char *real, char *why, size_t n);
/* The same for a file: it is a regular file (not a link), the user's, and no one else may write
 * it; else why not ("it is owned by another user"). */
void gp_file_untrusted_why(const char *path, char *why, size_t n);

/* Joins two path pieces with exactly one '/', into a heap string (free() it); NULL on ENOMEM. */
char *gp_path_join(const char *a, const char *b);
bool gp_path_is_dir(const char *path);
bool gp_path_is_file(const char *path);
bool gp_path_exists(const char *path);
/* Whether writing an output to `path` would replace something (--force): a file, a folder or a
 * link, but not a device, FIFO or socket (`-o /dev/null`), which is written into. */
bool gp_output_taken(const char *path);
/* The entries of folder `dir` (without "." and ".."), sorted by byte order so that whatever is
 * built from them is the same on every run and file system: a heap array of heap strings in
 * *names, their count in *count; free with gp_dir_names_free. 0, or -1 with "DIR: reason" in err
 * (nothing to free then). */
int gp_dir_names(const char *dir, char ***names, size_t *count, char *err, size_t errlen);
void gp_dir_names_free(char **names, size_t count);
/* The order of gp_dir_names (qsort comparator over char *). */
int gp_dir_name_cmp(const void *a, const void *b);
/* Creates `path` and its parents with `mode` (existing folders are fine). 0 or -1 (errno). */
int gp_mkdir_p(const char *path, unsigned mode);
/* Writes `len` bytes to `path` through a temporary file in the same folder and rename(), so
 * readers never see a partial file. 0 or -1 with "PATH: reason" in err. */
int gp_write_file_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
