/* device.c — opening devices by spec and the selection record: `auto` (or GPUPORT_DEVICE) walks
 * cuda -> metal -> opencl -> cpu and writes down, for every backend, whether it was chosen or why
 * not; a named backend never falls back to another. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
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

/* Tries device `index` (or 0) of backend b; fills rec[b]. GP_OK when opened. */
static gp_status gp_try_backend(gp_backend b, int32_t index, gp_selection_entry *rec,
                                gp_device_state **out)
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
    gp_status st = gp_registry_acquire(b, i, out);
    if (st != GP_OK) {
        rec->outcome = GP_SELECT_OPEN_FAILED;
        rec->code = st;
        snprintf(rec->detail, sizeof rec->detail, "%s:%u: %s", gp_backend_name(b), i,
                 gp_last_error());
        return gp_error_set(st, "%s", rec->detail);
    }
    rec->outcome = GP_SELECT_CHOSEN;
    rec->device_index = (int32_t)i;
    snprintf(rec->detail, sizeof rec->detail, "%s:%u %s", gp_backend_name(b), i, (*out)->info.name);
    return GP_OK;
}

/* GPUPORT_DEVICE: a comma-separated list of specs, in order of preference. */
static gp_status gp_open_from_env(const char *env, gp_selection_entry rec[GP_BACKEND_COUNT],
                                  gp_device_state **out)
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
        gp_status st = gp_try_backend((gp_backend)order[k][0], order[k][1], &rec[order[k][0]], out);
        if (st == GP_OK) {
            gp_strbuf_free(&why);
            return GP_OK;
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

static gp_status gp_open_auto(gp_selection_entry rec[GP_BACKEND_COUNT], gp_device_state **out)
{
    for (int b = 0; b < GP_BACKEND_COUNT; b++)
        if (gp_try_backend((gp_backend)b, -1, &rec[b], out) == GP_OK) return GP_OK;
    return gp_error_set(GP_ERR_NOT_FOUND, "no backend could open a device (see `gpuport devices`)");
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

gp_status gp_device_open(const char *spec, gp_device **out)
{
    if (!out) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_open: NULL out");
    *out = NULL;
    int32_t b, index;
    gp_status st = gp_device_spec_parse(spec, &b, &index);
    if (st != GP_OK) return st;
    gp_device *d = calloc(1, sizeof *d);
    if (!d) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    gp_record_init(d->selection);
    const char *env = getenv("GPUPORT_DEVICE");
    if (b < 0 && env && *env) {
        st = gp_open_from_env(env, d->selection, &d->state);
    } else if (b < 0) {
        st = gp_open_auto(d->selection, &d->state);
    } else {
        st = gp_try_backend((gp_backend)b, index, &d->selection[b], &d->state);
        if (st != GP_OK)
            st = gp_error_set(st,
                              "cannot open '%s': %s (gpuport never falls back from a named "
                              "backend; use 'auto' to let it choose)",
                              spec, gp_last_error());
    }
    if (st != GP_OK) {
        if (gp_log_level() >= 1)
            gp_log_info("device '%s': %s", spec ? spec : "auto", gp_last_error());
        free(d);
        return st;
    }
    gp_log_record(spec ? spec : "auto", d);
    *out = d;
    return GP_OK;
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
    if (sb.failed) {
        gp_strbuf_free(&sb);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    if (needed) *needed = sb.len + 1;
    if (cap) gp_copy_str(buf, cap, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return GP_OK;
}

gp_status gp_device_synchronize(gp_device *device)
{
    if (!device) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_synchronize: NULL device");
    return device->state->ops->device_synchronize(device->state);
}

gp_status gp_device_queue(gp_device *device, gp_queue **out)
{
    if (!device || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_device_queue: NULL argument");
    *out = device->state->default_queue;
    return GP_OK;
}
