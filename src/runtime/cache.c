/* cache.c — the on-disk kernel cache (see cache.h) and its public face (gp_cache_*). Entries are
 * named by a 64-digit hex key, which is also how clear and stats recognise gpuport's own files in
 * a folder the user may share with other things. An entry is code this process will run (the CPU
 * backend dlopens it), so the folder is used only when no one but the user can put a file there,
 * and an entry only when the user owns it, as ssh treats its keys. */
#include "runtime/cache.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/thread.h"
#include "util/userdirs.h"

static gp_mutex gp_cache_lock = GP_MUTEX_INIT;
static char *gp_cache_override;  /* gp_cache_set_dir; guarded by gp_cache_lock */
static char *gp_cache_refused;   /* the folder last refused and said so; guarded by gp_cache_lock */
static bool gp_cache_entry_said; /* an entry was refused and said so; guarded by gp_cache_lock */

gp_status gp_cache_set_dir(const char *path)
{
    char *copy = NULL;
    if (path) {
        if (!*path) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_cache_set_dir: empty path");
        copy = strdup(path);
        if (!copy) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    gp_mutex_lock(&gp_cache_lock);
    free(gp_cache_override);
    gp_cache_override = copy;
    gp_mutex_unlock(&gp_cache_lock);
    return GP_OK;
}

static char *gp_cache_default_dir(void)
{
    char err[128];
    char *base = gp_user_cache_dir(err, sizeof err);
    if (!base) return NULL;
    char *dir = gp_path_join(base, "gpuport");
    free(base);
    return dir;
}

gp_status gp_cache_dir_path(char **path, int create)
{
    gp_mutex_lock(&gp_cache_lock);
    char *dir = gp_cache_override ? strdup(gp_cache_override) : NULL;
    gp_mutex_unlock(&gp_cache_lock);
    const char *env = getenv("GPUPORT_CACHE_DIR");
    if (!dir && env && *env) dir = strdup(env);
    bool is_default = !dir;
    if (!dir) dir = gp_cache_default_dir();
    if (!dir)
        return gp_error_set(GP_ERR_IO,
                            "no folder for the kernel cache: %s is not set; set GPUPORT_CACHE_DIR",
                            GP_USER_CACHE_VAR);
    if (create) {
        if (gp_mkdir_p(dir, 0700) != 0) {
            gp_status st = gp_error_set(GP_ERR_IO, "kernel cache %s: %s", dir, strerror(errno));
            free(dir);
            return st;
        }
        if (is_default) chmod(dir, 0700); /* our own folder: private to the user */
    }
    *path = dir;
    return GP_OK;
}

/* The folder to hold and run code from: the cache folder resolved (created when `create`), when
 * only the user can write there. GP_ERR_NOT_FOUND when there is none (yet); GP_ERR_UNSUPPORTED
 * when it is not the user's alone, which is said once per folder (GPUPORT_LOG=info): programs are
 * then built without the disk cache, never refused. */
static gp_status gp_cache_code_dir(char **real, int create)
{
    char *dir;
    *real = NULL;
    gp_status st = gp_cache_dir_path(&dir, create);
    if (st != GP_OK) return create ? st : GP_ERR_NOT_FOUND;
    char *r = realpath(dir, NULL);
    if (!r) {
        free(dir);
        return GP_ERR_NOT_FOUND;
    }
    char why[1024];
    gp_dir_untrusted_why(r, why, sizeof why);
    if (!why[0]) {
        free(dir);
        *real = r;
        return GP_OK;
    }
    gp_mutex_lock(&gp_cache_lock);
    bool said = gp_cache_refused && strcmp(gp_cache_refused, dir) == 0;
    if (!said) {
        free(gp_cache_refused);
        gp_cache_refused = strdup(dir);
    }
    gp_mutex_unlock(&gp_cache_lock);
    if (!said)
        gp_log_info("kernel cache: not using %s: %s, so another user could plant code there; "
                    "kernels are built without the disk cache (use a folder only you can write: "
                    "chmod 700, or set GPUPORT_CACHE_DIR)",
                    dir, why);
    free(r);
    free(dir);
    return GP_ERR_UNSUPPORTED;
}

/* An entry file is used only when it is a regular file of the user's that no one else may write
 * (the folder check keeps others from replacing it; this keeps what is there from being theirs). */
static bool gp_entry_trusted(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return false; /* a miss, not a refusal */
    char why[256];
    gp_file_untrusted_why(path, why, sizeof why);
    if (!why[0]) return true;
    gp_mutex_lock(&gp_cache_lock);
    bool said = gp_cache_entry_said;
    gp_cache_entry_said = true;
    gp_mutex_unlock(&gp_cache_lock);
    if (!said)
        gp_log_info("kernel cache: ignoring %s: %s; the kernel is built again", path, why);
    else
        gp_log_debug("kernel cache: ignoring %s: %s", path, why);
    return false;
}

static char *gp_entry_path(const char *dir, const char *key, const char *ext, const char *suffix)
{
    size_t n = strlen(dir) + strlen(key) + strlen(ext) + strlen(suffix) + 4;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s.%s%s", dir, key, ext, suffix);
    return p;
}

static gp_status gp_entry_check_args(const char *key, const char *ext)
{
    if (!key || strlen(key) != 64 || strspn(key, "0123456789abcdef") != 64 || !ext || !*ext ||
        strchr(ext, '/') || strlen(ext) > 16)
        return gp_error_set(GP_ERR_INTERNAL, "kernel cache: bad key or extension");
    return GP_OK;
}

/* Reads and verifies an entry; *data NULL-able to only verify. */
static gp_status gp_entry_read(const char *dir, const char *key, const char *ext, void **data,
                               size_t *len)
{
    char *p = gp_entry_path(dir, key, ext, ""), *ps = gp_entry_path(dir, key, ext, ".sha256");
    char err[512];
    gp_status st = GP_ERR_NOT_FOUND;
    size_t n = 0, sn = 0;
    char *sum = NULL, *blob = NULL;
    if (p && ps && gp_entry_trusted(ps) && gp_entry_trusted(p))
        sum = gp_read_file(ps, 128, false, &sn, err, sizeof err);
    if (sum && sn >= 64) blob = gp_read_file(p, GP_CACHE_MAX_ENTRY, false, &n, err, sizeof err);
    if (blob) {
        char hex[65];
        gp_sha256_hex(blob, n, hex);
        if (memcmp(hex, sum, 64) == 0) {
            st = GP_OK;
        } else {
            gp_log_debug("kernel cache: %s does not match its checksum; rebuilding", p);
        }
    }
    if (st == GP_OK && data) {
        *data = blob;
        *len = n;
        blob = NULL;
    }
    free(blob);
    free(sum);
    free(p);
    free(ps);
    return st;
}

/* Entries found on this thread: the timeline tells a build from the disk cache from a compile. */
static _Thread_local uint64_t gp_cache_found;

uint64_t gp_cache_found_on_thread(void)
{
    return gp_cache_found;
}

gp_status gp_cache_load(const char *key, const char *ext, void **data, size_t *len)
{
    gp_status st = gp_entry_check_args(key, ext);
    if (st != GP_OK) return st;
    char *dir;
    if (gp_cache_code_dir(&dir, 0) != GP_OK) return GP_ERR_NOT_FOUND;
    st = gp_entry_read(dir, key, ext, data, len);
    free(dir);
    gp_cache_found += st == GP_OK;
    return st;
}

gp_status gp_cache_lookup_path(const char *key, const char *ext, char **path)
{
    gp_status st = gp_entry_check_args(key, ext);
    if (st != GP_OK) return st;
    char *dir;
    if (gp_cache_code_dir(&dir, 0) != GP_OK) return GP_ERR_NOT_FOUND;
    st = gp_entry_read(dir, key, ext, NULL, NULL);
    gp_cache_found += st == GP_OK;
    if (st == GP_OK) {
        *path = gp_entry_path(dir, key, ext, "");
        if (!*path) st = GP_ERR_OUT_OF_MEMORY;
    }
    free(dir);
    return st;
}

gp_status gp_cache_store(const char *key, const char *ext, const void *data, size_t len)
{
    gp_status st = gp_entry_check_args(key, ext);
    if (st != GP_OK) return st;
    if (len > GP_CACHE_MAX_ENTRY) return GP_ERR_UNSUPPORTED;
    char *dir;
    st = gp_cache_code_dir(&dir, 1);
    if (st == GP_ERR_UNSUPPORTED)
        return gp_error_set(st, "kernel cache: the folder is not yours alone (GPUPORT_LOG=info)");
    if (st == GP_ERR_NOT_FOUND)
        return gp_error_set(GP_ERR_IO, "kernel cache: no folder to store in");
    if (st != GP_OK) return st;
    char *p = gp_entry_path(dir, key, ext, ""), *ps = gp_entry_path(dir, key, ext, ".sha256");
    char hex[65], err[512];
    gp_sha256_hex(data, len, hex);
    hex[64] = '\n';
    if (!p || !ps)
        st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    else if (gp_write_file_atomic(p, data, len, err, sizeof err) != 0 ||
             gp_write_file_atomic(ps, hex, 65, err, sizeof err) != 0)
        st = gp_error_set(GP_ERR_IO, "kernel cache: %s", err);
    else
        gp_log_debug("kernel cache: stored %s", p);
    free(p);
    free(ps);
    free(dir);
    return st;
}

gp_status gp_cache_store_file(const char *key, const char *ext, const char *src_path, char **path)
{
    char err[512];
    size_t n;
    char *blob = gp_read_file(src_path, GP_CACHE_MAX_ENTRY, false, &n, err, sizeof err);
    if (!blob) return gp_error_set(GP_ERR_IO, "kernel cache: %s", err);
    gp_status st = gp_cache_store(key, ext, blob, n);
    free(blob);
    if (st == GP_OK && path) st = gp_cache_lookup_path(key, ext, path);
    return st;
}

void gp_cache_discard(const char *key, const char *ext)
{
    if (gp_entry_check_args(key, ext) != GP_OK) return;
    char *dir;
    if (gp_cache_code_dir(&dir, 0) != GP_OK) return;
    char *p = gp_entry_path(dir, key, ext, ""), *ps = gp_entry_path(dir, key, ext, ".sha256");
    if (ps) unlink(ps);
    if (p) unlink(p);
    free(p);
    free(ps);
    free(dir);
}

gp_status gp_cache_get_dir(char *buf, size_t cap, size_t *needed)
{
    if (!buf && cap) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_cache_get_dir: NULL buffer");
    char *dir;
    gp_status st = gp_cache_dir_path(&dir, 0);
    if (st != GP_OK) return st;
    size_t n = strlen(dir) + 1;
    if (needed) *needed = n;
    if (n > cap)
        st = gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_cache_get_dir: %zu bytes needed", n);
    else
        memcpy(buf, dir, n);
    free(dir);
    return st;
}

/* Our files: 64 hex digits, a dot, then the extension (and temporaries of the same names). */
static bool gp_is_entry_name(const char *name)
{
    return strlen(name) > 65 && strspn(name, "0123456789abcdef") == 64 && name[64] == '.';
}

static gp_status gp_cache_walk(uint64_t *entries, uint64_t *bytes, bool remove)
{
    char *dir;
    gp_status st = gp_cache_dir_path(&dir, 0);
    if (st != GP_OK) return st;
    uint64_t ne = 0, nb = 0;
    DIR *d = opendir(dir);
    if (!d) {
        st = errno == ENOENT ? GP_OK
                             : gp_error_set(GP_ERR_IO, "kernel cache %s: %s", dir, strerror(errno));
    } else {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!gp_is_entry_name(de->d_name)) continue;
            char *p = gp_path_join(dir, de->d_name);
            struct stat sb;
            if (p && lstat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                size_t l = strlen(de->d_name);
                if (!(l > 7 && !strcmp(de->d_name + l - 7, ".sha256")) &&
                    !strstr(de->d_name, ".tmp."))
                    ne++;
                nb += (uint64_t)sb.st_size;
                if (remove && unlink(p) != 0 && errno != ENOENT)
                    st = gp_error_set(GP_ERR_IO, "kernel cache: cannot remove %s: %s", p,
                                      strerror(errno));
            }
            free(p);
        }
        closedir(d);
    }
    free(dir);
    if (entries) *entries = ne;
    if (bytes) *bytes = nb;
    return st;
}

gp_status gp_cache_stats(uint64_t *entries, uint64_t *bytes)
{
    return gp_cache_walk(entries, bytes, false);
}

gp_status gp_cache_clear(void)
{
    return gp_cache_walk(NULL, NULL, true);
}
