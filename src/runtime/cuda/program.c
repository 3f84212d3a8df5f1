/*
 * program.c — CUDA programs and launches: the assembled dialect source is compiled by NVRTC
 * (compile.c) to a cubin or PTX, kept in the kernel cache, and loaded with cuModuleLoadDataEx
 * (which JIT-compiles PTX in the driver). Without NVRTC, built-in programs use the PTX that nvcc
 * made at build time. Launches pass the dialect's argument layout to cuLaunchKernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cache.h"
#include "runtime/cuda/compile.h"
#include "runtime/cuda/embedded.h"
#include "runtime/cuda/ops.h"
#include "util/strbuf.h"

gp_status gp_cuda_op_compiler_id(gp_device_state *dev, char *buf, size_t cap)
{
    gp_cuda_device *d = gp_cuda_dev(dev);
    const gp_cuda_nvrtc *nv;
    gp_cuda_target t = {0, false};
    char tname[24] = "none";
    if (gp_cuda_nvrtc_get(&nv) == GP_OK) {
        if (gp_cuda_target_choose(nv->archs, nv->n_archs, d->cc_major, d->cc_minor, &t) == GP_OK)
            gp_cuda_target_name(t, tname, sizeof tname);
        snprintf(buf, cap, "nvrtc %d.%d %s; cuda driver %d", nv->major, nv->minor, tname,
                 d->drv->version);
    } else {
        snprintf(buf, cap, "precompiled ptx; cuda driver %d", d->drv->version);
    }
    gp_error_clear();
    return GP_OK;
}

/* Loads a cubin or NUL-terminated PTX into the device's context, with the JIT's error log in
 * the message when the driver refuses it. `nvrtc_version` (1000 * major + 10 * minor, 0 if not
 * from NVRTC) makes the advice for UNSUPPORTED_PTX_VERSION exact. */
static gp_status gp_cuda_module_load(gp_cuda_device *d, const void *image, int nvrtc_version,
                                     const char *source_name, CUmodule *out)
{
    char log[4096] = "";
    int opts[] = {GP_CU_JIT_ERROR_LOG_BUFFER, GP_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuModuleLoadDataEx(out, image, 2, opts, vals);
    gp_cuda_ctx_pop(d);
    if (r == GP_CU_SUCCESS) return GP_OK;
    char what[512];
    snprintf(what, sizeof what, "loading the compiled %s on %s (compute capability %d.%d)",
             source_name ? source_name : "program", d->name, d->cc_major, d->cc_minor);
    st = gp_cuda_fail_versions(r, what, d->drv->version, nvrtc_version);
    if (log[0]) {
        log[sizeof log - 1] = '\0';
        gp_strbuf msg = GP_STRBUF_INIT;
        gp_strbuf_printf(&msg, "%s\n%s", gp_last_error(), log);
        gp_error_set(st, "%s", gp_strbuf_cstr(&msg));
        gp_strbuf_free(&msg);
    }
    return st;
}

/* A built-in program on a machine without NVRTC: the PTX nvcc made at build time. */
static gp_status gp_cuda_build_embedded(gp_program *prog, const gp_build_request *req)
{
    gp_cuda_device *d = gp_cuda_dev(prog->dev);
    char nvrtc_msg[1024];
    gp_copy_str(nvrtc_msg, sizeof nvrtc_msg, gp_last_error());
    const gp_cuda_embedded *e = req->builtin ? gp_cuda_embedded_find(req->builtin->name) : NULL;
    if (!e)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "CUDA kernels from source need NVRTC, and this library has no "
                            "precompiled PTX for %s: %s",
                            req->source_name ? req->source_name : "this program", nvrtc_msg);
    if (e->arch > d->cc_major * 10 + d->cc_minor)
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "the precompiled PTX of %s is for compute_%d, newer than %s "
                            "(compute capability %d.%d), and there is no NVRTC: %s",
                            e->program, e->arch, d->name, d->cc_major, d->cc_minor, nvrtc_msg);
    CUmodule mod;
    gp_status st = gp_cuda_module_load(d, e->ptx, e->cuda_version, req->source_name, &mod);
    if (st != GP_OK) return st;
    prog->impl = mod;
    gp_log_debug("cuda: %s from precompiled PTX (compute_%d)", e->program, e->arch);
    return GP_OK;
}

/* A cache hit that the driver accepts, or false (a refused entry is discarded). */
static bool gp_cuda_build_cached(gp_program *prog, const gp_build_request *req, const char *ext,
                                 int nvrtc_version)
{
    void *data = NULL;
    size_t len = 0;
    if (gp_cache_load(req->cache_key, ext, &data, &len) != GP_OK) {
        gp_error_clear();
        return false;
    }
    /* PTX must end with a NUL for the driver; cubins are unaffected by one more byte. */
    char *image = realloc(data, len + 1);
    if (!image) {
        free(data);
        return false;
    }
    image[len] = '\0';
    CUmodule mod;
    gp_status st =
        gp_cuda_module_load(gp_cuda_dev(prog->dev), image, nvrtc_version, req->source_name, &mod);
    free(image);
    if (st != GP_OK) {
        gp_log_info("cuda: the cached %s for %s was refused; rebuilding", ext, req->source_name);
        gp_cache_discard(req->cache_key, ext);
        gp_error_clear();
        return false;
    }
    prog->impl = mod;
    return true;
}

gp_status gp_cuda_op_program_build(gp_program *prog, const gp_build_request *req)
{
    gp_cuda_device *d = gp_cuda_dev(prog->dev);
    const gp_cuda_nvrtc *nv;
    if (gp_cuda_nvrtc_get(&nv) != GP_OK) return gp_cuda_build_embedded(prog, req);
    gp_cuda_target target;
    gp_status st = gp_cuda_target_choose(nv->archs, nv->n_archs, d->cc_major, d->cc_minor, &target);
    if (st != GP_OK) return st;
    const char *ext = target.is_cubin ? "cubin" : "ptx";
    int nvrtc_version = nv->major * 1000 + nv->minor * 10;
    if (req->use_disk_cache && gp_cuda_build_cached(prog, req, ext, nvrtc_version)) return GP_OK;

    const char *fast[] = {"--use_fast_math"};
    gp_cuda_source src = {.text = req->source,
                          .name = req->source_name,
                          .options = (req->flags & GP_BUILD_FAST_MATH) ? fast : NULL,
                          .n_options = (req->flags & GP_BUILD_FAST_MATH) ? 1 : 0};
    gp_cuda_image img;
    char *log = NULL;
    st = gp_cuda_compile(nv, &src, target, &img, &log);
    if (st == GP_OK && log && log[0]) gp_log_debug("cuda: NVRTC said:\n%s", log);
    free(log);
    if (st != GP_OK) return st;
    CUmodule mod;
    st = gp_cuda_module_load(d, img.data, nvrtc_version, req->source_name, &mod);
    if (st == GP_OK) {
        prog->impl = mod;
        /* PTX is stored with its NUL; a failed store only costs a rebuild next time. */
        if (req->use_disk_cache && gp_cache_store(req->cache_key, ext, img.data, img.size) != GP_OK)
            gp_error_clear();
    }
    gp_cuda_image_free(&img);
    return st;
}

void gp_cuda_op_program_release(gp_program *prog)
{
    gp_cuda_device *d = gp_cuda_dev(prog->dev);
    if (!prog->impl || gp_cuda_ctx_push(d) != GP_OK) return;
    d->drv->api.cuModuleUnload((CUmodule)prog->impl);
    gp_cuda_ctx_pop(d);
    prog->impl = NULL;
}

gp_status gp_cuda_op_kernel_create(gp_kernel *k)
{
    gp_cuda_device *d = gp_cuda_dev(k->program->dev);
    const gp_cuda_driver_api *api = &d->drv->api;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUfunction f = NULL;
    int max_threads = 0;
    CUresult r = api->cuModuleGetFunction(&f, (CUmodule)k->program->impl, k->sig->name);
    if (r == GP_CU_SUCCESS)
        r = api->cuFuncGetAttribute(&max_threads, GP_CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK, f);
    gp_cuda_ctx_pop(d);
    if (r != GP_CU_SUCCESS) {
        char what[192];
        snprintf(what, sizeof what, "finding kernel %s", k->sig->name);
        return gp_cuda_fail(r, what);
    }
    k->impl = f;
    k->max_group_size = (uint32_t)max_threads;
    return GP_OK;
}

void gp_cuda_op_kernel_release(gp_kernel *k)
{
    k->impl = NULL; /* functions belong to their module */
}

gp_status gp_cuda_op_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l)
{
    gp_cuda_device *d = gp_cuda_dev(q->dev);
    /* cuLaunchKernel reads each parameter through params[i]: a buffer's device address, a
     * value's bytes, or the dynamic shared block's size (the dialect passes it as a uint).
     * The list ends with NULL, which the driver ignores and a test double can rely on. */
    void *params[GP_MAX_KERNEL_ARGS + 1];
    CUdeviceptr ptrs[GP_MAX_KERNEL_ARGS];
    unsigned int dyn_sizes[GP_MAX_KERNEL_ARGS];
    for (uint32_t i = 0; i < l->num_args; i++) {
        const gp_arg *a = &l->args[i];
        if (a->kind == GP_ARG_BUFFER) {
            ptrs[i] = a->buffer ? gp_cuda_buffer_ptr(a->buffer) : 0; /* 0: gp_arg_null() */
            params[i] = &ptrs[i];
        } else if (a->kind == GP_ARG_DYN_SHARED) {
            dyn_sizes[i] = (unsigned int)a->size;
            params[i] = &dyn_sizes[i];
        } else {
            params[i] = (void *)a->value;
        }
    }
    params[l->num_args] = NULL;
    gp_status st = gp_cuda_ctx_push(d);
    if (st != GP_OK) return st;
    CUresult r = d->drv->api.cuLaunchKernel(
        (CUfunction)k->impl, l->num_groups[0], l->num_groups[1], l->num_groups[2], l->group[0],
        l->group[1], l->group[2], (unsigned)l->dyn_shared_bytes, gp_cuda_stream(q), params, NULL);
    gp_cuda_ctx_pop(d);
    if (r != GP_CU_SUCCESS) {
        char what[256];
        snprintf(what, sizeof what, "launching %s (%u x %u x %u groups of %u x %u x %u)",
                 k->sig->name, l->num_groups[0], l->num_groups[1], l->num_groups[2], l->group[0],
                 l->group[1], l->group[2]);
        return gp_cuda_fail(r, what);
    }
    return GP_OK;
}
