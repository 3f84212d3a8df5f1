/* runs.c — see runs.h. The staging folder's name starts with '.', so a listing of runs/ never
 * shows a run that is not done; the swap of a replaced folder is two renames (the old one aside,
 * the new one in) and the removal of the old one. */
#define _XOPEN_SOURCE 700
#include "remote/runs.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "remote/worktree.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/strbuf.h"

#define RUN_RECORD_CAP (1u << 20)

char *gp_run_folder(const char *root, const char *id)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(&sb, "%s/runs/%s", root, id);
    return gp_strbuf_take(&sb);
}

static char *run_staging_path(const char *root, const char *id)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(&sb, "%s/runs/.%s.partial", root, id);
    return gp_strbuf_take(&sb);
}

static int run_rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    remove(path);
    return 0;
}

void gp_run_discard(const char *staging)
{
    if (staging && *staging) nftw(staging, run_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int run_mkdir_runs(const char *root, char *err, size_t errlen)
{
    char *runs = gp_path_join(root, "runs");
    int rc = runs && gp_mkdir_p(runs, 0755) == 0 ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "%s: cannot create the folder: %s", runs ? runs : root,
                 strerror(errno));
    free(runs);
    return rc;
}

int gp_run_restage(const char *root, const char *id, char **staging, char *err, size_t errlen)
{
    *staging = NULL;
    if (run_mkdir_runs(root, err, errlen)) return -1;
    char *p = run_staging_path(root, id);
    if (!p) return snprintf(err, errlen, "out of memory"), -1;
    gp_run_discard(p); /* what an interrupted fetch of the same run left */
    if (mkdir(p, 0755) != 0) {
        snprintf(err, errlen, "%s: cannot create the folder: %s", p, strerror(errno));
        free(p);
        return -1;
    }
    *staging = p;
    return 0;
}

int gp_run_begin(const char *root, const char *suffix, char *id, size_t idlen, char **staging,
                 char *err, size_t errlen)
{
    *staging = NULL;
    if (run_mkdir_runs(root, err, errlen)) return -1;
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int k = 1; k < 1000; k++) {
        char n[16] = "";
        if (k > 1) snprintf(n, sizeof n, "-%d", k);
        snprintf(id, idlen, "%s%s%s%s", stamp, n, suffix ? "-" : "", suffix ? suffix : "");
        char *done = gp_run_folder(root, id), *p = run_staging_path(root, id);
        bool taken = !done || !p || gp_path_exists(done);
        int made = taken ? -1 : mkdir(p, 0755);
        int e = errno;
        free(done);
        if (made == 0) {
            *staging = p;
            return 0;
        }
        free(p);
        if (!taken && e != EEXIST) {
            snprintf(err, errlen, "%s/runs: cannot create a folder for the run: %s", root,
                     strerror(e));
            return -1;
        }
    }
    snprintf(err, errlen, "%s/runs: too many runs started in one second", root);
    return -1;
}

static int run_point_latest(const char *root, const char *id, char *err, size_t errlen)
{
    char *latest = gp_path_join(root, "latest");
    gp_strbuf tmp = GP_STRBUF_INIT, target = GP_STRBUF_INIT;
    gp_strbuf_printf(&tmp, "%s/.latest.%ld", root, (long)getpid());
    gp_strbuf_printf(&target, "runs/%s", id);
    int rc = -1;
    struct stat st;
    if (!latest || tmp.failed || target.failed) {
        snprintf(err, errlen, "out of memory");
    } else if (lstat(latest, &st) == 0 && !S_ISLNK(st.st_mode)) {
        snprintf(err, errlen,
                 "%s is not a symbolic link gpuport made: left alone (this run is in %s/runs/%s)",
                 latest, root, id);
    } else {
        unlink(gp_strbuf_cstr(&tmp));
        if (symlink(gp_strbuf_cstr(&target), gp_strbuf_cstr(&tmp)) != 0 ||
            rename(gp_strbuf_cstr(&tmp), latest) != 0) {
            snprintf(err, errlen, "%s: cannot point it at runs/%s: %s", latest, id,
                     strerror(errno));
            unlink(gp_strbuf_cstr(&tmp));
        } else {
            rc = 0;
        }
    }
    free(latest);
    gp_strbuf_free(&tmp);
    gp_strbuf_free(&target);
    return rc;
}

int gp_run_publish(const char *root, const char *id, const char *staging, bool set_latest,
                   char *err, size_t errlen)
{
    char *done = gp_run_folder(root, id);
    gp_strbuf old = GP_STRBUF_INIT;
    gp_strbuf_printf(&old, "%s/runs/.%s.old.%ld", root, id, (long)getpid());
    if (!done || old.failed) {
        free(done);
        gp_strbuf_free(&old);
        return snprintf(err, errlen, "out of memory"), -1;
    }
    int rc = 0;
    bool had = gp_path_exists(done);
    if (had && rename(done, gp_strbuf_cstr(&old)) != 0) {
        snprintf(err, errlen, "%s: cannot replace it: %s", done, strerror(errno));
        rc = -1;
    } else if (rename(staging, done) != 0) {
        snprintf(err, errlen, "%s: cannot put the run there: %s", done, strerror(errno));
        if (had) rename(gp_strbuf_cstr(&old), done);
        rc = -1;
    }
    if (rc == 0 && had) gp_run_discard(gp_strbuf_cstr(&old));
    if (rc == 0 && set_latest) rc = run_point_latest(root, id, err, errlen);
    free(done);
    gp_strbuf_free(&old);
    return rc;
}

int gp_run_record_write(const char *folder, const cJSON *rec, char *err, size_t errlen)
{
    char *text = cJSON_Print(rec), *file = gp_path_join(folder, "run.json");
    int rc = -1;
    if (!text || !file) {
        snprintf(err, errlen, "out of memory");
    } else {
        gp_strbuf sb = GP_STRBUF_INIT;
        gp_strbuf_puts(&sb, text);
        gp_strbuf_putc(&sb, '\n');
        rc = sb.failed ? -1 : gp_write_file_atomic(file, sb.data, sb.len, err, errlen);
        gp_strbuf_free(&sb);
    }
    cJSON_free(text);
    free(file);
    return rc;
}

/* "" or a safe relative folder ending in '/'. */
static bool run_folder_ok(const char *f)
{
    size_t n = strlen(f);
    if (n == 0) return true;
    if (f[n - 1] != '/' || n > 4096) return false;
    char buf[4097];
    memcpy(buf, f, n - 1);
    buf[n - 1] = '\0';
    return gp_worktree_path_safe(buf);
}

static bool run_digits(const char *s)
{
    if (!s || !*s || strlen(s) > 20) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

static bool run_id_ok(const char *id)
{
    if (!id || !*id || strlen(id) > 64 || id[0] == '.') return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || *p == '-')) return false;
    return true;
}

const char *gp_run_record_check(const cJSON *r)
{
    if (!cJSON_IsObject(r)) return "not a JSON object";
    const char *dup = NULL;
    if (gp_json_find_duplicate_key(r, &dup)) return "a key appears twice in one object";
    const char *schema = gp_json_str(r, "schema", NULL);
    if (!schema || strcmp(schema, GP_RUN_SCHEMA) != 0) return "\"schema\" is not " GP_RUN_SCHEMA;
    if (!run_id_ok(gp_json_str(r, "id", NULL))) return "\"id\" is not a run id";
    const char *folder = gp_json_str(r, "folder", NULL);
    if (!folder || !run_folder_ok(folder)) return "\"folder\" is not a relative folder";
    const char *rf = gp_json_str(r, "remote_folder", NULL);
    if (!rf || !*rf || rf[0] == '-') return "\"remote_folder\" is missing";
    for (const unsigned char *p = (const unsigned char *)rf; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return "\"remote_folder\" holds control characters";
    const cJSON *fetch = cJSON_GetObjectItemCaseSensitive(r, "fetch");
    if (!cJSON_IsArray(fetch)) return "\"fetch\" is not an array";
    const cJSON *g;
    cJSON_ArrayForEach(g, fetch)
    {
        if (!cJSON_IsString(g) || !gp_worktree_path_safe(g->valuestring))
            return "\"fetch\" holds something that is not a relative pattern";
    }
    const cJSON *job = cJSON_GetObjectItemCaseSensitive(r, "job");
    if (job && !cJSON_IsNull(job)) {
        if (!cJSON_IsObject(job) || !run_digits(gp_json_str(job, "id", NULL)))
            return "\"job\" is not null or an object with a numeric \"id\"";
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(job, "batch");
        if (b && !cJSON_IsBool(b)) return "\"job.batch\" is not true or false";
    }
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(r, "compare");
    if (cmp && !cJSON_IsNull(cmp)) {
        if (!cJSON_IsObject(cmp)) return "\"compare\" is not null or an object";
        const char *glob = gp_json_str(cmp, "glob", NULL);
        if (!glob || !gp_worktree_path_safe(glob)) return "\"compare.glob\" is not a pattern";
        static const char *const opt[] = {"rtol", "atol", "policy"};
        for (size_t i = 0; i < 3; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(cmp, opt[i]);
            if (v && !cJSON_IsNull(v) && !cJSON_IsString(v))
                return "\"compare\" options must be strings or null";
        }
    }
    return NULL;
}

cJSON *gp_run_record_read(const char *file, char *err, size_t errlen)
{
    cJSON *r = gp_json_parse_file(file, RUN_RECORD_CAP, err, errlen);
    if (!r) return NULL;
    const char *why = gp_run_record_check(r);
    if (why) {
        snprintf(err, errlen, "%s: %s", file, why);
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

void gp_run_list_free(char **ids, char **jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (ids) free(ids[i]);
        if (jobs) free(jobs[i]);
    }
    free(ids);
    free(jobs);
}

int gp_run_list_batch(const char *root, char ***ids, char ***jobs, size_t *n, char *err,
                      size_t errlen)
{
    *ids = *jobs = NULL;
    *n = 0;
    char *runs = gp_path_join(root, "runs");
    if (!runs) return snprintf(err, errlen, "out of memory"), -1;
    if (!gp_path_is_dir(runs)) {
        free(runs);
        return 0;
    }
    char **names = NULL;
    size_t count = 0;
    if (gp_dir_names(runs, &names, &count, err, errlen) != 0) {
        free(runs);
        return -1;
    }
    *ids = calloc(count + 1, sizeof **ids);
    *jobs = calloc(count + 1, sizeof **jobs);
    int rc = *ids && *jobs ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        if (names[i][0] == '.') continue;
        gp_strbuf f = GP_STRBUF_INIT;
        gp_strbuf_printf(&f, "%s/%s/run.json", runs, names[i]);
        char why[512];
        cJSON *r = f.failed ? NULL : gp_run_record_read(gp_strbuf_cstr(&f), why, sizeof why);
        gp_strbuf_free(&f);
        const cJSON *job = r ? cJSON_GetObjectItemCaseSensitive(r, "job") : NULL;
        if (cJSON_IsObject(job) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(job, "batch"))) {
            (*ids)[*n] = strdup(names[i]);
            (*jobs)[*n] = strdup(gp_json_str(job, "id", ""));
            if (!(*ids)[*n] || !(*jobs)[*n]) rc = -1;
            (*n)++;
        }
        cJSON_Delete(r);
    }
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        gp_run_list_free(*ids, *jobs, *n);
        *ids = *jobs = NULL;
        *n = 0;
    }
    gp_dir_names_free(names, count);
    free(runs);
    return rc;
}
