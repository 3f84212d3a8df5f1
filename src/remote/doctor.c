/* doctor.c — see doctor.h. Only the documented fields are read; anything else in a report is
 * ignored, and a missing field reads as "unknown" rather than as a difference. */
#include "remote/doctor.h"

#include <stdbool.h>
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

typedef enum doctor_state {
    DOCTOR_UNKNOWN,
    DOCTOR_NO,
    DOCTOR_COMPILES,
    DOCTOR_RUNS,
    DOCTOR_PRESENT
} doctor_state;

static bool doctor_flag(const cJSON *cap, const char *key, bool *present)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cap, key);
    if (cJSON_IsBool(v)) *present = true;
    return cJSON_IsTrue(v);
}

static const char *doctor_strfield(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* What a backend can do: "run" (or "available") true, else "compile" true, else no; a backend
 * object with none of these flags (the CPU) is simply present. */
static doctor_state doctor_cap_state(const cJSON *cap)
{
    if (!cJSON_IsObject(cap)) return DOCTOR_UNKNOWN;
    bool flags = false;
    bool run = doctor_flag(cap, "run", &flags);
    bool available = doctor_flag(cap, "available", &flags);
    if (run || available) return DOCTOR_RUNS;
    if (doctor_flag(cap, "compile", &flags)) return DOCTOR_COMPILES;
    return flags ? DOCTOR_NO : DOCTOR_PRESENT;
}

static void doctor_cap_text(const cJSON *cap, char *buf, size_t len)
{
    const char *reason = doctor_strfield(cap, "reason");
    const char *summary = doctor_strfield(cap, "summary");
    switch (doctor_cap_state(cap)) {
    case DOCTOR_UNKNOWN:
        snprintf(buf, len, "unknown");
        break;
    case DOCTOR_RUNS:
        snprintf(buf, len, "runs");
        break;
    case DOCTOR_COMPILES:
        snprintf(buf, len, "compiles only%s%s", reason ? ": " : "", reason ? reason : "");
        break;
    case DOCTOR_NO:
        snprintf(buf, len, "no%s%s", reason ? ": " : "", reason ? reason : "");
        break;
    case DOCTOR_PRESENT:
        snprintf(buf, len, "yes%s%s", summary ? ": " : "", summary ? summary : "");
        break;
    }
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

/* Versions a CUDA capability may carry: a result from toolkit 12 and one from 13 differ. */
static const char *const doctor_cuda_versions[] = {"toolkit", "driver", "driver_cuda"};

/* The backend `auto` would pick (cuda, metal, opencl, then the CPU, as in the runtime): the
 * first one that runs. */
static const char *doctor_auto_pick(const cJSON *report)
{
    for (size_t i = 0; i + 1 < sizeof doctor_backends / sizeof *doctor_backends; i++)
        if (doctor_cap_state(doctor_cap(report, doctor_backends[i])) == DOCTOR_RUNS)
            return doctor_backends[i];
    return "cpu";
}

static void doctor_diff_caps(const cJSON *local, const cJSON *remote, cJSON *diff)
{
    char l[512], r[512];
    for (size_t i = 0; i < sizeof doctor_backends / sizeof *doctor_backends; i++) {
        const cJSON *lc = doctor_cap(local, doctor_backends[i]);
        const cJSON *rc = doctor_cap(remote, doctor_backends[i]);
        if (!lc || !rc) continue;
        if (doctor_cap_state(lc) != doctor_cap_state(rc)) {
            doctor_cap_text(lc, l, sizeof l);
            doctor_cap_text(rc, r, sizeof r);
            doctor_add(diff, doctor_backends[i], l, r);
        }
        for (size_t k = 0; i == 0 && k < 3; k++) {
            const char *lv = doctor_strfield(lc, doctor_cuda_versions[k]);
            const char *rv = doctor_strfield(rc, doctor_cuda_versions[k]);
            if (!lv || !rv || strcmp(lv, rv) == 0) continue;
            snprintf(l, sizeof l, "cuda %s", doctor_cuda_versions[k]);
            doctor_add(diff, l, lv, rv);
        }
    }
}

static const char *doctor_status(const cJSON *c)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "status");
    return cJSON_IsString(st) ? st->valuestring : "?";
}

cJSON *gp_remote_doctor_diff(const cJSON *local, const cJSON *remote)
{
    cJSON *diff = cJSON_CreateArray();
    doctor_diff_caps(local, remote, diff);
    if (strcmp(doctor_auto_pick(local), doctor_auto_pick(remote)) != 0)
        doctor_add(diff, "device auto picks", doctor_auto_pick(local), doctor_auto_pick(remote));
    char l[512], r[512];
    cJSON *ids = cJSON_CreateArray();
    doctor_check_ids(local, remote, ids);
    const cJSON *id;
    cJSON_ArrayForEach(id, ids)
    {
        const cJSON *lc = doctor_find_check(local, id->valuestring);
        const cJSON *rc = doctor_find_check(remote, id->valuestring);
        /* A check one side does not have (say, Metal on Linux) is not a difference by itself. */
        if (!lc || !rc) continue;
        const char *ls = doctor_status(lc), *rs = doctor_status(rc);
        doctor_check_text(lc, l, sizeof l);
        doctor_check_text(rc, r, sizeof r);
        /* Different outcomes matter; different observations matter only where both sides
         * really checked something (not a skip, not a note such as the OS name). */
        bool matters = strcmp(ls, rs) != 0 ||
                       (strcmp(ls, "info") != 0 && strcmp(ls, "skip") != 0 && strcmp(l, r) != 0);
        if (matters) doctor_add(diff, id->valuestring, l, r);
    }
    cJSON_Delete(ids);
    return diff;
}

/* The next piece of *s that fits `w` columns, broken after a space where one is in reach (a
 * word longer than the column is cut); *s moves past it and the spaces after it. */
static void doctor_piece(const char **s, int w, char *out, size_t outlen)
{
    const char *p = *s;
    size_t len = strlen(p);
    size_t take = len <= (size_t)w ? len : (size_t)w;
    if (take < len) {
        size_t sp = take;
        while (sp > 0 && p[sp] != ' ')
            sp--;
        if (sp > 0) take = sp;
    }
    if (take >= outlen) take = outlen - 1;
    memcpy(out, p, take);
    out[take] = '\0';
    p += take;
    while (*p == ' ')
        p++;
    *s = p;
}

/* One row of the table: the key (22 columns) and this machine's text (38) wrap onto as many
 * lines as they need, so nothing is cut; the other machine's text, the last column, stays whole
 * on the first line. */
static void doctor_row(FILE *f, const char *key, const char *l, const char *r)
{
    const char *k = key, *a = l;
    for (bool first = true; first || *k || *a; first = false) {
        char kp[64], ap[64];
        doctor_piece(&k, 22, kp, sizeof kp);
        doctor_piece(&a, 38, ap, sizeof ap);
        if (first && *r)
            fprintf(f, "%-22s %-38s %s\n", kp, ap, r);
        else if (*ap)
            fprintf(f, "%-22s %s\n", kp, ap);
        else
            fprintf(f, "%s\n", kp);
    }
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
        doctor_row(f, doctor_backends[i], l, r);
    }
    doctor_row(f, "device auto picks", doctor_auto_pick(local), doctor_auto_pick(remote));
    cJSON *ids = cJSON_CreateArray();
    doctor_check_ids(local, remote, ids);
    const cJSON *id;
    cJSON_ArrayForEach(id, ids)
    {
        doctor_check_text(doctor_find_check(local, id->valuestring), l, sizeof l);
        doctor_check_text(doctor_find_check(remote, id->valuestring), r, sizeof r);
        doctor_row(f, id->valuestring, l, r);
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
