/* fixture_files.h — for the audit tests: reading a file whole, and visiting every regular file
 * under a folder (dot entries and symbolic links left out). */
#ifndef GP_TEST_FIXTURE_FILES_H
#define GP_TEST_FIXTURE_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char *fx_read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *d = malloc((size_t)len + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    d[len] = '\0';
    *n = (size_t)len;
    return d;
}

static void fx_walk(const char *dir, void (*visit)(const char *path, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
            fx_walk(p, visit, ctx);
        else if (S_ISREG(st.st_mode))
            visit(p, ctx);
    }
    closedir(d);
}

#endif
