/* data.c — the size and SHA-256 of every data file a run read, so two runs can prove they saw the
 * same inputs. Folders are walked (symlinks not followed); a FIFO, socket or device is refused, not
 * skipped; files are hashed in parallel, one file per thread at a time, each in large sequential
 * reads (each opened with gp_open_regular, so a file swapped for a FIFO cannot stall a thread). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "freeze/collect.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/thread.h"

typedef struct data_file {
    char *path;
    char hex[65];
    uint64_t size;
    char err[512];
    int failed;
} data_file;

typedef struct data_list {
    data_file *files;
    size_t count, cap;
    char err[512];
} data_list;

static int list_add(data_list *l, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        data_file *p = realloc(l->files, cap * sizeof *p);
        if (!p) return -1;
        l->files = p;
        l->cap = cap;
    }
    data_file *f = &l->files[l->count];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    if (!f->path) return -1;
    l->count++;
    return 0;
}

/* Adds every regular file below `path` in name order; depth-limited against pathological trees. */
static int walk(data_list *l, const char *path, int depth)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        snprintf(l->err, sizeof l->err, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode) && depth == 0 && stat(path, &st) != 0) { /* named link: follow once */
        snprintf(l->err, sizeof l->err, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode)) return list_add(l, path);
    if (!S_ISDIR(st.st_mode)) {
        /* a FIFO, socket or device cannot be hashed: recording nothing for it would pass the
         * manifest off as complete (links inside folders never get here: they are not followed) */
        snprintf(l->err, sizeof l->err, "%s: is %s, not a regular file or a folder", path,
                 gp_file_kind(st.st_mode));
        return -1;
    }
    if (depth > 64) {
        snprintf(l->err, sizeof l->err, "%s: folders nested deeper than 64 levels", path);
        return -1;
    }
    char **names;
    size_t n;
    if (gp_dir_names(path, &names, &n, l->err, sizeof l->err) != 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *child = gp_path_join(path, names[i]);
        if (child) {
            struct stat cs;
            if (lstat(child, &cs) == 0 && !S_ISLNK(cs.st_mode)) rc = walk(l, child, depth + 1);
            free(child);
        }
    }
    gp_dir_names_free(names, n);
    return rc;
}

typedef struct hash_pool {
    data_list *list;
    size_t next;
    gp_mutex lock;
} hash_pool;

static void *hash_worker(void *arg)
{
    hash_pool *pool = arg;
    for (;;) {
        gp_mutex_lock(&pool->lock);
        size_t i = pool->next++;
        gp_mutex_unlock(&pool->lock);
        if (i >= pool->list->count) return NULL;
        data_file *f = &pool->list->files[i];
        if (gp_sha256_file(f->path, f->hex, &f->size, f->err, sizeof f->err) != 0) f->failed = 1;
    }
}

cJSON *gp_freeze_data(const char *const *paths, size_t count, int threads, char *err, size_t errlen)
{
    data_list l = {0};
    for (size_t i = 0; i < count; i++) {
        if (walk(&l, paths[i], 0) != 0) {
            snprintf(err, errlen, "%s", l.err[0] ? l.err : "out of memory");
            goto fail;
        }
    }
    if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if ((size_t)threads > l.count) threads = l.count ? (int)l.count : 1;
    hash_pool pool = {&l, 0, GP_MUTEX_INIT};
    gp_thread tids[256];
    int started = 0;
    for (int t = 0; t < threads && t < 256; t++)
        if (gp_thread_create(&tids[started], hash_worker, &pool) == 0) started++;
    if (started == 0) hash_worker(&pool);
    for (int t = 0; t < started; t++)
        gp_thread_join(tids[t]);
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < l.count; i++) {
        if (l.files[i].failed) {
            snprintf(err, errlen, "%s", l.files[i].err);
            cJSON_Delete(arr);
            goto fail;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", l.files[i].path);
        cJSON_AddNumberToObject(o, "size", (double)l.files[i].size);
        cJSON_AddStringToObject(o, "sha256", l.files[i].hex);
        cJSON_AddItemToArray(arr, o);
    }
    for (size_t i = 0; i < l.count; i++)
        free(l.files[i].path);
    free(l.files);
    return arr;
fail:
    for (size_t i = 0; i < l.count; i++)
        free(l.files[i].path);
    free(l.files);
    return NULL;
}
