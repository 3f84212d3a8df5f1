/* program.c — building dialect source for a device: the signatures are read from the source,
 * the text the backend compiles is assembled (defines, the prelude, `#line 1 "<name>"`, the
 * source), the cache key is computed over everything that changes the binary, and the per-device
 * in-process cache hands out one built program per key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtin.h"
#include "runtime/cache.h"
#include "runtime/core.h"
#include "runtime/trace.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/strbuf.h"

#define GP_MAX_SOURCE ((size_t)64 << 20)

static gp_status gp_check_source_name(const char *name)
{
    for (const char *p = name; *p; p++)
        if (*p == '"' || *p == '\\' || *p == '\n' || (unsigned char)*p < 0x20)
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "source name '%s': quotes, backslashes and control characters "
                                "cannot appear in a #line directive",
                                name);
    if (strlen(name) > 200)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "source name longer than 200 characters");
    return GP_OK;
}

static gp_status gp_check_define(const char *d)
{
    if (!d || !*d) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "empty define in build options");
    const char *p = d;
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_')) goto bad;
    for (; *p && *p != '='; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
              (*p >= '0' && *p <= '9')))
            goto bad;
    if (strchr(d, '\n') || strchr(d, '\r')) goto bad;
    return GP_OK;
bad:
    return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                        "define '%s' is not NAME or NAME=VALUE (an identifier, one line)", d);
}

/* defines, prelude, #line, source: see gp_build_request in backend.h. */
static char *gp_assemble(const char *src, size_t len, const char *name, const char *const *defs,
                         uint32_t ndefs, size_t *out_len)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    for (uint32_t i = 0; i < ndefs; i++) {
        const char *eq = strchr(defs[i], '=');
        if (eq)
            gp_strbuf_printf(&sb, "#define %.*s %s\n", (int)(eq - defs[i]), defs[i], eq + 1);
        else
            gp_strbuf_printf(&sb, "#define %s 1\n", defs[i]);
    }
    gp_strbuf_puts(&sb, "#line 1 \"gpuport/kernel.h\"\n");
    gp_strbuf_append(&sb, gp_prelude_text, gp_prelude_text_len);
    gp_strbuf_printf(&sb, "\n#line 1 \"%s\"\n", name);
    gp_strbuf_append(&sb, src, len);
    gp_strbuf_putc(&sb, '\n');
    *out_len = sb.len;
    return gp_strbuf_take(&sb);
}

static void gp_key(gp_device_state *dev, const char *compiler, uint32_t flags, uint32_t checks,
                   const char *builtin, const char *text, size_t len, char key[65])
{
    gp_sha256 *h = gp_sha256_new();
    /* Built to its full length (a compiler identity can be long): never truncated, never read
     * past. */
    gp_strbuf head = GP_STRBUF_INIT;
    gp_strbuf_printf(&head, "gpuport-kernel/%d|%s|%s|%s|%s|%s|%u|%s|", GP_DIALECT_VERSION,
                     gp_backend_name((gp_backend)dev->info.backend), dev->info.arch, dev->info.name,
                     dev->info.driver_version, compiler, flags & GP_BUILD_FAST_MATH,
                     builtin ? builtin : "");
    if (checks) gp_strbuf_printf(&head, "checks=%u|", checks);
    gp_sha256_update(h, gp_strbuf_cstr(&head), head.len);
    gp_strbuf_free(&head);
    gp_sha256_update(h, text, len);
    gp_sha256_final_hex(h, key);
}

static gp_program *gp_cache_find_locked(gp_device_state *dev, const char *key)
{
    for (gp_program *p = dev->programs; p; p = p->next)
        if (!strcmp(p->key, key)) return p;
    return NULL;
}

static void gp_program_free(gp_program *p)
{
    if (p->impl) p->dev->ops->program_release(p);
    free(p->kernels);
    free(p->untranslated);
    gp_printf_table_release(p->prints);
    free(p);
}

void gp_program_cache_drop(gp_device_state *dev)
{
    gp_program *p = dev->programs;
    dev->programs = NULL;
    while (p) {
        gp_program *next = p->next;
        gp_program_free(p);
        p = next;
    }
}

/* What the source requires against what the device has: double precision, SIMD-group
 * operations and their width. */
static gp_status gp_check_needs(const gp_device_state *dev, const char *name,
                                const gp_source_needs *n)
{
    const gp_device_info *in = &dev->info;
    if (n->fp64 && !in->fp64)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s says GP_REQUIRES_FP64 but %s (%s) has no double precision; use "
                            "float, or run it on a device with fp64",
                            name, in->spec, in->name);
    if (n->atomic64 && !in->atomic64)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s says GP_REQUIRES_ATOMIC64 but %s (%s) has no 64-bit atomics on "
                            "global memory%s; use 32-bit atomics, or run it on a cuda, cpu or "
                            "OpenCL device with cl_khr_int64_base_atomics and _extended_atomics",
                            name, in->spec, in->name,
                            in->backend == GP_BACKEND_METAL ? " (Metal has none)" : "");
    /* A source that uses SIMD-group operations where there are none is left to the compiler,
     * since they may sit behind #if !defined(GP_TARGET_...); gp_no_simd_error() explains the
     * failure. A stated width is checked here. */
    if (n->simd_width && !in->simd_group_width)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s says GP_REQUIRES_SIMD_WIDTH(%u), but %s (%s) offers no "
                            "SIMD-group operations (the %s backend has none); run it on a cuda, "
                            "metal (Apple GPU) or cpu device",
                            name, n->simd_width, in->spec, in->name,
                            gp_backend_name((gp_backend)in->backend));
    if (n->simd_width && n->simd_width != in->simd_group_width)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s says GP_REQUIRES_SIMD_WIDTH(%u), but the SIMD groups of %s (%s) "
                            "have %u lanes; the kernels would compute something else there",
                            name, n->simd_width, in->spec, in->name, in->simd_group_width);
    return GP_OK;
}

/* A build that failed on a device without SIMD-group operations because the source used one
 * (the prelude there turns each into a call of an undeclared function with this name):
 * GP_ERR_UNSUPPORTED, naming the compiler's location of the first use. Other failures as they
 * are. */
static gp_status gp_no_simd_error(const gp_device_state *dev, const char *name,
                                  const gp_source_needs *needs, gp_status st)
{
    static const char marker[] = "gp_simd_operations_do_not_exist_on_opencl";
    const char *log = gp_last_error();
    const char *hit = st == GP_ERR_BUILD ? strstr(log, marker) : NULL;
    if (!hit) return st;
    const char *ls = hit;
    while (ls > log && ls[-1] != '\n')
        ls--;
    /* the compiler's location ("use.gpk:3:12: error: ..."; some call it a warning and fail
     * later), else the first operation the source scan saw */
    const char *err = strstr(ls, ": error"), *warn = strstr(ls, ": warning");
    const char *cut = err && err < hit ? err : (warn && warn < hit ? warn : NULL);
    int n = cut ? (int)(cut - ls) : 0;
    char where[200];
    if (n > 0 && n < (int)sizeof where)
        snprintf(where, sizeof where, "%.*s", n, ls);
    else if (needs->simd_line)
        snprintf(where, sizeof where, "%s:%d", name, needs->simd_line);
    else
        where[0] = '\0';
    const gp_device_info *in = &dev->info;
    return gp_error_set(GP_ERR_UNSUPPORTED,
                        "%s: a gp_simd_* operation is used%s%s, but %s (%s) offers no SIMD-group "
                        "operations (the %s backend has none); run it on a cuda, metal (Apple "
                        "GPU) or cpu device, or keep that code out of this build with "
                        "#if !defined(GP_TARGET_OPENCL)",
                        name, where[0] ? " at " : "", where, in->spec, in->name,
                        gp_backend_name((gp_backend)in->backend));
}

/* One build. `records`: gp_printf may go through the print buffer (dev->print_records_typed);
 * *rewrote says whether it did. */
static gp_status gp_build_once(gp_device_state *dev, const char *src, size_t len,
                               const gp_build_options *o, uint32_t handle_checks,
                               const gp_builtin_program *builtin, bool records, bool *rewrote,
                               gp_program **out)
{
    const char *name = o && o->source_name ? o->source_name : "kernel.gpk";
    const char *const *defs = o ? o->defines : NULL;
    uint32_t ndefs = o ? o->num_defines : 0, flags = o ? o->flags : 0;
    uint32_t checks = o && o->checks ? o->checks : handle_checks;
    if (checks & ~((uint32_t)GP_CHECK_ALL | GP_CHECK_UNIFORM))
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "build options: unknown check bits %#x",
                            checks & ~((uint32_t)GP_CHECK_ALL | GP_CHECK_UNIFORM));
    if (checks && dev->info.backend != GP_BACKEND_CPU)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s: checking runs on the CPU backend, not on %s (%s); build it for "
                            "the 'cpu' device to run it checked",
                            name, dev->info.spec, dev->info.name);
    uint64_t traced = gp_tracing() ? gp_trace_clock() : 0; /* the build on the timeline */
    gp_status st = gp_check_source_name(name);
    for (uint32_t i = 0; st == GP_OK && i < ndefs; i++)
        st = gp_check_define(defs[i]);
    if (st != GP_OK) return st;
    if (len > GP_MAX_SOURCE)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "%s: source of %zu bytes is over the %zu-byte limit", name, len,
                            GP_MAX_SOURCE);
    gp_program *p = calloc(1, sizeof *p);
    if (!p) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    p->dev = dev;
    p->checks = checks;
    gp_copy_str(p->source_name, sizeof p->source_name, name);
    st = gp_signature_parse(src, len, name, defs, ndefs, &p->kernels, &p->num_kernels, &p->needs);
    p->untranslated = gp_untranslated_scan(src, len);
    if (st == GP_OK && p->num_kernels == 0)
        st = gp_error_set(GP_ERR_BUILD, "%s: no GP_KERNEL(...) declaration in the source", name);
    if (st == GP_OK) st = gp_check_needs(dev, name, &p->needs);
    uint32_t prints = 0;
    if (st == GP_OK) st = gp_printf_scan(src, len, name, &prints);
    /* A device without a printf: each call becomes a record (printf_format.c) and the prelude
     * is told so; the text compiled is the rewritten one, the table stays with the program. */
    char *rewritten = NULL;
    size_t rlen = 0;
    const char **rec_defs = NULL;
    uint32_t nrec_defs = ndefs;
    bool typed = dev->print_records_typed && records;
    if (st == GP_OK && prints && (dev->print_records || typed)) {
        st = gp_printf_records_source(src, len, name, typed, &p->prints, &rewritten, &rlen);
        if (st == GP_ERR_BUILD && typed) {
            /* the device's own printf takes what the record path cannot */
            gp_log_info("%s: gp_printf through %s's own printf (no line limit, no order, no "
                        "count of what overflows): %s",
                        name, dev->info.spec, gp_last_error());
            gp_error_clear();
            st = GP_OK;
        }
        rec_defs = st == GP_OK && rewritten ? malloc((ndefs + 2) * sizeof *rec_defs) : NULL;
        if (st == GP_OK && rewritten && !rec_defs)
            st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        if (rec_defs) {
            for (uint32_t i = 0; i < ndefs; i++)
                rec_defs[i] = defs[i];
            rec_defs[nrec_defs++] = "GP__PRINT_RECORDS=1";
            /* a double goes as a double where the program has them (OpenCL's fp64) */
            if (typed && p->needs.fp64) rec_defs[nrec_defs++] = "GP__PRINT_DOUBLE=1";
        }
    }
    if (st != GP_OK) {
        free(rewritten);
        free(rec_defs);
        gp_program_free(p);
        return st;
    }
    *rewrote = rewritten != NULL;
    size_t tlen;
    char *text = rewritten ? gp_assemble(rewritten, rlen, name, rec_defs, nrec_defs, &tlen)
                           : gp_assemble(src, len, name, defs, ndefs, &tlen);
    free(rewritten);
    free(rec_defs);
    char compiler[512] = "";
    if (!text) st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st == GP_OK) st = dev->ops->compiler_id(dev, compiler, sizeof compiler);
    if (st != GP_OK) {
        free(text);
        gp_program_free(p);
        return st;
    }
    gp_key(dev, compiler, flags, checks, builtin ? builtin->name : NULL, text, tlen, p->key);

    gp_mutex_lock(&dev->lock);
    gp_program *hit = gp_cache_find_locked(dev, p->key);
    if (hit) hit->refs++;
    gp_mutex_unlock(&dev->lock);
    if (hit) {
        gp_log_debug("%s: in-process cache hit on %s", name, dev->info.spec);
        free(text);
        gp_program_free(p);
        *out = hit;
        if (traced) gp_trace_host(dev, GP_TRACE_BUILD, traced, name, GP_TRACE_CACHE_MEMORY, false);
        return GP_OK;
    }
    gp_build_request req = {0};
    req.source = text;
    req.source_len = tlen;
    req.user_source = src;
    req.user_source_len = len;
    req.source_name = name;
    req.flags = flags;
    req.use_disk_cache = !(flags & GP_BUILD_NO_CACHE);
    memcpy(req.cache_key, p->key, sizeof req.cache_key);
    req.builtin = builtin;
    req.kernels = p->kernels;
    req.num_kernels = p->num_kernels;
    req.checks = checks;
    req.defines = defs;
    req.num_defines = ndefs;
    req.prints = prints;
    uint64_t found = gp_cache_found_on_thread();
    st = dev->ops->program_build(p, &req);
    gp_trace_cache how = !req.use_disk_cache                   ? GP_TRACE_CACHE_OFF
                         : gp_cache_found_on_thread() != found ? GP_TRACE_CACHE_DISK
                                                               : GP_TRACE_CACHE_MISS;
    free(text);
    if (st != GP_OK && !dev->info.simd_group_width) st = gp_no_simd_error(dev, name, &p->needs, st);
    if (st != GP_OK) {
        p->impl = NULL;
        gp_program_free(p);
        return st;
    }
    gp_mutex_lock(&dev->lock);
    hit = gp_cache_find_locked(dev, p->key); /* another thread built it meanwhile */
    if (hit) {
        hit->refs++;
    } else {
        p->refs = 1;
        p->next = dev->programs;
        dev->programs = p;
    }
    gp_mutex_unlock(&dev->lock);
    if (hit) {
        gp_program_free(p);
        p = hit;
    }
    *out = p;
    if (traced) gp_trace_host(dev, GP_TRACE_BUILD, traced, name, how, false);
    return GP_OK;
}

/* A build; on OpenCL, a program whose print-buffer rewrite does not compile (a call in a macro
 * used by a helper function, say) is built again with OpenCL C's own printf, and the reason is
 * logged. */
static gp_status gp_build(gp_device_state *dev, const char *src, size_t len,
                          const gp_build_options *o, uint32_t handle_checks,
                          const gp_builtin_program *builtin, gp_program **out)
{
    bool rewrote = false;
    gp_status st = gp_build_once(dev, src, len, o, handle_checks, builtin, true, &rewrote, out);
    if (st == GP_ERR_BUILD && rewrote && dev->print_records_typed) {
        gp_log_info("%s: gp_printf through the print buffer did not build on %s; building it "
                    "with the device's own printf (no line limit, no order, no count of what "
                    "overflows): %s",
                    o && o->source_name ? o->source_name : "kernel.gpk", dev->info.spec,
                    gp_last_error());
        st = gp_build_once(dev, src, len, o, handle_checks, builtin, false, &rewrote, out);
    }
    return st;
}

gp_status gp_program_create(gp_device *device, const char *source, size_t len,
                            const gp_build_options *options, gp_program **out)
{
    if (!device || !source || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_program_create: NULL argument");
    *out = NULL;
    if (options && options->struct_size != 0 && options->struct_size < sizeof(gp_build_options))
        return gp_error_set(
            GP_ERR_INVALID_ARGUMENT,
            "gp_program_create: options.struct_size %u is not sizeof(gp_build_options)",
            options->struct_size);
    if (options && options->num_defines && !options->defines)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_program_create: num_defines without defines");
    gp_status st = gp_build(device->state, source, len, options, device->checks, NULL, out);
    if (st == GP_OK) gp_device_state_ref(device->state);
    return st;
}

gp_status gp_program_build_probe(gp_device_state *dev, const char *source, size_t len,
                                 const gp_build_options *options, uint32_t checks)
{
    gp_program *p = NULL;
    gp_status st = gp_build(dev, source, len, options, checks, NULL, &p);
    if (st != GP_OK) return st;
    gp_mutex_lock(&dev->lock);
    p->refs--; /* it stays in the device's cache for the build that follows */
    gp_mutex_unlock(&dev->lock);
    return GP_OK;
}

gp_status gp_program_create_from_file(gp_device *device, const char *path,
                                      const gp_build_options *options, gp_program **out)
{
    if (!device || !path || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_program_create_from_file: NULL argument");
    *out = NULL;
    char err[600];
    size_t len = 0;
    char *src = gp_read_file(path, GP_MAX_SOURCE, false, &len, err, sizeof err);
    if (!src) return gp_error_set(GP_ERR_IO, "cannot read the kernel source %s", err);
    gp_build_options o = {sizeof o, 0, NULL, NULL, 0, 0};
    if (options) {
        if (options->struct_size != 0 && options->struct_size < sizeof(gp_build_options)) {
            free(src);
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "gp_program_create_from_file: options.struct_size %u is not "
                                "sizeof(gp_build_options)",
                                options->struct_size);
        }
        o = *options;
    }
    if (!o.source_name) o.source_name = path;
    gp_status st = gp_program_create(device, src, len, &o, out);
    free(src);
    return st;
}

uint32_t gp_builtin_program_count(void)
{
    uint32_t n;
    gp_builtin_table(&n);
    return n;
}

const char *gp_builtin_program_name(uint32_t index)
{
    uint32_t n;
    const gp_builtin_program *t = gp_builtin_table(&n);
    return index < n ? t[index].name : NULL;
}

gp_status gp_program_create_builtin(gp_device *device, const char *name, gp_program **out)
{
    if (!device || !name || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_program_create_builtin: NULL argument");
    *out = NULL;
    uint32_t n;
    const gp_builtin_program *t = gp_builtin_table(&n);
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(t[i].name, name) != 0) continue;
        gp_build_options o = {sizeof o, 0, t[i].source_name, NULL, 0, 0};
        gp_status st = gp_build(device->state, t[i].source, strlen(t[i].source), &o, device->checks,
                                &t[i], out);
        if (st == GP_OK) gp_device_state_ref(device->state);
        return st;
    }
    return gp_error_set(GP_ERR_NOT_FOUND, "no built-in program '%s'", name);
}

const char *gp_dialect_prelude(size_t *len)
{
    if (len) *len = gp_prelude_text_len;
    return gp_prelude_text;
}

gp_status gp_program_release(gp_program *program)
{
    if (!program) return GP_OK;
    gp_device_state *dev = program->dev;
    gp_mutex_lock(&dev->lock);
    program->refs--; /* the program stays in the device's cache until the device closes */
    gp_mutex_unlock(&dev->lock);
    gp_device_state_unref(dev);
    return GP_OK;
}

gp_status gp_program_kernel_count(const gp_program *program, uint32_t *count)
{
    if (!program || !count)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_program_kernel_count: NULL argument");
    *count = program->num_kernels;
    return GP_OK;
}

gp_status gp_program_kernel_name(const gp_program *program, uint32_t index, const char **name)
{
    if (!program || !name)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_program_kernel_name: NULL argument");
    if (index >= program->num_kernels)
        return gp_error_set(GP_ERR_NOT_FOUND, "the program has %u kernel(s), no index %u",
                            program->num_kernels, index);
    *name = program->kernels[index].name;
    return GP_OK;
}
