/* doctor.c — see doctor.h. Only the documented fields are read; anything else in a report is
 * ignored, and a missing field reads as "unknown" rather than as a difference. */
#include "remote/doctor.h"

#include <string.h>

#include "util/term.h"

static const char *const doctor_backends[] = {"cuda", "metal", "opencl", "cpu"};

const char *gp_remote_doctor_check(const cJSON *j)
{
    if (!cJSON_IsObject(j)) return "not a JSON object";
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    if (cJSON_IsString(schema) && strncmp(schema->valuestring, "gpuport.doctor/", 15) != 0)
        return "its \"schema\" is not gpuport.doctor";
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "capabilities")))
        return "it has no \"capabilities\" object";
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "checks")))
        return "it has no \"checks\" array";
    return NULL;
}

static const cJSON *doctor_cap(const cJSON *report, const char *backend)
{
    return cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(report, "capabilities"), backend);
}

/* "run", "compile only", "no: REASON" or "unknown". */
static void doctor_cap_text(const cJSON *cap, char *buf, size_t len)
{
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(cap, "run");
    const cJSON *compile = cJSON_GetObjectItemCaseSensitive(cap, "compile");
    const char *reason = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cap, "reason"))
                             ? cJSON_GetObjectItemCaseSensitive(cap, "reason")->valuestring
                             : NULL;
    if (!cJSON_IsObject(cap))
        snprintf(buf, len, "unknown");
    else if (cJSON_IsTrue(run))
        snprintf(buf, len, "runs");
    else if (cJSON_IsTrue(compile))
        snprintf(buf, len, "compiles only%s%s", reason ? ": " : "", reason ? reason : "");
    else
        snprintf(buf, len, "no%s%s", reason ? ": " : "", reason ? reason : "");
}

static const cJSON *doctor_find_check(const cJSON *report, const char *id)
{
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(report, "checks");
    const cJSON *c;
    cJSON_ArrayForEach(c, checks)
    {
        const cJSON *cid = cJSON_GetObjectItemCaseSensitive(c, "id");
        if (cJSON_IsString(cid) && strcmp(cid->valuestring, id) == 0) return c;
    }
    return NULL;
}

/* "STATUS OBSERVED" of one check, or "absent". */
static void doctor_check_text(const cJSON *c, char *buf, size_t len)
{
    if (!c) {
        snprintf(buf, len, "absent");
        return;
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
    const cJSON *ob = cJSON_GetObjectItemCaseSensitive(c, "observed");
    char obs[256] = "";
    if (cJSON_IsString(ob))
        snprintf(obs, sizeof obs, "%s", ob->valuestring);
    else if (ob && !cJSON_IsNull(ob)) {
        char *p = cJSON_PrintUnformatted(ob);
        if (p) snprintf(obs, sizeof obs, "%s", p);
        cJSON_free(p);
    }
    snprintf(buf, len, "%s%s%s", cJSON_IsString(st) ? st->valuestring : "?", obs[0] ? " " : "",
             obs);
}

static void doctor_add(cJSON *diff, const char *what, const char *l, const char *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "what", what);
    cJSON_AddStringToObject(o, "local", l);
    cJSON_AddStringToObject(o, "remote", r);
    cJSON_AddItemToArray(diff, o);
}

/* Every check id of `a`, then those only in `b`, each once. */
static void doctor_check_ids(const cJSON *a, const cJSON *b, cJSON *ids)
{
    const cJSON *reports[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(reports[k], "checks"))
        {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
            if (!cJSON_IsString(id)) continue;
            bool seen = false;
            const cJSON *x;
            cJSON_ArrayForEach(x, ids) seen = seen || strcmp(x->valuestring, id->valuestring) == 0;
            if (!seen) cJSON_AddItemToArray(ids, cJSON_CreateString(id->valuestring));
        }
    }
}

cJSON *gp_remote_doctor_diff(const cJSON *local, const cJSON *remote)
{
    cJSON *diff = cJSON_CreateArray();
    char l[512], r[512];
    for (size_t i = 0; i < sizeof doctor_backends / sizeof *doctor_backends; i++) {
        const cJSON *lc = doctor_cap(local, doctor_backends[i]);
        const cJSON *rc = doctor_cap(remote, doctor_backends[i]);
        if (!lc || !rc) continue;
        bool lr = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lc, "run"));
        bool rr = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rc, "run"));
        bool lk = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lc, "compile"));
        bool rk = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rc, "compile"));
        if (lr == rr && lk == rk) continue;
        doctor_cap_text(lc, l, sizeof l);
        doctor_cap_text(rc, r, sizeof r);
        doctor_add(diff, doctor_backends[i], l, r);
    }
    cJSON *ids = cJSON_CreateArray();
    doctor_check_ids(local, remote, ids);
    const cJSON *id;
    cJSON_ArrayForEach(id, ids)
    {
        const cJSON *lc = doctor_find_check(local, id->valuestring);
        const cJSON *rc = doctor_find_check(remote, id->valuestring);
        doctor_check_text(lc, l, sizeof l);
        doctor_check_text(rc, r, sizeof r);
        /* A check one side does not run (say, Metal on Linux) is not a difference by itself. */
        if (!lc || !rc || strcmp(l, r) == 0) continue;
        doctor_add(diff, id->valuestring, l, r);
    }
    cJSON_Delete(ids);
    return diff;
}

void gp_remote_doctor_print(FILE *f, const char *name, const cJSON *local, const cJSON *remote,
                            const cJSON *diff)
{
    const char *b = gp_term_color(f, GP_COLOR_BOLD), *z = gp_term_color(f, GP_COLOR_RESET);
    char l[512], r[512];
    fprintf(f, "%s%-22s %-38s %s%s\n", b, "", "this machine", name, z);
    for (size_t i = 0; i < sizeof doctor_backends / sizeof *doctor_backends; i++) {
        doctor_cap_text(doctor_cap(local, doctor_backends[i]), l, sizeof l);
        doctor_cap_text(doctor_cap(remote, doctor_backends[i]), r, sizeof r);
        fprintf(f, "%-22s %-38.38s %s\n", doctor_backends[i], l, r);
    }
    cJSON *ids = cJSON_CreateArray();
    doctor_check_ids(local, remote, ids);
    const cJSON *id;
    cJSON_ArrayForEach(id, ids)
    {
        doctor_check_text(doctor_find_check(local, id->valuestring), l, sizeof l);
        doctor_check_text(doctor_find_check(remote, id->valuestring), r, sizeof r);
        fprintf(f, "%-22.22s %-38.38s %s\n", id->valuestring, l, r);
    }
    cJSON_Delete(ids);
    int n = cJSON_GetArraySize(diff);
    if (n == 0) {
        fprintf(f, "\nNo differences that matter.\n");
        return;
    }
    const char *y = gp_term_color(f, GP_COLOR_YELLOW);
    fprintf(f, "\n%s%d difference%s that matter%s:%s\n", y, n, n == 1 ? "" : "s", n == 1 ? "s" : "",
            z);
    const cJSON *d;
    cJSON_ArrayForEach(d, diff)
    {
        fprintf(f, "  %s: here %s; on %s %s\n", cJSON_GetObjectItem(d, "what")->valuestring,
                cJSON_GetObjectItem(d, "local")->valuestring, name,
                cJSON_GetObjectItem(d, "remote")->valuestring);
    }
}
