/* sysroot.h — every read doctor makes of the system goes through here, under one root folder
 * ("/" on the real machine, a fixture tree in tests: `--root` / $GPUPORT_SYSROOT). Paths given
 * and returned are the machine's own ("/usr/local/cuda"); symlinks resolve inside the root,
 * as they would under chroot. */
#ifndef GP_DOCTOR_SYSROOT_H
#define GP_DOCTOR_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct gp_sysroot {
    char root[512]; /* without a trailing '/'; "" for the real machine */
    bool host;      /* the real machine: "/" */
} gp_sysroot;

/* root NULL or "/" is the real machine. False when the root is too long. */
bool gp_sysroot_init(gp_sysroot *sr, const char *root);
/* The host path of machine path `p` into out; false when it does not fit. */
bool gp_sysroot_path(const gp_sysroot *sr, const char *p, char *out, size_t n);
/* Reads at most `cap` bytes (truncated reads allowed). NULL with "PATH: reason" in err. */
char *gp_sysroot_read(const gp_sysroot *sr, const char *p, size_t cap, size_t *len, char *err,
                      size_t errlen);
bool gp_sysroot_exists(const gp_sysroot *sr, const char *p);
bool gp_sysroot_is_dir(const gp_sysroot *sr, const char *p);
bool gp_sysroot_is_file(const gp_sysroot *sr, const char *p);
bool gp_sysroot_is_exec(const gp_sysroot *sr, const char *p);
/* access(2) on the host path; -1 with errno when denied or absent. */
int gp_sysroot_access(const gp_sysroot *sr, const char *p, int mode);
DIR *gp_sysroot_opendir(const gp_sysroot *sr, const char *p);
/* The machine path with every symlink resolved inside the root (like realpath). False when a
 * component is missing, a loop, or too long. */
bool gp_sysroot_resolve(const gp_sysroot *sr, const char *p, char *out, size_t n);
/* The target of symlink `p` (not resolved), false when `p` is not a symlink. */
bool gp_sysroot_readlink(const gp_sysroot *sr, const char *p, char *out, size_t n);
/* The first folder of the colon-separated `path_env` holding an executable `name`: the
 * machine path into out. */
bool gp_sysroot_which(const gp_sysroot *sr, const char *name, const char *path_env, char *out,
                      size_t n);

/* Small string helpers the probes share. */
void gp_copy(char *dst, size_t n, const char *src);
/* Copies the part of src before the first newline, trimmed. */
void gp_copy_line(char *dst, size_t n, const char *src);
/* dirname in place ("/a/b" -> "/a", "/a" -> "/"). */
void gp_path_dirname(char *p);

#endif
