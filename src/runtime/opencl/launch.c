/*
 * launch.c — programs, kernels and launches of the OpenCL backend. A program is looked up in
 * the kernel cache as an OpenCL program binary (CL_PROGRAM_BINARIES) under the core's key; a
 * miss, or a binary the driver rejects, is built from source and stored again. A launch sets
 * the arguments and enqueues under the kernel's lock, and nothing else: the core has already
 * checked arguments and group sizes, so the path stays as short as calling OpenCL directly.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "runtime/cache.h"
#include "runtime/opencl/errors.h"
#include "runtime/opencl/opencl.h"
#include "runtime/opencl/program.h"

/* Builds from the cache entry; GP_ERR_NOT_FOUND on a miss, GP_ERR_BUILD when rejected. */
static gp_status gp_cl_program_from_cache(gp_cl_device *cd, const gp_build_request *req,
                                          const char *options, cl_program *out)
{
    void *bin = NULL;
    size_t len = 0;
    gp_status st = gp_cache_load(req->cache_key, GP_CL_CACHE_EXT, &bin, &len);
    if (st != GP_OK) return GP_ERR_NOT_FOUND;
    st = gp_cl_program_build_binary(cd->api, cd->ctx, cd->info.device, bin, len, options, out);
    free(bin);
    return st;
}

static void gp_cl_program_to_cache(gp_cl_device *cd, const gp_build_request *req, cl_program p)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    if (gp_cl_program_binary(cd->api, p, &bin, &len) != GP_OK) {
        gp_log_debug("%s: no OpenCL binary to cache: %s", req->source_name, gp_last_error());
        return;
    }
    if (gp_cache_store(req->cache_key, GP_CL_CACHE_EXT, bin, len) != GP_OK)
        gp_log_debug("%s: the kernel cache was not written: %s", req->source_name, gp_last_error());
    free(bin);
}

gp_status gp_cl_program_build(gp_program *prog, const gp_build_request *req)
{
    gp_cl_device *cd = gp_cl_dev(prog->dev);
    bool fast = (req->flags & GP_BUILD_FAST_MATH) != 0;
    const char *options = fast ? "-cl-fast-relaxed-math" : "";
    if (gp_cl_pocl_conditional_barrier_bug(cd->info.platform_name, cd->info.driver_version) &&
        gp_cl_has_conditional_barrier(req->user_source ? req->user_source : req->source,
                                      req->user_source ? req->user_source_len : req->source_len)) {
        /* that PoCL loses the work of a barrier's branch unless its optimiser is off */
        options = fast ? "-cl-fast-relaxed-math -cl-opt-disable" : "-cl-opt-disable";
        gp_log_info("%s: built with -cl-opt-disable on %s: PoCL %s miscompiles a barrier "
                    "under a condition (docs/platforms.md)",
                    req->source_name, prog->dev->info.spec, cd->info.driver_version);
    }
    cl_program p = NULL;
    if (req->use_disk_cache) {
        gp_status st = gp_cl_program_from_cache(cd, req, options, &p);
        if (st == GP_OK) {
            gp_log_debug("%s: OpenCL binary from the kernel cache (%s)", req->source_name,
                         req->cache_key);
            prog->impl = p;
            return GP_OK;
        }
        if (st == GP_ERR_BUILD) {
            gp_log_info("%s: the cached OpenCL binary was rejected (%s); rebuilding from source",
                        req->source_name, gp_last_error());
            gp_cache_discard(req->cache_key, GP_CL_CACHE_EXT);
        }
    }
    gp_status st = gp_cl_program_build_assembled(cd->api, cd->ctx, cd->info.device, req->source,
                                                 req->source_len, req->source_name, options, &p);
    if (st != GP_OK) return st;
    if (req->use_disk_cache) gp_cl_program_to_cache(cd, req, p);
    prog->impl = p;
    return GP_OK;
}

void gp_cl_program_release(gp_program *prog)
{
    if (prog->impl) gp_cl_dev(prog->dev)->api->clReleaseProgram((cl_program)prog->impl);
    prog->impl = NULL;
}

gp_status gp_cl_kernel_create(gp_kernel *k)
{
    gp_device_state *dev = k->program->dev;
    gp_cl_device *cd = gp_cl_dev(dev);
    cl_int err;
    cl_kernel kernel = cd->api->clCreateKernel((cl_program)k->program->impl, k->sig->name, &err);
    if (!kernel) return gp_cl_fail(err, "clCreateKernel('%s') on %s", k->sig->name, dev->info.spec);
    gp_cl_kernel_limits lim;
    gp_status st = gp_cl_kernel_limits_query(cd->api, kernel, cd->info.device, &lim);
    gp_cl_kernel *ck = st == GP_OK ? calloc(1, sizeof *ck) : NULL;
    if (!ck) {
        cd->api->clReleaseKernel(kernel);
        return st != GP_OK ? st : gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    ck->kernel = kernel;
    gp_mutex_init(&ck->lock);
    size_t limit = lim.max_group_size;
    if (limit > cd->info.max_group_size) limit = cd->info.max_group_size;
    k->max_group_size = limit > UINT32_MAX ? UINT32_MAX : (uint32_t)limit;
    k->impl = ck;
    return GP_OK;
}

void gp_cl_kernel_release(gp_kernel *k)
{
    gp_cl_kernel *ck = (gp_cl_kernel *)k->impl;
    if (!ck) return;
    gp_cl_dev(k->program->dev)->api->clReleaseKernel(ck->kernel);
    gp_mutex_destroy(&ck->lock);
    free(ck);
    k->impl = NULL;
}

/* A GP_CBUF argument gets the buffer's read-only view, unless a GP_BUF argument of the same launch
 * binds the same buffer (two cl_mem over one memory, one written, in one kernel is undefined). */
static bool gp_cl_read_only_arg(const gp_kernel *k, const gp_launch *l, uint32_t i)
{
    const gp_arg *a = &l->args[i];
    if (!a->buffer || k->sig->args[i].kind != GP_ARG_CONST_BUFFER ||
        !((gp_cl_buffer *)a->buffer->impl)->ro)
        return false;
    for (uint32_t j = 0; j < l->num_args; j++)
        if (j != i && l->args[j].kind == GP_ARG_BUFFER && l->args[j].buffer == a->buffer &&
            k->sig->args[j].kind != GP_ARG_CONST_BUFFER)
            return false;
    return true;
}

/* Sets argument i; the caller holds the kernel's lock. */
static cl_int gp_cl_set_arg(const gp_cl_api *api, cl_kernel kernel, uint32_t i, const gp_arg *a,
                            bool read_only)
{
    switch (a->kind) {
    case GP_ARG_BUFFER: {
        /* gp_arg_null(): a NULL cl_mem is a null __global pointer in the kernel */
        const gp_cl_buffer *b = a->buffer ? (const gp_cl_buffer *)a->buffer->impl : NULL;
        cl_mem mem = b ? (read_only ? b->ro : b->mem) : NULL;
        return api->clSetKernelArg(kernel, i, sizeof mem, &mem);
    }
    case GP_ARG_DYN_SHARED:
        /* __local memory: a size and no value; OpenCL refuses a size of 0 */
        return api->clSetKernelArg(kernel, i, a->size ? a->size : 1, NULL);
    default:
        return api->clSetKernelArg(kernel, i, a->size, a->value);
    }
}

/* A launch of a program on the record path of gp_printf: the print buffer, made with its header
 * (capacity and layout set, the rest zero) and bound as the kernel's last argument. */
typedef struct gp_cl_print {
    cl_mem mem;
    uint32_t *host; /* the header and the records, read back after the launch */
    size_t words;
} gp_cl_print;

static gp_status gp_cl_print_begin(gp_queue *q, gp_kernel *k, gp_cl_print *p)
{
    const gp_cl_device *cd = gp_cl_dev(q->dev);
    p->words = GP_PRINT_REC_HEADER + (size_t)gp_print_record_words();
    p->host = calloc(p->words, sizeof *p->host);
    if (!p->host) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    p->host[GP_PRINT_REC_CAPACITY] = (uint32_t)(p->words - GP_PRINT_REC_HEADER);
    p->host[GP_PRINT_REC_LAYOUT] = GP_PRINT_REC_VERSION;
    cl_int err;
    p->mem = cd->api->clCreateBuffer(cd->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     p->words * 4, p->host, &err);
    if (!p->mem) {
        free(p->host);
        p->host = NULL;
        return gp_cl_fail(err, "the gp_printf buffer (%zu bytes) of kernel '%s' on %s",
                          p->words * 4, k->sig->name, q->dev->info.spec);
    }
    return GP_OK;
}

/* Waits for the launch (the queue is in order), reads what it wrote and hands the lines on. */
static gp_status gp_cl_print_end(gp_queue *q, gp_kernel *k, gp_cl_print *p)
{
    const gp_cl_api *api = gp_cl_dev(q->dev)->api;
    cl_command_queue cq = gp_cl_queue(q);
    cl_int err = api->clEnqueueReadBuffer(cq, p->mem, CL_TRUE, 0, GP_PRINT_REC_HEADER * 4, p->host,
                                          0, NULL, NULL);
    size_t cap = p->words - GP_PRINT_REC_HEADER;
    size_t used = p->host[GP_PRINT_REC_CURSOR] < cap ? p->host[GP_PRINT_REC_CURSOR] : cap;
    if (err == CL_SUCCESS && used)
        err = api->clEnqueueReadBuffer(cq, p->mem, CL_TRUE, GP_PRINT_REC_HEADER * 4, used * 4,
                                       p->host + GP_PRINT_REC_HEADER, 0, NULL, NULL);
    gp_status st = GP_OK;
    if (err == CL_SUCCESS)
        gp_printf_records_emit(k->program->prints, k->sig->name, p->host, p->words);
    else
        st = gp_cl_fail(err, "reading the gp_printf buffer of kernel '%s' on %s", k->sig->name,
                        q->dev->info.spec);
    api->clReleaseMemObject(p->mem);
    free(p->host);
    return st;
}

gp_status gp_cl_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l)
{
    const gp_cl_api *api = gp_cl_dev(q->dev)->api;
    gp_cl_kernel *ck = (gp_cl_kernel *)k->impl;
    size_t global[3], local[3];
    for (uint32_t d = 0; d < 3; d++) {
        local[d] = l->group[d];
        global[d] = (size_t)l->group[d] * l->num_groups[d];
    }
    gp_cl_print print = {0};
    if (k->program->prints) {
        gp_status st = gp_cl_print_begin(q, k, &print);
        if (st != GP_OK) return st;
    }
    gp_mutex_lock(&ck->lock);
    cl_int perr = print.mem
                      ? api->clSetKernelArg(ck->kernel, l->num_args, sizeof print.mem, &print.mem)
                      : CL_SUCCESS;
    if (perr != CL_SUCCESS) {
        gp_mutex_unlock(&ck->lock);
        api->clReleaseMemObject(print.mem);
        free(print.host);
        return gp_cl_fail(perr, "binding the gp_printf buffer of kernel '%s' on %s", k->sig->name,
                          q->dev->info.spec);
    }
    for (uint32_t i = 0; i < l->num_args; i++) {
        cl_int err = gp_cl_set_arg(api, ck->kernel, i, &l->args[i], gp_cl_read_only_arg(k, l, i));
        if (err != CL_SUCCESS) {
            gp_mutex_unlock(&ck->lock);
            if (print.mem) api->clReleaseMemObject(print.mem);
            free(print.host);
            return gp_cl_fail(err, "setting argument %u ('%s') of kernel '%s' on %s", i,
                              k->sig->args[i].name, k->sig->name, q->dev->info.spec);
        }
    }
    cl_int err = api->clEnqueueNDRangeKernel(gp_cl_queue(q), ck->kernel, l->dims, NULL, global,
                                             local, 0, NULL, (cl_event *)gp_trace_capture);
    gp_mutex_unlock(&ck->lock);
    if (err != CL_SUCCESS && print.mem) {
        api->clReleaseMemObject(print.mem);
        free(print.host);
    }
    if (err != CL_SUCCESS)
        return gp_cl_fail(err, "launching '%s' on %s (grid %zux%zux%zu in groups of %zux%zux%zu)",
                          k->sig->name, q->dev->info.spec, global[0], global[1], global[2],
                          local[0], local[1], local[2]);
    /* a program that prints: the launch is waited for here, and its lines handed on whole */
    if (print.mem) return gp_cl_print_end(q, k, &print);
    return GP_OK;
}
