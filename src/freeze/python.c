/* python.c — the Python in use and its installed distributions, and the active conda
 * environment. Distributions are read from *.dist-info / *.egg-info folders (not by running pip).
 * The interpreter's real search path exists only inside the interpreter (pyenv shims, venvs, .pth
 * files), so the interpreter is run once to print it. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "freeze/collect.h"
#include "util/sys.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/spawn.h"

static const char py_probe[] =
    "import sys, json\n"
    "print(json.dumps({'executable': sys.executable, 'version': sys.version.split()[0],\n"
    "  'prefix': sys.prefix, 'implementation': sys.implementation.name,\n"
    "  'path': [p for p in sys.path if p]}))\n";

/* "Name: x" style header value from the first lines of METADATA / PKG-INFO. */
static char *metadata_field(const char *text, const char *field)
{
    size_t fl = strlen(field);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (*p == '\n' || *p == '\r') break; /* end of the header block */
        if (strncmp(p, field, fl) == 0 && p[fl] == ':') {
            const char *v = p + fl + 1;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            return strndup(v, len);
        }
    }
    return NULL;
}

/* Adds the distribution in folder `name` of `dir` to `dists` (first found wins, like import). */
static void add_distribution(cJSON *dists, const char *dir, const char *name)
{
    size_t nl = strlen(name);
    bool dist_info = nl > 10 && strcmp(name + nl - 10, ".dist-info") == 0;
    bool egg_info = nl > 9 && strcmp(name + nl - 9, ".egg-info") == 0;
    if (!dist_info && !egg_info) return;
    char *folder = gp_path_join(dir, name);
    char *meta = folder ? gp_path_join(folder, dist_info ? "METADATA" : "PKG-INFO") : NULL;
    char err[256];
    char *text = meta ? gp_read_file(meta, 64 * 1024, true, NULL, err, sizeof err) : NULL;
    if (!text && egg_info && meta && !gp_path_is_dir(folder)) /* old egg-info is a file */
        text = gp_read_file(folder, 64 * 1024, true, NULL, err, sizeof err);
    char *dname = text ? metadata_field(text, "Name") : NULL;
    char *dver = text ? metadata_field(text, "Version") : NULL;
    if (!dname || !dver) { /* fall back on the folder name: name-version.dist-info */
        free(dname);
        free(dver);
        size_t stem = nl - (dist_info ? 10 : 9);
        const char *dash = memchr(name, '-', stem);
        dname = dash ? strndup(name, (size_t)(dash - name)) : strndup(name, stem);
        dver = dash ? strndup(dash + 1, stem - (size_t)(dash + 1 - name)) : strdup("unknown");
        char *dash2 = dver ? strchr(dver, '-') : NULL; /* egg: name-ver-py3.11 */
        if (dash2) *dash2 = '\0';
    }
    if (dname && dver && !cJSON_GetObjectItemCaseSensitive(dists, dname))
        cJSON_AddStringToObject(dists, dname, dver);
    free(dname);
    free(dver);
    free(text);
    free(meta);
    free(folder);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Folders of `dir` in name order, so the manifest is stable. */
static void scan_site(cJSON *dists, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, "-info")) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **p = realloc(names, cap * sizeof *p);
            if (!p) break;
            names = p;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (names[i]) add_distribution(dists, dir, names[i]);
        free(names[i]);
    }
    free(names);
}

/* Sorts an object's members by key (cJSON keeps insertion order). */
static void sort_object(cJSON *o)
{
    size_t n = (size_t)cJSON_GetArraySize(o);
    if (n < 2) return;
    cJSON **items = malloc(n * sizeof *items);
    if (!items) return;
    size_t k = 0;
    while (o->child)
        items[k++] = cJSON_DetachItemViaPointer(o, o->child);
    for (size_t i = 1; i < n; i++) /* insertion sort by key; n is a few hundred */
        for (size_t j = i; j > 0 && strcmp(items[j - 1]->string, items[j]->string) > 0; j--) {
            cJSON *t = items[j];
            items[j] = items[j - 1];
            items[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToObject(o, items[i]->string, items[i]);
    free(items);
}

cJSON *gp_freeze_python(const char *python)
{
    const char *py = python ? python : GP_PYTHON_COMMAND;
    /* Not -I or -S: PYTHONPATH and site-packages are part of the Python in use. */
    char *argv[] = {(char *)py, "-c", (char *)py_probe, NULL};
    gp_spawn_result r;
    char err[512];
    if (gp_spawn_capture(argv, NULL, 30.0, 1 << 20, &r, err, sizeof err) != 0)
        return gp_freeze_unavailable(err);
    if (r.exit_code != 0) {
        char why[512];
        snprintf(why, sizeof why, "%s exited with %d: %.200s", py, r.exit_code, r.err);
        gp_spawn_result_free(&r);
        return gp_freeze_unavailable(why);
    }
    cJSON *info = gp_json_parse(py, r.out, r.out_len, err, sizeof err);
    gp_spawn_result_free(&r);
    if (!info) return gp_freeze_unavailable(err);
    cJSON *dists = cJSON_CreateObject();
    cJSON *path = cJSON_GetObjectItemCaseSensitive(info, "path");
    cJSON *p;
    cJSON_ArrayForEach(p, path)
    {
        if (cJSON_IsString(p) && gp_path_is_dir(p->valuestring)) scan_site(dists, p->valuestring);
    }
    sort_object(dists);
    cJSON_AddItemToObject(info, "distributions", dists);
    return info;
}

cJSON *gp_freeze_conda(void)
{
    const char *prefix = getenv("CONDA_PREFIX");
    if (!prefix || !*prefix) return gp_freeze_unavailable("no active conda environment");
    char *meta = gp_path_join(prefix, "conda-meta");
    DIR *d = meta ? opendir(meta) : NULL;
    if (!d) {
        free(meta);
        return gp_freeze_unavailable("CONDA_PREFIX has no conda-meta folder");
    }
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "prefix", prefix);
    const char *name = getenv("CONDA_DEFAULT_ENV");
    if (name) cJSON_AddStringToObject(c, "name", name);
    cJSON *pkgs = cJSON_AddObjectToObject(c, "packages");
    struct dirent *e;
    /* conda-meta/NAME-VERSION-BUILD.json: version and build never contain '-'. */
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char *s = strndup(e->d_name, n - 5);
        char *b = s ? strrchr(s, '-') : NULL;
        char *v = NULL;
        if (b) {
            *b = '\0';
            v = strrchr(s, '-');
        }
        if (b && v) {
            *v = '\0';
            char ver[256];
            snprintf(ver, sizeof ver, "%s-%s", v + 1, b + 1);
            cJSON_AddStringToObject(pkgs, s, ver);
        }
        free(s);
    }
    closedir(d);
    free(meta);
    sort_object(pkgs);
    return c;
}
