/* program.c — CPU programs: a shared object built by the system C compiler from the assembled
 * dialect text and kept in the kernel cache (a second process dlopens the cached .so and starts
 * no compiler), or the descriptors linked into libgpuport for built-in programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/cpu/check/check.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/cpu.h"
#include "runtime/cpu/loops.h"
#include "util/dynlib.h"
#include "util/sha256.h"
#include "util/sys.h"

typedef struct gp_cpu_program {
    void *dl; /* dlopen handle, or NULL for a built-in program */
    const gp_builtin_program *builtin;
    const gp_ck_program *check; /* a checked program's tables */
} gp_cpu_program;

static const gp_cpu_kernel_desc *gp_cpu_find(const gp_cpu_program *p, const char *name)
{
    if (p->builtin) {
        for (uint32_t i = 0; i < p->builtin->num_cpu_kernels; i++)
            if (!strcmp(p->builtin->cpu_kernels[i]->name, name)) return p->builtin->cpu_kernels[i];
        return NULL;
    }
    char sym[200];
    snprintf(sym, sizeof sym, "gp__kdesc_%s", name);
    return gp_dl_sym(p->dl, sym);
}

/* Is every kernel of the signature present, with the ABI and parameters the runtime expects? */
static bool gp_cpu_matches(const gp_cpu_program *p, const gp_build_request *req)
{
    for (uint32_t i = 0; i < req->num_kernels; i++) {
        const gp_cpu_kernel_desc *d = gp_cpu_find(p, req->kernels[i].name);
        if (!d || d->abi != GP_CPU_ABI_VERSION || d->num_args != req->kernels[i].num_args)
            return false;
        for (uint32_t a = 0; a < d->num_args; a++)
            if (d->arg_kinds[a] != (unsigned)req->kernels[i].args[a].kind) return false;
    }
    return true;
}

/* A checked program's tables, and each kernel's. */
static bool gp_cpu_check_tables(gp_cpu_program *p, const gp_build_request *req)
{
    p->check = gp_dl_sym(p->dl, "gp__ckprog");
    if (!p->check || p->check->abi != GP_CK_ABI) return false;
    for (uint32_t i = 0; i < req->num_kernels; i++) {
        char sym[200];
        snprintf(sym, sizeof sym, "gp__kcheck_%s", req->kernels[i].name);
        const gp_ck_kernel *k = gp_dl_sym(p->dl, sym);
        if (!k || k->abi != GP_CK_ABI) return false;
    }
    return true;
}

static gp_status gp_cpu_open_so(const char *path, const gp_build_request *req, gp_cpu_program *p)
{
    p->dl = gp_dl_open(path);
    if (!p->dl)
        return gp_error_set(GP_ERR_BUILD, "%s: cannot load the compiled kernels: %s",
                            req->source_name, gp_dl_error());
    if (!gp_cpu_matches(p, req) || (req->checks && !gp_cpu_check_tables(p, req))) {
        gp_dl_close(p->dl);
        p->dl = NULL;
        return gp_error_set(GP_ERR_BUILD, "%s: the compiled object lacks kernels of the source",
                            req->source_name);
    }
    return GP_OK;
}

/* Compiles text into a shared object, stores it in the cache under key (when asked) and loads it.
 * With p NULL, only compiles (to learn whether the text compiles). */
static gp_status gp_cpu_build_so(const gp_build_request *req, const char *text, size_t len,
                                 const char *key, gp_cpu_program *p)
{
    const char *tmp = gp_tmp_dir();
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/gpuport-cc-XXXXXX", tmp);
    if (!mkdtemp(dir))
        return gp_error_set(GP_ERR_IO, "cannot create a folder for the compiler in %s: %s", tmp,
                            strerror(errno));
    char so[1100];
    snprintf(so, sizeof so, "%s/k.%s", dir, gp_dl_suffix);
    gp_status st =
        gp_cpu_compile(text, len, req->source_name, (req->flags & GP_BUILD_FAST_MATH) != 0, so);
    char *cached = NULL;
    if (st == GP_OK && p && req->use_disk_cache &&
        gp_cache_store_file(key, "so", so, &cached) != GP_OK)
        gp_log_debug("kernel cache: could not store %s: %s", req->source_name, gp_last_error());
    if (st == GP_OK && p) st = gp_cpu_open_so(cached ? cached : so, req, p);
    free(cached);
    unlink(so);
    rmdir(dir);
    return st;
}

/* Loads the program from the cache under key, or builds it from text. */
static gp_status gp_cpu_load_or_build(const gp_build_request *req, const char *text, size_t len,
                                      const char *key, gp_cpu_program *p)
{
    char *path = NULL;
    if (req->use_disk_cache && gp_cache_lookup_path(key, "so", &path) == GP_OK) {
        if (gp_cpu_open_so(path, req, p) == GP_OK) {
            gp_log_debug("%s: loaded from the kernel cache (%s)", req->source_name, path);
        } else {
            gp_log_debug("%s: cached object rejected (%s); rebuilding", req->source_name,
                         gp_last_error());
            gp_cache_discard(key, "so");
        }
        free(path);
    }
    if (p->dl) return GP_OK;
    return gp_cpu_build_so(req, text, len, key, p);
}

/* A checked program: the instrumented text (check/build.c), cached under its own key. When the
 * checker cannot read or build it, the plain text decides: its compile error is the user's,
 * otherwise the message says what the checker could not do. */
static gp_status gp_cpu_build_checked(const gp_build_request *req, gp_cpu_program *p)
{
    char *text = NULL;
    size_t len = 0;
    gp_status st = gp_ck_program_text(req, &text, &len);
    char why[4096];
    if (st != GP_OK) {
        gp_copy_str(why, sizeof why, gp_last_error());
        if (st != GP_ERR_BUILD) return st;
        if (gp_cpu_build_so(req, req->source, req->source_len, NULL, NULL) != GP_OK)
            return GP_ERR_BUILD; /* the compiler's message about the user's source */
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "the checker cannot read this source, which builds unchecked: %s", why);
    }
    gp_sha256 *h = gp_sha256_new();
    char key[65];
    gp_sha256_update(h, req->cache_key, strlen(req->cache_key));
    gp_sha256_update(h, "|checked|", 9);
    gp_sha256_update(h, text, len);
    gp_sha256_final_hex(h, key);
    st = gp_cpu_load_or_build(req, text, len, key, p);
    free(text);
    if (st == GP_ERR_BUILD) {
        gp_copy_str(why, sizeof why, gp_last_error());
        if (gp_cpu_build_so(req, req->source, req->source_len, NULL, NULL) != GP_OK)
            return GP_ERR_BUILD;
        return gp_error_set(GP_ERR_INTERNAL,
                            "%s builds unchecked, but its checked build failed (a bug in gpuport's "
                            "checker; please report it): %s",
                            req->source_name, why);
    }
    return st;
}

/* An unchecked program: kernels with barriers in the work-group loops form where loops.c can
 * prove it safe (cached under a key of its own text), the source as it is otherwise. */
static gp_status gp_cpu_build_plain(const gp_build_request *req, gp_cpu_program *p)
{
    char *text = NULL;
    size_t len = 0;
    if (gp_cpu_loops_enabled()) {
        gp_status st = gp_cpu_loops_text(req, &text, &len);
        if (st != GP_OK) return st;
    }
    if (!text) return gp_cpu_load_or_build(req, req->source, req->source_len, req->cache_key, p);
    gp_sha256 *h = gp_sha256_new();
    char key[65];
    gp_sha256_update(h, req->cache_key, strlen(req->cache_key));
    gp_sha256_update(h, "|loops|", 7);
    gp_sha256_update(h, text, len);
    gp_sha256_final_hex(h, key);
    gp_status st = gp_cpu_load_or_build(req, text, len, key, p);
    free(text);
    if (st == GP_ERR_BUILD) {
        char why[4096];
        gp_copy_str(why, sizeof why, gp_last_error());
        if (gp_cpu_build_so(req, req->source, req->source_len, NULL, NULL) != GP_OK)
            return GP_ERR_BUILD; /* the compiler's message about the user's source */
        return gp_error_set(GP_ERR_INTERNAL,
                            "%s builds as it is, but its work-group loops form failed to build (a "
                            "bug in gpuport; GPUPORT_CPU_LOOPS=0 runs it as fibers): %s",
                            req->source_name, why);
    }
    return st;
}

gp_status gp_cpu_program_build(gp_program *prog, const gp_build_request *req)
{
    gp_cpu_program *p = calloc(1, sizeof *p);
    if (!p) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    gp_status st = GP_OK;
    if (req->checks) {
        st = gp_cpu_build_checked(req, p); /* built-in programs too: from their source */
    } else if (req->builtin) {
        p->builtin = req->builtin;
        if (!gp_cpu_matches(p, req))
            st = gp_error_set(GP_ERR_INTERNAL, "built-in program %s does not match its source",
                              req->builtin->name);
    } else {
        st = gp_cpu_build_plain(req, p);
    }
    if (st != GP_OK) {
        if (p->dl) gp_dl_close(p->dl);
        free(p);
        return st;
    }
    prog->impl = p;
    return GP_OK;
}

void gp_cpu_program_release(gp_program *prog)
{
    gp_cpu_program *p = prog->impl;
    if (!p) return;
    if (p->dl) gp_dl_close(p->dl);
    free(p);
    prog->impl = NULL;
}

gp_status gp_cpu_kernel_create(gp_kernel *k)
{
    const gp_cpu_program *p = k->program->impl;
    const gp_cpu_kernel_desc *d = gp_cpu_find(p, k->sig->name);
    if (!d)
        return gp_error_set(GP_ERR_NOT_FOUND, "kernel '%s' is missing from the compiled program",
                            k->sig->name);
    k->max_group_size = GP_CPU_MAX_GROUP;
    if (!p->check) {
        k->impl = (void *)d;
        return GP_OK;
    }
    char sym[200];
    snprintf(sym, sizeof sym, "gp__kcheck_%s", k->sig->name);
    gp_ck_kernel_impl *ki = calloc(1, sizeof *ki);
    if (!ki) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    ki->desc = d;
    ki->ck = gp_dl_sym(p->dl, sym);
    ki->prog = p->check;
    if (!ki->ck) {
        free(ki);
        return gp_error_set(GP_ERR_NOT_FOUND, "kernel '%s' has no check tables", k->sig->name);
    }
    k->impl = ki;
    return GP_OK;
}

void gp_cpu_kernel_release(gp_kernel *k)
{
    if (k->program->checks) free(k->impl);
    k->impl = NULL;
}
