/* device.c — opening devices by spec and the selection record: `auto` (or GPUPORT_DEVICE) walks
 * cuda -> metal -> opencl -> cpu and writes down, for every backend, whether it was chosen or why
 * not; a named backend never falls back to another. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "runtime/trace.h"
#include "util/strbuf.h"

gp_status gp_device_spec_parse(const char *spec, int32_t *backend, int32_t *index)
{
    if (!backend || !index)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_spec_parse: NULL output");
    if (!spec || !strcmp(spec, "auto") || !*spec) {
        *backend = -1;
        *index = -1;
        return GP_OK;
    }
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        const char *name = gp_backend_name((gp_backend)b);
        size_t n = strlen(name);
        if (strncmp(spec, name, n) != 0) continue;
        if (spec[n] == '\0') {
            *backend = b;
            *index = -1;
            return GP_OK;
        }
        if (spec[n] == ':' && spec[n + 1] >= '0' && spec[n + 1] <= '9') {
            char *end;
            errno = 0;
            unsigned long v = strtoul(spec + n + 1, &end, 10);
            if (*end == '\0' && errno == 0 && v < 65536) {
                *backend = b;
                *index = (int32_t)v;
                return GP_OK;
            }
        }
    }
    return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                        "bad device spec '%s': use auto, cpu, opencl, opencl:N, cuda, cuda:N, "
                        "metal or metal:N",
                        spec);
}

static void gp_record_init(gp_selection_entry rec[GP_BACKEND_COUNT])
{
    memset(rec, 0, sizeof(gp_selection_entry) * GP_BACKEND_COUNT);
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        rec[b].backend = b;
        rec[b].outcome = GP_SELECT_NOT_TRIED;
        rec[b].device_index = -1;
    }
}

/* What one program needs of a device (gp_device_open_for_source). */
typedef struct gp_open_needs {
    const char *source_name;
    const char *kernel; /* the kernel asked for, or NULL (all of them) */
    bool simd;          /* it uses SIMD-group operations */
    char simd_op[32];   /* the first of them in the source, and its line */
    int simd_line;
    uint32_t simd_width; /* GP_REQUIRES_SIMD_WIDTH */
    bool fp64;
    bool atomic64;
    uint32_t checks;       /* it is to run checked */
    uint32_t build_checks; /* what the CPU builds it with (the above, or GPUPORT_CHECK's) */
    const char *source;    /* built on each candidate: what cannot build there cannot run there */
    size_t len;
    const gp_build_options *options;
} gp_open_needs;

/* Device `index` of backend b as gp_device_enumerate describes it, without opening it. */
static bool gp_device_describe(gp_backend b, uint32_t index, gp_device_info *out)
{
    uint32_t n = 0;
    if (gp_device_count(&n) != GP_OK) return false;
    for (uint32_t i = 0; i < n; i++)
        if (gp_device_enumerate(i, out) == GP_OK && out->backend == (int32_t)b &&
            out->index == (int32_t)index)
            return true;
    return false;
}

/* Why the device cannot run the program (into why), or false when it can. */
static bool gp_unsuitable(const gp_open_needs *n, const gp_device_info *in, char *why, size_t cap)
{
    const char *bn = gp_backend_name((gp_backend)in->backend);
    if (n->checks && in->backend != GP_BACKEND_CPU) {
        snprintf(why, cap,
                 "checked runs need the CPU backend (checking instruments the kernel "
                 "there); %s runs kernels unchecked",
                 bn);
        return true;
    }
    if (n->simd && !in->simd_group_width) {
        snprintf(why, cap, "%s%s%s uses SIMD-group operations (%s, %s:%d) and %s has none",
                 n->kernel ? "kernel '" : "the program", n->kernel ? n->kernel : "",
                 n->kernel ? "'" : "", n->simd_op[0] ? n->simd_op : "gp_simd_*", n->source_name,
                 n->simd_line, bn);
        return true;
    }
    if (n->simd_width && n->simd_width != in->simd_group_width) {
        snprintf(why, cap, "the program says GP_REQUIRES_SIMD_WIDTH(%u), %s has %u lanes",
                 n->simd_width, in->spec, in->simd_group_width);
        return true;
    }
    if (n->fp64 && !in->fp64) {
        snprintf(why, cap, "the program says GP_REQUIRES_FP64 and %s has no double precision",
                 in->spec);
        return true;
    }
    if (n->atomic64 && !in->atomic64) {
        snprintf(why, cap, "the program says GP_REQUIRES_ATOMIC64 and %s has no 64-bit atomics",
                 in->spec);
        return true;
    }
    return false;
}

/* Tries device `index` (or 0) of backend b; fills rec[b]. GP_OK when opened. With needs, a device
 * that cannot run the program is recorded as unsuitable and not opened. */
static gp_status gp_try_backend(gp_backend b, int32_t index, gp_selection_entry *rec,
                                const gp_open_needs *needs, gp_device_state **out)
{
    gp_registry_probe(b, rec);
    if (rec->outcome != GP_SELECT_AVAILABLE)
        return gp_error_set(GP_ERR_NOT_FOUND, "%s: %s%s%s", gp_backend_name(b),
                            gp_select_outcome_name((gp_select_outcome)rec->outcome),
                            rec->detail[0] ? ": " : "", rec->detail);
    uint32_t i = index < 0 ? 0 : (uint32_t)index;
    if (i >= rec->device_count) {
        rec->outcome = GP_SELECT_NO_DEVICE;
        snprintf(rec->detail, sizeof rec->detail, "%s:%u asked for, but it has %u device(s)",
                 gp_backend_name(b), i, rec->device_count);
        return gp_error_set(GP_ERR_NOT_FOUND, "%s", rec->detail);
    }
    gp_device_info info;
    if (needs && gp_device_describe(b, i, &info) &&
        gp_unsuitable(needs, &info, rec->detail, sizeof rec->detail)) {
        rec->outcome = GP_SELECT_UNSUITABLE;
        return gp_error_set(GP_ERR_UNSUPPORTED, "%s: %s", gp_backend_name(b), rec->detail);
    }
    gp_status st = gp_registry_acquire(b, i, out);
    if (st != GP_OK) {
        rec->outcome = GP_SELECT_OPEN_FAILED;
        rec->code = st;
        snprintf(rec->detail, sizeof rec->detail, "%s:%u: %s", gp_backend_name(b), i,
                 gp_last_error());
        return gp_error_set(st, "%s", rec->detail);
    }
    if (needs && needs->source) {
        uint32_t checks = (*out)->info.backend == GP_BACKEND_CPU ? needs->build_checks : 0;
        st = gp_program_build_probe(*out, needs->source, needs->len, needs->options, checks);
        if (st != GP_OK) {
            char why[sizeof rec->detail];
            gp_copy_str(why, sizeof why, gp_last_error());
            gp_device_state_unref(*out);
            *out = NULL;
            rec->outcome = GP_SELECT_UNSUITABLE;
            snprintf(rec->detail, sizeof rec->detail, "%s", why);
            /* a source that does not compile is the user's to fix, not a reason to go on */
            return st == GP_ERR_BUILD ? gp_error_set(st, "%s", why)
                                      : gp_error_set(st, "%s: %s", gp_backend_name(b), why);
        }
    }
    rec->outcome = GP_SELECT_CHOSEN;
    rec->device_index = (int32_t)i;
    snprintf(rec->detail, sizeof rec->detail, "%s:%u %s", gp_backend_name(b), i, (*out)->info.name);
    return GP_OK;
}

/* GPUPORT_DEVICE: a comma-separated list of specs, in order of preference. */
static gp_status gp_open_from_env(const char *env, gp_selection_entry rec[GP_BACKEND_COUNT],
                                  const gp_open_needs *needs, gp_device_state **out)
{
    char buf[256];
    gp_copy_str(buf, sizeof buf, env);
    bool named[GP_BACKEND_COUNT] = {false};
    int32_t order[8][2];
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok && n < 8;
         tok = strtok_r(NULL, ", ", &save)) {
        int32_t b, i;
        if (gp_device_spec_parse(tok, &b, &i) != GP_OK || b < 0)
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "GPUPORT_DEVICE='%s': '%s' is not a device spec (use a "
                                "comma-separated list of cpu, opencl, opencl:N, cuda, cuda:N, "
                                "metal, metal:N)",
                                env, tok);
        order[n][0] = b;
        order[n][1] = i;
        named[b] = true;
        n++;
    }
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        if (named[b]) continue;
        rec[b].outcome = GP_SELECT_EXCLUDED;
        snprintf(rec[b].detail, sizeof rec[b].detail, "GPUPORT_DEVICE=%s", env);
    }
    gp_strbuf why = GP_STRBUF_INIT;
    for (int k = 0; k < n; k++) {
        gp_status st =
            gp_try_backend((gp_backend)order[k][0], order[k][1], &rec[order[k][0]], needs, out);
        if (st == GP_OK) {
            gp_strbuf_free(&why);
            return GP_OK;
        }
        if (st == GP_ERR_BUILD) {
            gp_strbuf_free(&why);
            return st;
        }
        gp_strbuf_printf(&why, "%s%s", why.len ? "; " : "", gp_last_error());
    }
    gp_status st = gp_error_set(GP_ERR_NOT_FOUND,
                                "no device from GPUPORT_DEVICE='%s' could be opened: %s (unset it "
                                "to let gpuport choose)",
                                env, gp_strbuf_cstr(&why));
    gp_strbuf_free(&why);
    return st;
}

static gp_status gp_open_auto(gp_selection_entry rec[GP_BACKEND_COUNT], const gp_open_needs *needs,
                              gp_device_state **out)
{
    gp_strbuf why = GP_STRBUF_INIT;
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        gp_status st = gp_try_backend((gp_backend)b, -1, &rec[b], needs, out);
        if (st == GP_OK || st == GP_ERR_BUILD) {
            gp_strbuf_free(&why);
            return st;
        }
        if (rec[b].outcome == GP_SELECT_UNSUITABLE)
            gp_strbuf_printf(&why, "%s%s", why.len ? "; " : "", gp_last_error());
    }
    gp_status st = gp_error_set(GP_ERR_NOT_FOUND,
                                "no backend could open a device%s%s (see "
                                "`gpuport devices`)",
                                why.len ? " that can run the program: " : "", gp_strbuf_cstr(&why));
    gp_strbuf_free(&why);
    return st;
}

static void gp_log_record(const char *spec, const gp_device *d)
{
    if (gp_log_level() < 1) return;
    char text[4096];
    gp_device_selection_text(d, text, sizeof text, NULL);
    gp_log_info("device '%s' -> %s (%s)", spec, d->state->info.spec, d->state->info.name);
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        gp_log_info("  %s", l);
}

/* GPUPORT_CHECK: the checks every CPU device handle gets. */
static gp_status gp_env_checks(uint32_t *checks)
{
    *checks = 0;
    const char *env = getenv("GPUPORT_CHECK");
    if (!env || !*env) return GP_OK;
    if (gp_check_parse(env, checks) != GP_OK)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "GPUPORT_CHECK='%s': %s", env,
                            gp_last_error());
    return GP_OK;
}

static gp_status gp_open(const char *spec, const gp_open_needs *needs, gp_device **out)
{
    if (!out) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_open: NULL out");
    *out = NULL;
    gp_trace_env_init(); /* GPUPORT_TRACE: the timeline starts with the first device */
    int32_t b, index;
    gp_status st = gp_device_spec_parse(spec, &b, &index);
    if (st != GP_OK) return st;
    uint32_t checks = 0;
    st = gp_env_checks(&checks);
    if (st != GP_OK) return st;
    if (needs && needs->checks) checks = needs->checks;
    gp_open_needs local;
    if (needs) {
        local = *needs;
        local.build_checks = checks;
        needs = &local;
    }
    gp_device *d = calloc(1, sizeof *d);
    if (!d) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    gp_record_init(d->selection);
    const char *env = getenv("GPUPORT_DEVICE");
    if (b < 0 && env && *env) {
        st = gp_open_from_env(env, d->selection, needs, &d->state);
    } else if (b < 0 && checks) {
        /* checking runs on the CPU: `auto` goes there directly */
        for (int k = 0; k < GP_BACKEND_COUNT; k++)
            if (k != GP_BACKEND_CPU)
                snprintf(d->selection[k].detail, sizeof d->selection[k].detail,
                         "kernels run checked (GPUPORT_CHECK or the build's checks), and "
                         "checking runs on the CPU backend");
        st = gp_try_backend(GP_BACKEND_CPU, -1, &d->selection[GP_BACKEND_CPU], needs, &d->state);
    } else if (b < 0) {
        st = gp_open_auto(d->selection, needs, &d->state);
    } else {
        st = gp_try_backend((gp_backend)b, index, &d->selection[b], NULL, &d->state);
        if (st != GP_OK)
            st = gp_error_set(st,
                              "cannot open '%s': %s (gpuport never falls back from a named "
                              "backend; use 'auto' to let it choose)",
                              spec, gp_last_error());
        char why[512];
        if (st == GP_OK && needs && gp_unsuitable(needs, &d->state->info, why, sizeof why)) {
            gp_device_state_unref(d->state);
            st = gp_error_set(GP_ERR_UNSUPPORTED, "%s cannot run the program: %s", spec, why);
        }
    }
    if (st != GP_OK) {
        if (gp_log_level() >= 1)
            gp_log_info("device '%s': %s", spec ? spec : "auto", gp_last_error());
        free(d);
        return st;
    }
    if (d->state->info.backend == GP_BACKEND_CPU) d->checks = checks;
    gp_log_record(spec ? spec : "auto", d);
    if (d->checks && gp_log_level() >= 1)
        gp_log_info("%s runs kernels checked (GP_CHECK bits %#x)", d->state->info.spec, d->checks);
    *out = d;
    return GP_OK;
}

gp_status gp_device_open(const char *spec, gp_device **out)
{
    return gp_open(spec, NULL, out);
}

gp_status gp_device_open_for_source(const char *spec, const char *source, size_t len,
                                    const gp_build_options *options, const char *kernel,
                                    gp_device **out)
{
    if (!source || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_open_for_source: NULL argument");
    gp_open_needs n = {0};
    n.source_name = options && options->source_name ? options->source_name : "kernel.gpk";
    n.kernel = kernel;
    gp_kernel_sig *ks = NULL;
    uint32_t nk = 0;
    gp_source_needs sn;
    gp_status st = gp_signature_parse(source, len, n.source_name, options ? options->defines : NULL,
                                      options ? options->num_defines : 0, &ks, &nk, &sn);
    if (st != GP_OK) return st;
    bool found = kernel == NULL;
    for (uint32_t i = 0; i < nk; i++) {
        if (kernel && strcmp(ks[i].name, kernel)) continue;
        found = true;
        if (ks[i].uses_simd) n.simd = true;
    }
    if (!found) {
        gp_strbuf sb = GP_STRBUF_INIT;
        for (uint32_t i = 0; i < nk; i++)
            gp_strbuf_printf(&sb, "%s%s", i ? ", " : "", ks[i].name);
        /* a kernel gpuport translate left out: its reason */
        char *left = gp_untranslated_scan(source, len);
        const char *why = NULL, *whyend = NULL;
        size_t klen = strlen(kernel);
        for (const char *u = left; u && *u && !why;) {
            const char *tab = strchr(u, '\t'), *nl = tab ? strchr(tab, '\n') : NULL;
            if (!tab || !nl) break;
            if ((size_t)(tab - u) == klen && !memcmp(u, kernel, klen)) why = tab + 1, whyend = nl;
            u = nl + 1;
        }
        if (why)
            st = gp_error_set(GP_ERR_NOT_FOUND,
                              "kernel '%s' of %s was not translated from CUDA (gpuport translate "
                              "--partial left it out, as comments): %.*s",
                              kernel, n.source_name, (int)(whyend - why), why);
        else
            st = gp_error_set(GP_ERR_NOT_FOUND, "%s has no kernel '%s'; it has: %s", n.source_name,
                              kernel, nk ? gp_strbuf_cstr(&sb) : "none");
        free(left);
        gp_strbuf_free(&sb);
        free(ks);
        return st;
    }
    free(ks);
    gp_copy_str(n.simd_op, sizeof n.simd_op, sn.simd_op);
    n.simd_line = sn.simd_line;
    n.simd_width = sn.simd_width;
    n.fp64 = sn.fp64;
    n.atomic64 = sn.atomic64;
    n.checks = options ? options->checks : 0; /* GPUPORT_CHECK makes `auto` the CPU in gp_open */
    n.source = source;
    n.len = len;
    n.options = options;
    return gp_open(spec, &n, out);
}

gp_status gp_device_release(gp_device *device)
{
    if (!device) return GP_OK;
    gp_device_state_unref(device->state);
    free(device);
    return GP_OK;
}

gp_status gp_device_get_info(const gp_device *device, gp_device_info *info)
{
    if (!device || !info)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_get_info: NULL argument");
    *info = device->state->info;
    return GP_OK;
}

gp_status gp_device_selection(const gp_device *device, gp_selection_entry *entries, uint32_t cap,
                              uint32_t *count)
{
    if (!device || (!entries && cap))
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_selection: NULL argument");
    uint32_t n = cap < GP_BACKEND_COUNT ? cap : GP_BACKEND_COUNT;
    memcpy(entries, device->selection, n * sizeof *entries);
    if (count) *count = n;
    return GP_OK;
}

gp_status gp_device_selection_text(const gp_device *device, char *buf, size_t cap, size_t *needed)
{
    if (!device || (!buf && cap))
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_selection_text: NULL argument");
    gp_strbuf sb = GP_STRBUF_INIT;
    for (int b = 0; b < GP_BACKEND_COUNT; b++) {
        const gp_selection_entry *e = &device->selection[b];
        gp_strbuf_printf(&sb, "%-7s %s", gp_backend_name((gp_backend)b),
                         gp_select_outcome_name((gp_select_outcome)e->outcome));
        if (e->code) gp_strbuf_printf(&sb, " (code %d)", e->code);
        if (e->detail[0]) gp_strbuf_printf(&sb, ": %s", e->detail);
        gp_strbuf_putc(&sb, '\n');
    }
    return gp_strbuf_out(&sb, buf, cap, needed);
}

gp_status gp_device_synchronize(gp_device *device)
{
    if (!device) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_synchronize: NULL device");
    if (!gp_tracing()) return device->state->ops->device_synchronize(device->state);
    uint64_t t = gp_trace_clock();
    gp_status st = device->state->ops->device_synchronize(device->state);
    gp_trace_host(device->state, GP_TRACE_WAIT, t, "gp_device_synchronize", 0, true);
    return st;
}

gp_status gp_device_queue(gp_device *device, gp_queue **out)
{
    if (!device || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_queue: NULL argument");
    *out = device->state->default_queue;
    return GP_OK;
}
