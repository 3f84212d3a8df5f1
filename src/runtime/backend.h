/*
 * backend.h — the private interface between the runtime core and its backends (CUDA, Metal,
 * OpenCL, CPU): the object layouts both sides share, the table of functions each backend fills
 * in, and the registration. The core checks every argument before it calls a backend, so a
 * backend trusts what it gets: handles non-NULL, offsets and sizes inside the buffer, kernel
 * arguments matching the signature, group sizes within the limits it reported.
 *
 * Adding a backend: a folder src/runtime/<name>/ defining `const gp_backend_ops
 * gp_backend_<name>_ops` and one line in the table of registry.c. The build defines
 * GP_HAVE_BACKEND_<NAME>=1 when the folder has sources (Metal only on Apple).
 */
#ifndef GP_RUNTIME_BACKEND_H
#define GP_RUNTIME_BACKEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuport/gpuport.h"
#define GP_KERNEL_ABI_ONLY
#include "gpuport/kernel.h"
#undef GP_KERNEL_ABI_ONLY
#include "runtime/error.h"
#include "util/thread.h"

#define GP_MAX_KERNEL_ARGS 24 /* what GP_KERNEL can express */

/* ---- objects ------------------------------------------------------------------------------ */

typedef struct gp_backend_ops gp_backend_ops;

/* One physical device, shared by every gp_device handle opened on it (the registry keeps one per
 * backend and index). `impl` belongs to the backend. */
typedef struct gp_device_state {
    const gp_backend_ops *ops;
    uint32_t index;      /* within its backend */
    gp_device_info info; /* filled by ops->device_info before device_open */
    void *impl;          /* the backend's device (context, command queue, ...) */
    gp_queue *default_queue;
    /* core-owned: */
    gp_mutex lock; /* guards refs and the program cache below */
    int refs;
    struct gp_program *programs; /* in-process cache of built programs, a list by key */
    /* set by device_open: this device has no printf for the programs it builds, so the core
     * rewrites each gp_printf call to write a record (printf_format.c), defines
     * GP__PRINT_RECORDS, and sets prog->prints; the backend binds a buffer at
     * GP_PRINT_REC_BINDING for each launch and hands it to gp_printf_records_emit after it. */
    bool print_records;
    /* set by device_open instead (OpenCL): the record path with each argument typed by its
     * conversion (OpenCL C has no overloads), the buffer bound as the kernel's last argument; a
     * program the record path cannot take (a call in a helper function) keeps the device's own
     * printf, and the reason is logged. */
    bool print_records_typed;
} gp_device_state;

/* The public handle: a reference to the device plus the record of how it was chosen. */
struct gp_device {
    gp_device_state *state;
    gp_selection_entry selection[GP_BACKEND_COUNT];
    uint32_t checks; /* GP_CHECK_* for programs built and buffers created through this handle */
};

struct gp_buffer {
    gp_device_state *dev;
    gp_buffer_kind kind;
    size_t size;
    void *impl;      /* the backend's allocation (cl_mem, a CUdeviceptr cast, id<MTLBuffer>) */
    void *host_ptr;  /* host-visible kinds: the mapping, where the backend keeps a fixed one */
    size_t offset;   /* where the buffer starts in impl's allocation (a wrapped Metal buffer) */
    bool mapped;     /* core-owned */
    bool wrapped;    /* core-owned: memory of another library (gp_buffer_wrap), not freed here */
    uint32_t checks; /* set by the core before buffer_create: the handle's GP_CHECK_* */
    void *check;     /* the backend's checking state of the buffer (the CPU's), or NULL */
};

struct gp_queue {
    gp_device_state *dev;
    void *impl;
    bool is_default; /* core-owned: the device's default queue, never released by users */
    bool wrapped;    /* core-owned: another library's stream (gp_queue_wrap), not destroyed */
};

struct gp_event {
    gp_device_state *dev;
    void *impl;
};

/* The signature of one GP_KERNEL, parsed by the core from the source (signature.c). */
typedef struct gp_kernel_sig {
    char name[128];
    uint32_t num_args;
    gp_arg_info args[GP_MAX_KERNEL_ARGS];
    bool uses_barrier;     /* gp_barrier appears in its body or in a helper of the same source */
    bool uses_simd;        /* a gp_simd_* group operation does (shuffle, ballot, any, all) */
    uint32_t indexed_only; /* bit i: the body uses buffer parameter i only as `name[...]`, never
                              tests it, so a null pointer for it would be dereferenced */
    uint32_t req_group[3]; /* GP_REQUIRES_GROUP_SIZE(name, x, y, z): the only group it runs in
                              (0 0 0: any) */
} gp_kernel_sig;

/* What a source asks of the device beyond the dialect's core, read by the signature parser. */
typedef struct gp_source_needs {
    bool fp64;           /* GP_REQUIRES_FP64 */
    bool atomic64;       /* GP_REQUIRES_ATOMIC64 */
    uint32_t simd_width; /* GP_REQUIRES_SIMD_WIDTH(n): n; 0 when the source does not say */
    char simd_op[32];    /* the first gp_simd_* operation in the source, "" when none */
    int simd_line;       /* its line */
} gp_source_needs;

/* A program built for one device. Shared: the per-device cache hands the same object to every
 * gp_program_create with the same key, counting references. */
/* The gp_printf calls of a source, by id, for backends that print through a record buffer
 * (printf_format.c; the layout is in kernel.h). Reference-counted: a launch keeps one until
 * its records are formatted. */
typedef struct gp_printf_table gp_printf_table;

struct gp_program {
    gp_device_state *dev;
    void *impl; /* the backend's module / cl_program / library / dlopen handle */
    char key[65];
    int refs; /* guarded by dev->lock */
    gp_kernel_sig *kernels;
    uint32_t num_kernels;
    gp_source_needs needs;
    uint32_t checks;         /* GP_CHECK_*: built checked (CPU) */
    char source_name[256];   /* what messages call its file */
    char *untranslated;      /* kernels gpuport translate left out: "NAME\tREASON\n"... */
    gp_printf_table *prints; /* the record path's table (dev->print_records), else NULL */
    struct gp_program *next; /* in dev->programs */
};

struct gp_kernel {
    gp_program *program; /* holds a reference */
    const gp_kernel_sig *sig;
    uint32_t sig_index;      /* index in program->kernels */
    void *impl;              /* the backend's function / cl_kernel / pipeline / CPU descriptor */
    uint32_t max_group_size; /* set by kernel_create: the kernel's own limit on this device */
    _Atomic uint32_t trace_name; /* trace.c: 1 + its name's index on the timeline, 0 until traced */
};

/* A launch after the core's checks. The grid is whole groups: num_groups * group work-items per
 * dimension (unused dimensions are 1). Every work-item of every group runs. */
typedef struct gp_launch {
    uint32_t dims;
    uint32_t group[3];
    uint32_t num_groups[3];
    uint32_t num_args;
    const gp_arg *args;      /* args[i].kind is BUFFER, VALUE or DYN_SHARED as the signature says */
    size_t dyn_shared_bytes; /* the DYN_SHARED argument's size (0 when none) */
} gp_launch;

/* A program compiled into libgpuport at build time (src/runtime/kernels/<name>.gpk). The CPU
 * backend uses its linked descriptors; other backends build its source like any other. */
typedef struct gp_builtin_program {
    const char *name;
    const char *source;
    size_t source_len;
    const char *source_name;
    const gp_cpu_kernel_desc *const *cpu_kernels;
    uint32_t num_cpu_kernels;
} gp_builtin_program;

/* What a backend's program_build gets.
 *
 * The prelude: `source` is the complete text to compile, assembled by the core as
 *     #define NAME VALUE         (one line per define of the options)
 *     #line 1 "gpuport/kernel.h"
 *     <the text of include/gpuport/kernel.h>
 *     #line 1 "<source_name>"
 *     <the user's source>
 * so the backend passes it to its compiler as one string with no include paths and no extra
 * defines, and every diagnostic names the user's file and line. Each compiler selects its own
 * section of the prelude by its predefined macros (__CUDACC_RTC__, __OPENCL_VERSION__,
 * __METAL_VERSION__; none for the CPU). */
typedef struct gp_build_request {
    const char *source; /* the assembled text above, NUL-terminated */
    size_t source_len;
    const char *user_source; /* only the user's part, for messages */
    size_t user_source_len;
    const char *source_name;
    uint32_t flags;      /* GP_BUILD_*: FAST_MATH maps to the compiler's relaxed math */
    bool use_disk_cache; /* false with GP_BUILD_NO_CACHE */
    char cache_key[65];  /* hex digest over everything that changes the binary */
    const gp_builtin_program *builtin; /* non-NULL for gp_program_create_builtin */
    const gp_kernel_sig *kernels;      /* the parsed signatures */
    uint32_t num_kernels;
    uint32_t checks;            /* GP_CHECK_*: build it checked (only the CPU backend gets this) */
    const char *const *defines; /* the build's defines, as given ("NAME=VALUE") */
    uint32_t num_defines;
    uint32_t prints; /* gp_printf appears this many times in the user's source */
} gp_build_request;

/* ---- the backend table ------------------------------------------------------------------- */

struct gp_backend_ops {
    gp_backend id;
    const char *name; /* "cuda", "metal", "opencl", "cpu" */

    /* Called once per process under the registry lock: load the library, initialise, count
     * devices. Fills out->outcome (GP_SELECT_AVAILABLE, LIBRARY_NOT_FOUND with where it looked,
     * NO_DEVICE, INIT_ERROR with the code), out->device_count and out->detail. Never fails
     * otherwise; the return value is GP_OK unless something is truly broken. */
    gp_status (*probe)(gp_selection_entry *out);
    /* Information about device `index` (< device_count). Thread-safe. */
    gp_status (*device_info)(uint32_t index, gp_device_info *info);
    /* Opens dev->index (dev->info is filled); sets dev->impl. */
    gp_status (*device_open)(gp_device_state *dev);
    void (*device_close)(gp_device_state *dev);
    /* A string naming the compiler (and its version) this device's programs are built with;
     * part of the cache key ("nvrtc 13.0", "cc /usr/bin/gcc 12.2.0"). */
    gp_status (*compiler_id)(gp_device_state *dev, char *buf, size_t cap);

    /* buf->dev, kind and size are set; sets impl (and host_ptr where it keeps a fixed one).
     * GP_ERR_UNSUPPORTED for a kind the device cannot give; GP_ERR_OUT_OF_MEMORY. */
    gp_status (*buffer_create)(gp_buffer *buf);
    void (*buffer_release)(gp_buffer *buf);
    /* PINNED and SHARED only; waits for the device's use of the buffer. */
    gp_status (*buffer_map)(gp_buffer *buf, void **host_ptr);
    gp_status (*buffer_unmap)(gp_buffer *buf);
    /* Transfers on queue q (never NULL: the core passes the default queue). `blocking`: return
     * only when done. */
    gp_status (*buffer_write)(gp_queue *q, gp_buffer *dst, size_t off, const void *src, size_t n,
                              bool blocking);
    gp_status (*buffer_read)(gp_queue *q, gp_buffer *src, size_t off, void *dst, size_t n,
                             bool blocking);
    gp_status (*buffer_copy)(gp_queue *q, gp_buffer *dst, size_t dst_off, gp_buffer *src,
                             size_t src_off, size_t n, bool blocking);
    gp_status (*buffer_fill)(gp_queue *q, gp_buffer *dst, size_t off, const void *pattern,
                             size_t pattern_size, size_t n, bool blocking);

    /* Builds req for prog->dev; sets prog->impl. Uses the disk cache itself (cache.h) under
     * req->cache_key when req->use_disk_cache: a miss or a rejected entry means build and store.
     * A compile error: GP_ERR_BUILD, gp_error_set() with the compiler's log as it is (it already
     * names the user's file and line). */
    gp_status (*program_build)(gp_program *prog, const gp_build_request *req);
    void (*program_release)(gp_program *prog);
    /* k->program, sig and sig_index are set; sets impl and max_group_size. */
    gp_status (*kernel_create)(gp_kernel *k);
    void (*kernel_release)(gp_kernel *k);
    /* Enqueues the launch on q. */
    gp_status (*kernel_launch)(gp_queue *q, gp_kernel *k, const gp_launch *l);

    /* q->dev is set; sets impl. Also used for the default queue. */
    gp_status (*queue_create)(gp_queue *q);
    void (*queue_release)(gp_queue *q);
    gp_status (*queue_finish)(gp_queue *q);
    /* e->dev is set; sets impl. */
    gp_status (*event_record)(gp_queue *q, gp_event *e);
    gp_status (*event_wait)(gp_event *e);
    gp_status (*event_wait_for)(gp_event *e, uint32_t ms, int *done); /* NULL: event_wait */
    gp_status (*queue_wait_event)(gp_queue *q, gp_event *e);
    gp_status (*event_elapsed_ms)(gp_event *start, gp_event *end, double *ms);
    void (*event_release)(gp_event *e);
    gp_status (*device_synchronize)(gp_device_state *dev);

    /* Memory and streams of other libraries (gp_buffer_wrap, gp_queue_wrap); NULL where the
     * backend has none. buffer_wrap: buf->dev and size are set, wrapped is true; sets kind, impl,
     * host_ptr and offset so that the other buffer ops work unchanged, or refuses with
     * GP_ERR_UNSUPPORTED saying what to do instead. buffer_unwrap gives back what buffer_wrap
     * took (NULL: nothing); buffer_release is never called on a wrapped buffer. */
    gp_status (*buffer_wrap)(gp_buffer *buf, gp_memory_kind kind, void *memory, size_t offset);
    void (*buffer_unwrap)(gp_buffer *buf);
    /* The memory object gp_buffer_native reports (NULL: impl itself). */
    void *(*buffer_native)(const gp_buffer *buf);
    /* q->dev is set; sets impl from the other library's stream. A wrapped queue is never passed
     * to queue_release. */
    gp_status (*queue_wrap)(gp_queue *q, void *native);
    /* The stream handle gp_queue_native reports. */
    void *(*queue_native)(const gp_queue *q);

    /* The timeline (trace.c), optional. A backend that times its own commands: while
     * gp_trace_capture is non-NULL on the calling thread, the next command it enqueues stores
     * its native event there (a reference of the trace's); command_times waits for such an
     * event, or a recorded gp_event's impl, and gives its start and end on the device's clock in
     * ns; command_release gives the reference back. Without them the trace puts markers
     * (event_record) around each command. */
    gp_status (*command_times)(gp_device_state *dev, void *native, uint64_t *start_ns,
                               uint64_t *end_ns);
    void (*command_release)(gp_device_state *dev, void *native);
};

extern _Thread_local void **gp_trace_capture;

/* The registration (registry.c): entry i is the backend with gp_backend id i, or NULL when it
 * is not built into this library. */
const gp_backend_ops *gp_backend_get(gp_backend id);

/* Every backend defines one of these in its folder. */
extern const gp_backend_ops gp_backend_cuda_ops;
extern const gp_backend_ops gp_backend_metal_ops;
extern const gp_backend_ops gp_backend_opencl_ops;
extern const gp_backend_ops gp_backend_cpu_ops;

/* ---- helpers the core offers backends ---------------------------------------------------- */

/* GPUPORT_LOG=info (or debug): one line on stderr, "gpuport: <message>". Thread-safe. */
void gp_log_info(const char *fmt, ...) GP_PRINTF_LIKE(1, 2);
void gp_log_debug(const char *fmt, ...) GP_PRINTF_LIKE(1, 2);

/* Copies src into a fixed-size char field, always NUL-terminated. */
void gp_copy_str(char *dst, size_t cap, const char *src);

/* Kernel output of one CPU launch (print.c): hands `len` bytes to the print handler; the
 * per-launch line limit. Thread-safe. */
void gp_print_emit(const char *text, size_t len);
uint32_t gp_print_limit(void);
/* Words of record space in a launch's print buffer (the record path): room for the line limit
 * at 32 words a line (a call with 9 arguments), between 16 KiB and 16 MiB. */
uint32_t gp_print_record_words(void);

/* The record path of gp_printf (printf_format.c). Formats the records of one launch's print
 * buffer (nwords 32-bit words as the kernel left them) with the table of its program, in group
 * order, at most gp_print_limit() lines, then a line counting what was dropped (past the limit,
 * or not written because the buffer was full), and hands the text to gp_print_emit. */
void gp_printf_records_emit(const gp_printf_table *t, const char *kernel, const uint32_t *buf,
                            size_t nwords);
void gp_printf_table_retain(gp_printf_table *t);
void gp_printf_table_release(gp_printf_table *t);
/* The check reports of the calling thread's last CPU launch (gp_check_report_count/get): a
 * backend replaces them at the end of every launch it runs, with n = 0 when it made none. */
void gp_check_reports_set(const gp_check_report *reports, uint32_t n, uint64_t omitted);

/* How many times gp_interrupt() was called: a CPU launch that sees it change stops starting
 * work-groups and returns GP_ERR_INTERRUPTED. */
unsigned gp_interrupt_count(void);

#endif
