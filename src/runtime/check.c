/* check.c — the core's side of checking: the check names, the GP_CHECK_* bits of a device handle,
 * and each thread's list of the reports of its last CPU launch (the backend fills it; the API
 * reads it). The checking itself is the CPU backend's (src/runtime/cpu/check/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "util/strbuf.h"
#include "util/thread.h"

#define GP_CHECK_KEEP 100

static const char *const gp_check_names[] = {"memcheck", "racecheck", "synccheck", "initcheck",
                                             "uniform"};
#define GP_CHECK_VALID ((uint32_t)GP_CHECK_ALL | GP_CHECK_UNIFORM)

const char *gp_check_name(uint32_t check)
{
    for (uint32_t i = 0; i < 5; i++)
        if (check == 1u << i) return gp_check_names[i];
    return "unknown";
}

gp_status gp_check_parse(const char *list, uint32_t *checks)
{
    if (!checks) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_check_parse: NULL output");
    *checks = 0;
    if (!list || !*list || !strcmp(list, "0") || !strcmp(list, "none")) return GP_OK;
    if (!strcmp(list, "all") || !strcmp(list, "1")) {
        *checks = GP_CHECK_ALL;
        return GP_OK;
    }
    const char *p = list;
    uint32_t bits = 0;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        bool found = false;
        for (uint32_t i = 0; i < 5; i++)
            if (strlen(gp_check_names[i]) == n && !memcmp(gp_check_names[i], p, n)) {
                bits |= 1u << i;
                found = true;
            }
        if (n == 3 && !memcmp(p, "all", 3)) bits |= GP_CHECK_ALL, found = true;
        if (!found)
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "'%.*s' is not a check: use all, or a comma list of memcheck, "
                                "racecheck, synccheck, initcheck (and uniform)",
                                (int)(n > 40 ? 40 : n), p);
        p += n;
        if (*p == ',') p++;
    }
    *checks = bits;
    return GP_OK;
}

gp_status gp_device_set_checks(gp_device *device, uint32_t checks)
{
    if (!device) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_set_checks: NULL device");
    if (checks & ~GP_CHECK_VALID)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_set_checks: unknown bits %#x",
                            checks & ~GP_CHECK_VALID);
    if (checks && device->state->info.backend != GP_BACKEND_CPU)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "checking runs on the CPU backend; %s (%s) runs kernels unchecked: "
                            "open 'cpu' to run them checked",
                            device->state->info.spec, device->state->info.name);
    device->checks = checks;
    return GP_OK;
}

gp_status gp_device_get_checks(const gp_device *device, uint32_t *checks)
{
    if (!device || !checks)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_get_checks: NULL argument");
    *checks = device->checks;
    return GP_OK;
}

/* ---- the thread's reports ---------------------------------------------------------------- */
typedef struct gp_report_list {
    gp_check_report *v;
    uint32_t n;
    uint64_t omitted;
} gp_report_list;

static gp_tls_key gp_report_key;
static gp_once gp_report_once = GP_ONCE_INIT;

static void gp_report_free(void *p)
{
    gp_report_list *l = p;
    if (l) free(l->v);
    free(l);
}

static void gp_report_make(void)
{
    gp_tls_create(&gp_report_key, gp_report_free);
}

static gp_report_list *gp_reports(bool create)
{
    gp_once_call(&gp_report_once, gp_report_make);
    gp_report_list *l = gp_tls_get(gp_report_key);
    if (!l && create) {
        l = calloc(1, sizeof *l);
        if (l && gp_tls_set(gp_report_key, l) != 0) {
            free(l);
            l = NULL;
        }
    }
    return l;
}

void gp_check_reports_set(const gp_check_report *reports, uint32_t n, uint64_t omitted)
{
    gp_report_list *l = gp_reports(n > 0);
    if (!l) return;
    if (n > GP_CHECK_KEEP) {
        omitted += n - GP_CHECK_KEEP;
        n = GP_CHECK_KEEP;
    }
    free(l->v);
    l->v = NULL;
    l->n = 0;
    l->omitted = 0;
    if (!n) return;
    l->v = malloc((size_t)n * sizeof *l->v);
    if (!l->v) return;
    memcpy(l->v, reports, (size_t)n * sizeof *l->v);
    l->n = n;
    l->omitted = omitted;
}

gp_status gp_check_report_count(uint32_t *count, uint64_t *omitted)
{
    if (!count) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_check_report_count: NULL count");
    const gp_report_list *l = gp_reports(false);
    *count = l ? l->n : 0;
    if (omitted) *omitted = l ? l->omitted : 0;
    return GP_OK;
}

gp_status gp_check_report_get(uint32_t index, gp_check_report *report)
{
    if (!report) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_check_report_get: NULL report");
    const gp_report_list *l = gp_reports(false);
    uint32_t n = l ? l->n : 0;
    if (index >= n)
        return gp_error_set(GP_ERR_NOT_FOUND,
                            "the last launch on this thread made %u report(s), "
                            "no index %u",
                            n, index);
    *report = l->v[index];
    return GP_OK;
}

gp_status gp_check_report_format(const gp_check_report *r, char *buf, size_t cap, size_t *needed)
{
    if (!r || (!buf && cap))
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_check_report_format: NULL argument");
    gp_strbuf sb = GP_STRBUF_INIT;
    if (r->line)
        gp_strbuf_printf(&sb, "%s:%u:%u: ", r->file, r->line, r->column);
    else
        gp_strbuf_printf(&sb, "%s: ", r->file[0] ? r->file : r->kernel);
    gp_strbuf_printf(&sb, "%s: %s", gp_check_name(r->check), r->message);
    if (r->count > 1) gp_strbuf_printf(&sb, " (%llu times)", (unsigned long long)r->count);
    return gp_strbuf_out(&sb, buf, cap, needed);
}
