/* program.c — CPU programs: a shared object built by the system C compiler from the assembled
 * dialect text and kept in the kernel cache (a second process dlopens the cached .so and starts
 * no compiler), or the descriptors linked into libgpuport for built-in programs. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/cpu/compiler.h"
#include "runtime/cpu/cpu.h"

typedef struct gp_cpu_program {
    void *dl; /* dlopen handle, or NULL for a built-in program */
    const gp_builtin_program *builtin;
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
    return dlsym(p->dl, sym);
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

static gp_status gp_cpu_open_so(const char *path, const gp_build_request *req, gp_cpu_program *p)
{
    p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!p->dl)
        return gp_error_set(GP_ERR_BUILD, "%s: cannot load the compiled kernels: %s",
                            req->source_name, dlerror());
    if (!gp_cpu_matches(p, req)) {
        dlclose(p->dl);
        p->dl = NULL;
        return gp_error_set(GP_ERR_BUILD, "%s: the compiled object lacks kernels of the source",
                            req->source_name);
    }
    return GP_OK;
}

static gp_status gp_cpu_build_so(const gp_build_request *req, gp_cpu_program *p)
{
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/gpuport-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return gp_error_set(GP_ERR_IO, "cannot create a folder for the compiler in %s: %s",
                            tmp && *tmp ? tmp : "/tmp", strerror(errno));
    char so[1100];
    snprintf(so, sizeof so, "%s/k.so", dir);
    gp_status st = gp_cpu_compile(req->source, req->source_len, req->source_name,
                                  (req->flags & GP_BUILD_FAST_MATH) != 0, so);
    char *cached = NULL;
    if (st == GP_OK && req->use_disk_cache &&
        gp_cache_store_file(req->cache_key, "so", so, &cached) != GP_OK)
        gp_log_debug("kernel cache: could not store %s: %s", req->source_name, gp_last_error());
    if (st == GP_OK) st = gp_cpu_open_so(cached ? cached : so, req, p);
    free(cached);
    unlink(so);
    rmdir(dir);
    return st;
}

gp_status gp_cpu_program_build(gp_program *prog, const gp_build_request *req)
{
    gp_cpu_program *p = calloc(1, sizeof *p);
    if (!p) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    gp_status st = GP_OK;
    if (req->builtin) {
        p->builtin = req->builtin;
        if (!gp_cpu_matches(p, req))
            st = gp_error_set(GP_ERR_INTERNAL, "built-in program %s does not match its source",
                              req->builtin->name);
    } else {
        char *path = NULL;
        if (req->use_disk_cache && gp_cache_lookup_path(req->cache_key, "so", &path) == GP_OK) {
            if (gp_cpu_open_so(path, req, p) == GP_OK) {
                gp_log_debug("%s: loaded from the kernel cache (%s)", req->source_name, path);
            } else {
                gp_log_debug("%s: cached object rejected (%s); rebuilding", req->source_name,
                             gp_last_error());
                gp_cache_discard(req->cache_key, "so");
            }
            free(path);
        }
        if (!p->dl) st = gp_cpu_build_so(req, p);
    }
    if (st != GP_OK) {
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
    if (p->dl) dlclose(p->dl);
    free(p);
    prog->impl = NULL;
}

gp_status gp_cpu_kernel_create(gp_kernel *k)
{
    const gp_cpu_kernel_desc *d = gp_cpu_find(k->program->impl, k->sig->name);
    if (!d)
        return gp_error_set(GP_ERR_NOT_FOUND, "kernel '%s' is missing from the compiled program",
                            k->sig->name);
    k->impl = (void *)d;
    k->max_group_size = GP_CPU_MAX_GROUP;
    return GP_OK;
}
