/*
 * program.m — Metal programs, kernels and launches. The assembled dialect source (prelude and
 * user's text joined by the core, with #line so the compiler names the user's file and line) is
 * compiled by newLibraryWithSource with the language version and the math mode set explicitly.
 * Compiling costs every process time, so libraries and pipelines are kept per device for the
 * life of the process, keyed by the cache key (and the kernel name). A program that uses
 * gp_printf is compiled as MSL 3.2 with logging where the device prints through os_log; else the
 * core has rewritten its calls into records, and each launch binds a print buffer for them.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/metal/metal_impl.h"

/* The compile options: language version and math mode, never the defaults (fast math is on by
 * default in Metal; the dialect promises the same results as the other targets). */
static MTLCompileOptions *gp_mtl_options(const gp_mtl_device *m, bool fast, bool logging)
{
    MTLCompileOptions *o = [[[MTLCompileOptions alloc] init] autorelease];
    o.languageVersion = m->language;
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    o.fastMathEnabled = fast;
#pragma clang diagnostic pop
#if defined(__MAC_15_0) || defined(__IPHONE_18_0)
    if (@available(macOS 15.0, iOS 18.0, *)) {
        o.mathMode = fast ? MTLMathModeFast : MTLMathModeSafe;
        o.mathFloatingPointFunctions =
            fast ? MTLMathFloatingPointFunctionsFast : MTLMathFloatingPointFunctionsPrecise;
        /* gp_printf as os_log: MSL 3.2 with logging, for the programs that print only (the
         * logging costs even when nothing prints) */
        if (logging) {
            o.languageVersion = MTLLanguageVersion3_2;
            o.enableLogging = YES;
        }
    }
#else
    (void)logging;
#endif
    return o;
}

/* The device's library for this key: from the in-process cache, or compiled now (+1). */
static gp_status gp_mtl_library(gp_mtl_device *m, const gp_build_request *req, bool logging,
                                id<MTLLibrary> *out)
{
    NSString *key = [NSString stringWithUTF8String:req->cache_key];
    pthread_mutex_lock(&m->lock);
    id<MTLLibrary> lib = [m->libraries[key] retain];
    pthread_mutex_unlock(&m->lock);
    if (lib) {
        *out = lib;
        return GP_OK;
    }
    NSString *src = [[[NSString alloc] initWithBytes:req->source
                                              length:req->source_len
                                            encoding:NSUTF8StringEncoding] autorelease];
    if (!src)
        return gp_error_set(GP_ERR_BUILD, "%s is not valid UTF-8 text, which Metal requires",
                            req->source_name ? req->source_name : "the kernel source");
    NSError *err = nil;
    lib = [m->device
        newLibraryWithSource:src
                     options:gp_mtl_options(m, (req->flags & GP_BUILD_FAST_MATH) != 0, logging)
                       error:&err];
    int major = logging ? 3 : (int)(m->language >> 16),
        minor = logging ? 2 : (int)(m->language & 0xffff);
    if (!lib) /* The compiler's log as it is: its lines already name the user's file and line. */
        return gp_error_set(GP_ERR_BUILD, "Metal compile (MSL %d.%d) of %s failed:\n%s", major,
                            minor, req->source_name ? req->source_name : "the program",
                            gp_mtl_error_text(err).UTF8String);
    if (err) gp_log_debug("metal: the compiler said:\n%s", gp_mtl_error_text(err).UTF8String);
    pthread_mutex_lock(&m->lock);
    m->libraries[key] = lib;
    pthread_mutex_unlock(&m->lock);
    *out = lib;
    return GP_OK;
}

gp_status gp_mtl_op_program_build(gp_program *prog, const gp_build_request *req)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(prog->dev);
        id<MTLLibrary> lib = nil;
        bool logging = req->prints && m->print_oslog;
        gp_status st = gp_mtl_library(m, req, logging, &lib);
        if (st != GP_OK) return st;
        gp_mtl_program *p = calloc(1, sizeof *p);
        if (!p) {
            [lib release];
            return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        }
        p->library = lib;
        p->logging = logging;
        p->key = [[NSString alloc] initWithUTF8String:req->cache_key];
        prog->impl = p;
        return GP_OK;
    }
}

void gp_mtl_op_program_release(gp_program *prog)
{
    @autoreleasepool {
        gp_mtl_program *p = prog->impl;
        if (!p) return;
        [p->key release];
        [p->library release];
        free(p);
        prog->impl = NULL;
    }
}

gp_status gp_mtl_op_kernel_create(gp_kernel *k)
{
    @autoreleasepool {
        gp_mtl_device *m = gp_mtl_dev(k->program->dev);
        gp_mtl_program *p = k->program->impl;
        NSString *name = [NSString stringWithUTF8String:k->sig->name];
        NSString *key = [NSString stringWithFormat:@"%@/%@", p->key, name];
        pthread_mutex_lock(&m->lock);
        id<MTLComputePipelineState> pso = [m->pipelines[key] retain];
        pthread_mutex_unlock(&m->lock);
        if (!pso) {
            id<MTLFunction> fn = [p->library newFunctionWithName:name];
            if (!fn)
                return gp_error_set(GP_ERR_NOT_FOUND, "kernel %s is not in the Metal library",
                                    k->sig->name);
            NSError *err = nil;
            pso = [m->device newComputePipelineStateWithFunction:fn error:&err];
            [fn release];
            if (!pso)
                return gp_error_set(GP_ERR_BUILD, "Metal could not make a pipeline for %s: %s",
                                    k->sig->name, gp_mtl_error_text(err).UTF8String);
            pthread_mutex_lock(&m->lock);
            m->pipelines[key] = pso;
            pthread_mutex_unlock(&m->lock);
        }
        /* the prelude's gp_simd_width() is 32: a pipeline that runs other SIMD widths would
         * shuffle between the wrong lanes */
        if (k->sig->uses_simd && pso.threadExecutionWidth != 32) {
            NSUInteger w = pso.threadExecutionWidth;
            [pso release];
            return gp_error_set(GP_ERR_UNSUPPORTED,
                                "kernel %s uses SIMD-group operations, written for 32 lanes, but "
                                "its Metal pipeline runs %lu lanes",
                                k->sig->name, (unsigned long)w);
        }
        k->impl = pso;
        k->max_group_size = (uint32_t)pso.maxTotalThreadsPerThreadgroup;
        return GP_OK;
    }
}

void gp_mtl_op_kernel_release(gp_kernel *k)
{
    [(id<MTLComputePipelineState>)k->impl release];
    k->impl = NULL;
}

gp_status gp_mtl_op_kernel_launch(gp_queue *q, gp_kernel *k, const gp_launch *l)
{
    @autoreleasepool {
        gp_mtl_queue *mq = q->impl;
        id<MTLComputePipelineState> pso = (id<MTLComputePipelineState>)k->impl;
        gp_mtl_program *mp = k->program->impl;
        gp_printf_table *prints = k->program->prints;
        id<MTLBuffer> pbuf = nil;
        if (prints) { /* the record path of gp_printf: this launch's print buffer */
            uint32_t words = gp_print_record_words();
            pbuf = [[mq->dev->device newBufferWithLength:(GP_PRINT_REC_HEADER + (size_t)words) * 4
                                                 options:MTLResourceStorageModeShared] autorelease];
            if (!pbuf)
                return gp_error_set(
                    GP_ERR_OUT_OF_MEMORY,
                    "Metal could not allocate the %u-byte print buffer of kernel %s",
                    (GP_PRINT_REC_HEADER + words) * 4, k->sig->name);
            uint32_t *w = (uint32_t *)pbuf.contents;
            memset(w, 0, (GP_PRINT_REC_HEADER + (size_t)words) * 4);
            w[GP_PRINT_REC_CAPACITY] = words;
            w[GP_PRINT_REC_LAYOUT] = GP_PRINT_REC_VERSION;
        }
        pthread_mutex_lock(&mq->lock);
        id<MTLCommandBuffer> cb =
            mp->logging ? gp_mtl_queue_begin_logged(mq) : gp_mtl_queue_begin(mq);
        if (!cb) {
            pthread_mutex_unlock(&mq->lock);
            return GP_ERR_BACKEND;
        }
        id<MTLComputeCommandEncoder> enc = [cb computeCommandEncoder];
        [enc setComputePipelineState:pso];
        /* The dialect's binding: parameter i is [[buffer(i)]] (buffers by reference, values as
         * bytes); the dynamic shared block is [[threadgroup(0)]], in multiples of 16 bytes. */
        for (uint32_t i = 0; i < l->num_args; i++) {
            const gp_arg *a = &l->args[i];
            if (a->kind == GP_ARG_BUFFER) {
                /* gp_arg_null(): no buffer bound, a null device pointer in the kernel */
                id<MTLBuffer> mb = a->buffer ? (id<MTLBuffer>)a->buffer->impl : nil;
                size_t off = a->buffer ? a->buffer->offset : 0;
                [enc setBuffer:mb offset:off atIndex:i];
            } else if (a->kind == GP_ARG_DYN_SHARED) {
                size_t bytes = (a->size + 15) & ~(size_t)15;
                [enc setThreadgroupMemoryLength:(bytes ? bytes : 16) atIndex:0];
            } else {
                [enc setBytes:a->value length:a->size atIndex:i];
            }
        }
        if (pbuf) [enc setBuffer:pbuf offset:0 atIndex:GP_PRINT_REC_BINDING];
        MTLSize group = MTLSizeMake(l->group[0], l->group[1], l->group[2]);
        /* gpuport grids are whole groups on every backend (gp_local_size is the same in every
         * group), so both forms dispatch the same threads; dispatchThreads where the GPU
         * supports it, bounded by the pipeline's maxTotalThreadsPerThreadgroup, which the core
         * checked against k->max_group_size. */
        if (mq->dev->dispatch_threads)
            [enc dispatchThreads:MTLSizeMake((NSUInteger)l->num_groups[0] * l->group[0],
                                             (NSUInteger)l->num_groups[1] * l->group[1],
                                             (NSUInteger)l->num_groups[2] * l->group[2])
                threadsPerThreadgroup:group];
        else
            [enc dispatchThreadgroups:MTLSizeMake(l->num_groups[0], l->num_groups[1],
                                                  l->num_groups[2])
                threadsPerThreadgroup:group];
        [enc endEncoding];
        gp_mtl_queue_commit(mq, cb);
        if (pbuf) gp_mtl_queue_add_print(mq, cb, pbuf, prints, k->sig->name);
        pthread_mutex_unlock(&mq->lock);
        return GP_OK;
    }
}
