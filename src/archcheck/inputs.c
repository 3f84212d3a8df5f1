/* inputs.c — turning the paths given to archcheck into inventoried files: a file is mapped
 * and read; a directory is walked for ELF files, fatbins and PTX (symlinks are not followed,
 * so nothing outside it is read and no library is counted twice); a wheel goes to wheel.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archcheck/archcheck.h"
#include "formats/fatbin.h"
#include "util/fs.h"
#include "util/term.h"

/* Deeper trees than this are not walked further (a loop guard; real installs are shallow). */
#define AC_MAX_DEPTH 48

static char *ac_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static const char *ac_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool ac_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

gp_ac_file *gp_ac_set_new_file(gp_ac_set *set, const char *path, const char *list_base)
{
    if (set->count == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 8;
        gp_ac_file *f = realloc(set->files, cap * sizeof *f);
        if (!f) return NULL;
        set->files = f;
        set->cap = cap;
    }
    gp_ac_file *f = &set->files[set->count];
    memset(f, 0, sizeof *f);
    f->path = ac_dup(path);
    f->list_base = ac_dup(list_base);
    if (!f->path || !f->list_base) {
        free(f->path);
        free(f->list_base);
        return NULL;
    }
    f->in_torch = strstr(path, "site-packages/torch/") || strstr(path, "dist-packages/torch/") ||
                  strstr(path, "/torch/lib/") || strncmp(ac_basename(path), "torch-", 6) == 0;
    set->count++;
    return f;
}

static void ac_file_free(gp_ac_file *f)
{
    for (size_t i = 0; i < f->entry_count; i++)
        free(f->entries[i].list_name);
    for (size_t i = 0; i < f->member_count; i++)
        free(f->members[i]);
    free(f->members);
    free(f->entries);
    free(f->containers);
    free(f->path);
    free(f->list_base);
    free(f->error);
}

void gp_ac_set_drop_last(gp_ac_set *set)
{
    if (set->count) ac_file_free(&set->files[--set->count]);
}

void gp_ac_set_free(gp_ac_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        ac_file_free(&set->files[i]);
    free(set->files);
    memset(set, 0, sizeof *set);
}

/* The report prints "PATH: error": a reader's "PATH: reason" keeps only the reason. */
static void ac_file_fail(gp_ac_file *f, const char *msg)
{
    size_t n = strlen(f->path);
    f->status = GP_AC_MALFORMED;
    f->error = ac_dup(
        strncmp(msg, f->path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg);
}

/* Reads one regular file. `in_dir`: found by a directory walk, where files without device code
 * are counted, not listed. */
static size_t ac_add_file(gp_ac_set *set, const char *path, bool in_dir)
{
    char err[512];
    gp_mapped_file m;
    gp_term_progress("archcheck: %s", path);
    if (gp_map_file(path, &m, err, sizeof err) != 0) {
        gp_ac_file *f = gp_ac_set_new_file(set, path, ac_basename(path));
        if (f) ac_file_fail(f, err);
        return f ? 1 : 0;
    }
    if (ac_ends_with(path, ".whl")) {
        size_t n = gp_ac_wheel_add(set, path, m.data, m.size);
        gp_unmap_file(&m);
        return n;
    }
    gp_ac_file *f = gp_ac_set_new_file(set, path, ac_basename(path));
    if (!f) {
        gp_unmap_file(&m);
        return 0;
    }
    gp_ac_inventory_buffer(f, m.data, m.size, true);
    gp_unmap_file(&m);
    /* A file named on the command line that is none of the formats read is bad input, not "no
     * device code" (a walk opens only files whose name or first bytes say what they are). */
    if (!in_dir && f->unknown_format)
        ac_file_fail(f, ac_ends_with(path, ".ptx")
                            ? "not PTX text: no .version and .target directives in its first 64 "
                              "KiB"
                            : "not an ELF file, static library, fatbin or PTX text (none of the "
                              "formats archcheck reads)");
    if (in_dir && f->status == GP_AC_NO_CODE) {
        gp_ac_set_drop_last(set);
        set->skipped_without_code++;
        return 0;
    }
    return 1;
}

/* Whether a file below a directory is worth opening: ELF, ar archive, fatbin, .ptx, .whl. */
static bool ac_dir_candidate(const char *path, const char *name)
{
    if (ac_ends_with(name, ".ptx") || ac_ends_with(name, ".whl") || ac_ends_with(name, ".fatbin"))
        return true;
    char err[512];
    int fd = gp_open_regular(path, GP_OPEN_NOFOLLOW, NULL, err, sizeof err);
    if (fd < 0) return true; /* let the reader report why it cannot be opened */
    unsigned char b[4];
    ssize_t n = read(fd, b, 4);
    close(fd);
    return n == 4 && ((b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') ||
                      memcmp(b, "!<ar", 4) == 0 || gp_fatbin_is_container(b, 4, 0));
}

static size_t ac_add_dir(gp_ac_set *set, const char *path, int depth)
{
    /* sorted, so that the report is the same on every run and file system */
    char **names, msg[512];
    size_t n;
    if (gp_dir_names(path, &names, &n, msg, sizeof msg) != 0) {
        gp_ac_file *f = gp_ac_set_new_file(set, path, ac_basename(path));
        if (f) ac_file_fail(f, msg);
        return f ? 1 : 0;
    }
    size_t added = 0;
    for (size_t i = 0; i < n; i++) {
        char *child = gp_path_join(path, names[i]);
        struct stat st;
        if (child && lstat(child, &st) == 0) {
            if (S_ISDIR(st.st_mode) && depth < AC_MAX_DEPTH)
                added += ac_add_dir(set, child, depth + 1);
            else if (S_ISREG(st.st_mode) && ac_dir_candidate(child, names[i]))
                added += ac_add_file(set, child, true);
        } else if (child) {
            gp_ac_file *f = gp_ac_set_new_file(set, child, names[i]);
            if (f) {
                snprintf(msg, sizeof msg, "%s: %s", child, strerror(errno));
                ac_file_fail(f, msg);
                added++;
            }
        }
        free(child);
    }
    gp_dir_names_free(names, n);
    return added;
}

size_t gp_ac_set_add_path(gp_ac_set *set, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        gp_ac_file *f = gp_ac_set_new_file(set, path, ac_basename(path));
        if (f) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
            ac_file_fail(f, msg);
        }
        return f ? 1 : 0;
    }
    if (S_ISDIR(st.st_mode)) return ac_add_dir(set, path, 0);
    return ac_add_file(set, path, false);
}
