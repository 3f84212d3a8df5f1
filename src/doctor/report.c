/* report.c — see report.h. The human report is rendered from the JSON object, so the two
 * never disagree. */
#include "doctor/report.h"

#include <stdarg.h>
#include <string.h>

#include "doctor/doctor.h"
#include "doctor/summary.h"
#include "doctor/sysroot.h"
#include "util/term.h"

static const char *const status_names[] = {"pass", "warn", "fail", "info", "skip"};

const char *gp_check_status_name(gp_check_status st)
{
    return (unsigned)st < 5 ? status_names[st] : "info";
}

gp_check *gp_report_add(gp_doctor_report *r, const char *group, const char *id, gp_check_status st)
{
    if (r->count >= GP_DOCTOR_MAX_CHECKS) r->count = GP_DOCTOR_MAX_CHECKS - 1;
    gp_check *c = &r->checks[r->count++];
    memset(c, 0, sizeof *c);
    gp_copy(c->id, sizeof c->id, id);
    gp_copy(c->group, sizeof c->group, group);
    c->status = st;
    return c;
}

/* The length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0. */
static int utf8_len(const unsigned char *p)
{
    int n = p[0] >= 0xc2 && p[0] <= 0xdf   ? 2
            : p[0] >= 0xe0 && p[0] <= 0xef ? 3
            : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                           : 0;
    for (int k = 1; k < n; k++)
        if ((p[k] & 0xc0) != 0x80) return 0; /* also stops at the NUL */
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0; /* overlong forms, surrogates, beyond U+10FFFF */
    return n;
}

void gp_text_clean(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        if (*p < 0x20 || *p == 0x7f) {
            *p++ = '?';
        } else if (*p < 0x80) {
            p++;
        } else {
            int n = utf8_len(p);
            if (n == 0)
                *p++ = '?';
            else
                p += n;
        }
    }
}

static void vset(char *dst, size_t n, const char *fmt, va_list ap)
{
    vsnprintf(dst, n, fmt, ap);
    gp_text_clean(dst);
}

void gp_check_observed(gp_check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(c->observed, sizeof c->observed, fmt, ap);
    va_end(ap);
}

void gp_check_note(gp_check *c, const char *fmt, ...)
{
    size_t l = strlen(c->observed);
    if (l + 3 >= sizeof c->observed) return;
    if (l) {
        memcpy(c->observed + l, "; ", 3);
        l += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vset(c->observed + l, sizeof c->observed - l, fmt, ap);
    va_end(ap);
}

void gp_check_expected(gp_check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(c->expected, sizeof c->expected, fmt, ap);
    va_end(ap);
}

void gp_check_fix(gp_check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(c->fix, sizeof c->fix, fmt, ap);
    va_end(ap);
}

const gp_check *gp_report_find(const gp_doctor_report *r, const char *id)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->checks[i].id, id) == 0) return &r->checks[i];
    return NULL;
}

bool gp_report_failed(const gp_doctor_report *r)
{
    for (int i = 0; i < r->count; i++)
        if (r->checks[i].status == GP_CHECK_FAIL) return true;
    return false;
}

static cJSON *checks_json(const gp_doctor_report *r, cJSON *counts)
{
    cJSON *arr = cJSON_CreateArray();
    int n[5] = {0};
    for (int i = 0; i < r->count; i++) {
        const gp_check *c = &r->checks[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", c->id);
        cJSON_AddStringToObject(o, "group", c->group);
        cJSON_AddStringToObject(o, "status", gp_check_status_name(c->status));
        cJSON_AddStringToObject(o, "observed", c->observed);
        cJSON_AddStringToObject(o, "expected", c->expected);
        if (c->fix[0])
            cJSON_AddStringToObject(o, "fix", c->fix);
        else
            cJSON_AddNullToObject(o, "fix");
        cJSON_AddItemToArray(arr, o);
        if ((unsigned)c->status < 5) n[c->status]++;
    }
    for (int i = 0; i < 5; i++)
        cJSON_AddNumberToObject(counts, status_names[i], n[i]);
    return arr;
}

cJSON *gp_report_to_json(const gp_doctor_facts *f, const gp_doctor_report *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddStringToObject(o, "schema", GP_DOCTOR_SCHEMA);
    cJSON_AddBoolToObject(o, "ok", !gp_report_failed(r));
    cJSON_AddStringToObject(o, "platform",
                            f->platform == GP_DOCTOR_MACOS     ? "macos"
                            : f->platform == GP_DOCTOR_LINUX   ? "linux"
                            : f->platform == GP_DOCTOR_WINDOWS ? "windows"
                                                               : "other");
    char root[GP_DOCTOR_PATH];
    gp_copy(root, sizeof root, f->root);
    gp_text_clean(root);
    cJSON_AddStringToObject(o, "root", root);
    cJSON_AddBoolToObject(o, "deep", f->nv.deep || f->cl.enumerated);
    cJSON *advice = NULL;
    cJSON_AddItemToObject(o, "capabilities", gp_summary_capabilities(f, r, &advice));
    cJSON_AddItemToObject(o, "advice", advice);
    cJSON *counts = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "checks", checks_json(r, counts));
    cJSON_AddItemToObject(o, "counts", counts);
    cJSON_AddItemToObject(o, "machine", gp_summary_machine(f));
    if (cJSON_GetArraySize(o) != 10) { /* an allocation failed somewhere above */
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- the human report ----------------------------------------------------------------- */

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static bool jbool(const cJSON *o, const char *k)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void print_capabilities(FILE *out, const cJSON *caps)
{
    const char *b = gp_term_color(out, GP_COLOR_BOLD), *z = gp_term_color(out, GP_COLOR_RESET);
    const char *g = gp_term_color(out, GP_COLOR_GREEN), *red = gp_term_color(out, GP_COLOR_RED);
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(caps, "cuda");
    fprintf(out, "%sWhat this machine can do%s\n", b, z);
    fprintf(out, "  CUDA     compile: %s%s%s - %s\n", jbool(cuda, "compile") ? g : red,
            jbool(cuda, "compile") ? "yes" : "no", z, jstr(cuda, "compile_reason"));
    fprintf(out, "           run:     %s%s%s - %s\n", jbool(cuda, "run") ? g : red,
            jbool(cuda, "run") ? "yes" : "no", z, jstr(cuda, "reason"));
    const cJSON *gpu;
    cJSON_ArrayForEach(gpu, cJSON_GetObjectItemCaseSensitive(cuda, "gpus"))
        fprintf(out, "           GPU %d:   %s%s%s%s%s%s\n",
                cJSON_GetObjectItemCaseSensitive(gpu, "index")->valueint, jstr(gpu, "name"),
                jstr(gpu, "cc")[0] ? ", CC " : "", jstr(gpu, "cc"),
                jstr(gpu, "cc_from")[0] ? " (from " : "", jstr(gpu, "cc_from"),
                jstr(gpu, "cc_from")[0] ? ")" : "");
    if (jbool(cuda, "gpus_truncated")) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(cuda, "gpu_count");
        fprintf(out, "           ...      %d GPUs in all; the first %d are listed and checked\n",
                cJSON_IsNumber(n) ? n->valueint : 0,
                cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cuda, "gpus")));
    }
    const char *names[] = {"metal", "opencl"}, *labels[] = {"Metal", "OpenCL"};
    for (int i = 0; i < 2; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(caps, names[i]);
        fprintf(out, "  %-8s %s%s%s - %s\n", labels[i], jbool(m, "available") ? g : red,
                jbool(m, "available") ? "yes" : "no", z, jstr(m, "reason"));
    }
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(caps, "cpu");
    fprintf(out, "  CPU      %s\n", jstr(cpu, "summary"));
}

static void print_check(FILE *out, const cJSON *c)
{
    const char *st = jstr(c, "status");
    gp_color col = strcmp(st, "fail") == 0   ? GP_COLOR_RED
                   : strcmp(st, "warn") == 0 ? GP_COLOR_YELLOW
                   : strcmp(st, "pass") == 0 ? GP_COLOR_GREEN
                                             : GP_COLOR_DIM;
    char tag[8];
    snprintf(tag, sizeof tag, "%s", st);
    if (strcmp(st, "fail") == 0 || strcmp(st, "warn") == 0)
        for (char *p = tag; *p; p++)
            *p = (char)(*p - 'a' + 'A');
    fprintf(out, "  %s[%s]%s %-15s %s\n", gp_term_color(out, col), tag,
            gp_term_color(out, GP_COLOR_RESET), jstr(c, "id"), jstr(c, "observed"));
    if (strcmp(st, "fail") == 0 || strcmp(st, "warn") == 0) {
        fprintf(out, "         %-15s expected: %s\n", "", jstr(c, "expected"));
        const char *fix = jstr(c, "fix");
        if (*fix)
            fprintf(out, "         %-15s %sfix:%s %s\n", "", gp_term_color(out, GP_COLOR_BOLD),
                    gp_term_color(out, GP_COLOR_RESET), fix);
    }
}

void gp_report_print(FILE *out, const cJSON *rep, bool verbose)
{
    const char *b = gp_term_color(out, GP_COLOR_BOLD), *z = gp_term_color(out, GP_COLOR_RESET);
    const cJSON *machine = cJSON_GetObjectItemCaseSensitive(rep, "machine");
    fprintf(out, "%sgpuport doctor%s: %s", b, z, jstr(machine, "os"));
    if (strcmp(jstr(rep, "root"), "/") != 0)
        fprintf(out, " (machine tree at %s)", jstr(rep, "root"));
    fputs("\n\n", out);
    print_capabilities(out, cJSON_GetObjectItemCaseSensitive(rep, "capabilities"));
    const cJSON *adv = cJSON_GetObjectItemCaseSensitive(rep, "advice");
    fprintf(out, "\n%sWay forward%s: %s\n", b, z, jstr(adv, "text"));

    const cJSON *counts = cJSON_GetObjectItemCaseSensitive(rep, "counts");
    int skipped = cJSON_GetObjectItemCaseSensitive(counts, "skip")->valueint;
    fprintf(out, "\n%sChecks%s: %d fail, %d warn, %d pass, %d info, %d skipped%s\n", b, z,
            cJSON_GetObjectItemCaseSensitive(counts, "fail")->valueint,
            cJSON_GetObjectItemCaseSensitive(counts, "warn")->valueint,
            cJSON_GetObjectItemCaseSensitive(counts, "pass")->valueint,
            cJSON_GetObjectItemCaseSensitive(counts, "info")->valueint, skipped,
            skipped && !verbose ? " (--verbose shows them)" : "");
    const char *group = "";
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rep, "checks"))
    {
        if (!verbose && strcmp(jstr(c, "status"), "skip") == 0) continue;
        if (strcmp(group, jstr(c, "group")) != 0) {
            group = jstr(c, "group");
            fprintf(out, "%s%s%s\n", b, group, z);
        }
        print_check(out, c);
    }
}
