/*
 * gpuport.h — the portable GPU runtime: one C API over CUDA, Metal, OpenCL and the CPU.
 *
 * Every function returns a gp_status (0 = GP_OK, negative = error); after an error,
 * gp_last_error() returns a message for the calling thread that names the cause and the fix.
 * Handles are opaque pointers; no struct is passed by value and every size is explicit, so the
 * API can be called from any FFI (Python ctypes included). Kernels are written in the portable
 * dialect of <gpuport/kernel.h> (docs/dialect.md); this header is the host side (docs/runtime.md).
 */
#ifndef GPUPORT_GPUPORT_H
#define GPUPORT_GPUPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(GP_BUILDING_LIBRARY)
#define GP_API __declspec(dllexport)
#elif defined(_WIN32) && !defined(GPUPORT_STATIC)
#define GP_API __declspec(dllimport)
#elif defined(_WIN32)
#define GP_API
#elif defined(__GNUC__)
#define GP_API __attribute__((visibility("default")))
#else
#define GP_API
#endif

/* The version of the kernel dialect; part of every kernel cache key. */
#define GP_DIALECT_VERSION 1

/* ---- status ------------------------------------------------------------------------------ */
typedef enum gp_status {
    GP_OK = 0,
    GP_ERR_INVALID_ARGUMENT = -1, /* a NULL handle, a bad spec string, a wrong kernel argument */
    GP_ERR_NOT_FOUND = -2,        /* no such device, kernel or backend */
    GP_ERR_UNSUPPORTED = -3,      /* the device or backend cannot do this (fp64, async copy...) */
    GP_ERR_OUT_OF_MEMORY = -4,    /* host or device allocation failed */
    GP_ERR_BUILD = -5,            /* kernel compilation failed; the message holds the log */
    GP_ERR_LAUNCH = -6,           /* the launch was refused (group size, resources) */
    GP_ERR_BACKEND = -7,          /* the backend's runtime returned an error; the message has it */
    GP_ERR_IO = -8,               /* a file could not be read or written (the kernel cache) */
    GP_ERR_INTERNAL = -9,         /* a bug in gpuport: please report it */
    GP_ERR_CHECK = -10, /* a checked launch found bugs in the kernel: the message holds the first
                           reports, gp_check_report_count/get all of them (see "checking") */
    GP_ERR_INTERRUPTED = -11, /* gp_interrupt() (Ctrl-C) stopped a CPU launch before its end */
} gp_status;

/* Thread-safe. Returns the message of the last error on the calling thread ("" if none).
 * The pointer stays valid until the next gpuport call on the same thread. */
GP_API const char *gp_last_error(void);
/* Thread-safe. The symbolic name of a status ("GP_ERR_BUILD"). */
GP_API const char *gp_status_name(gp_status status);
/* Thread-safe. The library's version, "MAJOR.MINOR.PATCH". */
GP_API const char *gp_version_string(void);

/* Thread-safe and async-signal-safe. Stops the CPU launches running now: they start no more
 * work-groups (one that started finishes) and return GP_ERR_INTERRUPTED. Devices that run on
 * their own are not stopped; a host waiting for one can stop waiting with gp_event_wait_for. */
GP_API void gp_interrupt(void);
/* Installs a handler of signal `signo` (SIGINT) that calls gp_interrupt() and then the handler
 * that was there before (Python's, which raises KeyboardInterrupt); none runs after it when that
 * was the default. POSIX; GP_ERR_UNSUPPORTED elsewhere. */
GP_API gp_status gp_interrupt_on_signal(int signo);

/* ---- handles ------------------------------------------------------------------------------
 * Every handle is created by a gp_<noun>_create/open function and given back with the matching
 * gp_<noun>_release. A handle may be used from several threads where a function says so. */
typedef struct gp_device gp_device;   /* one opened device, with its selection record */
typedef struct gp_buffer gp_buffer;   /* memory on (or visible to) one device */
typedef struct gp_program gp_program; /* dialect source built for one device */
typedef struct gp_kernel gp_kernel;   /* one GP_KERNEL of a program, with its signature */
typedef struct gp_queue gp_queue;     /* an in-order stream of commands on one device */
typedef struct gp_event gp_event;     /* a point in a queue, with its completion time */

/* ---- backends ---------------------------------------------------------------------------- */
/* Ordered as `auto` tries them: cuda -> metal -> opencl -> cpu. */
typedef enum gp_backend {
    GP_BACKEND_CUDA = 0,
    GP_BACKEND_METAL = 1,
    GP_BACKEND_OPENCL = 2,
    GP_BACKEND_CPU = 3,
    GP_BACKEND_COUNT = 4
} gp_backend;

/* Thread-safe. "cuda", "metal", "opencl", "cpu"; "unknown" for anything else. */
GP_API const char *gp_backend_name(gp_backend backend);

/* ---- the selection record ----------------------------------------------------------------
 * For every backend, in the order cuda -> metal -> opencl -> cpu: chosen, or why not. */
typedef enum gp_select_outcome {
    GP_SELECT_CHOSEN = 0,    /* this backend's device was opened */
    GP_SELECT_AVAILABLE = 1, /* usable, but not needed (an earlier one was chosen, or the
                                spec named another backend) */
    GP_SELECT_LIBRARY_NOT_FOUND =
        2,                     /* its runtime library is missing; detail says where we looked */
    GP_SELECT_NO_DEVICE = 3,   /* the library loaded but reports no (matching) device */
    GP_SELECT_INIT_ERROR = 4,  /* initialisation failed; `code` holds the backend's code */
    GP_SELECT_EXCLUDED = 5,    /* excluded by GPUPORT_DEVICE */
    GP_SELECT_NOT_BUILT = 6,   /* not built on this platform (Metal off Apple) */
    GP_SELECT_OPEN_FAILED = 7, /* a device was found but opening it failed; see code/detail */
    GP_SELECT_NOT_TRIED = 8,   /* not probed: an earlier backend was chosen, or the spec named
                                  another backend */
    GP_SELECT_UNSUITABLE = 9,  /* gp_device_open_for_source: available, but it cannot run the
                                  program (SIMD-group operations, fp64, checking); detail says why */
} gp_select_outcome;

typedef struct gp_selection_entry {
    int32_t backend;       /* a gp_backend */
    int32_t outcome;       /* a gp_select_outcome */
    int32_t code;          /* the backend's error code for INIT_ERROR / OPEN_FAILED, else 0 */
    int32_t device_index;  /* CHOSEN: the device index within its backend; else -1 */
    uint32_t device_count; /* devices this backend reports (0 when it could not be probed) */
    uint32_t reserved;
    char detail[512]; /* human words: "libcuda.so.1 not found (searched: ld.so paths,
                         /usr/lib/wsl/lib)", "pocl: 1 device", ... */
} gp_selection_entry;

/* Thread-safe. "chosen", "available", "library not found", "no device", "init error",
 * "excluded by GPUPORT_DEVICE", "not built on this platform", "open failed", "not tried",
 * "cannot run this program". */
GP_API const char *gp_select_outcome_name(gp_select_outcome outcome);
/* Thread-safe. Parses a device spec without opening anything: *backend is a gp_backend or -1
 * for "auto", *index the device index or -1 when none was given. GP_ERR_INVALID_ARGUMENT with a
 * message naming the accepted forms. */
GP_API gp_status gp_device_spec_parse(const char *spec, int32_t *backend, int32_t *index);

/* Thread-safe. What probing `backend` found in this process (probed once, on first use):
 * outcome is AVAILABLE, LIBRARY_NOT_FOUND, NO_DEVICE, INIT_ERROR or NOT_BUILT. */
GP_API gp_status gp_backend_probe(gp_backend backend, gp_selection_entry *out);

/* ---- devices ----------------------------------------------------------------------------- */
typedef struct gp_device_info {
    int32_t backend; /* a gp_backend */
    int32_t index;   /* index within its backend */
    char spec[32];   /* the spec that opens exactly this device: "opencl:1" */
    char name[256];
    char vendor[128];
    char driver_version[128];   /* driver / runtime / compiler version as the backend reports it */
    char arch[64];              /* the architecture the kernel cache keys on: "sm_90", "x86_64" */
    uint64_t total_memory;      /* bytes */
    uint64_t max_shared_memory; /* bytes of shared (local/threadgroup) memory per group */
    uint64_t max_buffer_size;   /* bytes in one allocation */
    uint32_t compute_units;
    uint32_t max_group_size;          /* work-items per group, all dimensions together */
    uint32_t max_group_dims[3];       /* per-dimension limit of a group */
    uint32_t simd_width;              /* warp / SIMD-group / vector width the backend reports */
    int32_t compute_capability_major; /* CUDA only; 0 elsewhere */
    int32_t compute_capability_minor;
    uint32_t unified_memory;   /* 1: host and device share memory (zero-copy buffers are free) */
    uint32_t fp64;             /* 1: double is supported in kernels */
    uint32_t fp16;             /* 1: half arithmetic is native (storage works everywhere) */
    uint32_t simd_group_width; /* lanes of a gp_simd_* group; 0: no SIMD-group operations */
    /* What the driver says of the hardware (CUDA; OpenCL gives the clock; 0 where not known): */
    uint32_t clock_mhz;        /* peak core clock (the SM clock) */
    uint32_t memory_clock_mhz; /* peak memory clock */
    uint32_t memory_bus_width; /* bits */
    uint32_t l2_cache_kib;     /* the device's last-level cache */
    uint32_t pci_bus_id;       /* domain << 16 | bus << 8 | device << 3 (0: not known) */
    uint32_t atomic64; /* 1: 64-bit atomics on global memory (GP_REQUIRES_ATOMIC64) */
} gp_device_info;

/* Thread-safe. Probes every backend (once per process) and counts their devices. */
GP_API gp_status gp_device_count(uint32_t *count);
/* Thread-safe. Information about device `index` of the list above, without opening it. */
GP_API gp_status gp_device_enumerate(uint32_t index, gp_device_info *info);

/* Thread-safe. Opens a device by spec: "auto", "cpu", "opencl", "opencl:N", "cuda", "cuda:N",
 * "metal", "metal:N" (NULL means "auto"). `auto` follows GPUPORT_DEVICE when it is set (a
 * comma-separated list of specs, tried in order; backends it leaves out are recorded as
 * excluded), else tries cuda -> metal -> opencl -> cpu and takes device 0 of the first backend
 * that opens. A named backend never falls back to another: `cuda` without CUDA is an error whose
 * message holds the reason. With GPUPORT_LOG=info the selection record goes to stderr.
 * Each open returns a new handle; handles to the same device share its state and caches. */
GP_API gp_status gp_device_open(const char *spec, gp_device **out);
/* Thread-safe. Gives back a handle; the device's state goes when its last handle, buffer,
 * program and queue have been released. NULL is a no-op. */
GP_API gp_status gp_device_release(gp_device *device);
/* Thread-safe. */
GP_API gp_status gp_device_get_info(const gp_device *device, gp_device_info *info);
/* Thread-safe. The selection record of this open: always GP_BACKEND_COUNT entries, in the order
 * cuda -> metal -> opencl -> cpu. `*count` receives the number written (at most `cap`). */
GP_API gp_status gp_device_selection(const gp_device *device, gp_selection_entry *entries,
                                     uint32_t cap, uint32_t *count);
/* Thread-safe. The record as text, one line per backend ("cuda: library not found: ..."), into
 * buf (NUL-terminated, truncated to cap). `*needed` (optional) receives the full length + 1. */
GP_API gp_status gp_device_selection_text(const gp_device *device, char *buf, size_t cap,
                                          size_t *needed);
/* Thread-safe. Waits until every command on every queue of the device has finished. */
GP_API gp_status gp_device_synchronize(gp_device *device);

/* ---- queues and events ------------------------------------------------------------------- *
 * A queue runs its commands in order; different queues may overlap. Every device has a default
 * queue (used wherever a function takes a queue and gets NULL). The CPU backend runs a command
 * when it is enqueued, so its queues are trivially ordered. */

/* Thread-safe. The device's default queue: owned by the device, never released. */
GP_API gp_status gp_device_queue(gp_device *device, gp_queue **out);
/* Thread-safe. A new queue. */
GP_API gp_status gp_queue_create(gp_device *device, gp_queue **out);
/* Thread-safe. Waits for the queue's commands, then frees it. NULL and the default queue are
 * no-ops. */
GP_API gp_status gp_queue_release(gp_queue *queue);
/* Thread-safe (a queue may be fed from several threads; commands keep the order of the calls).
 * Waits until every command enqueued so far has finished. */
GP_API gp_status gp_queue_finish(gp_queue *queue);
/* Thread-safe. Records an event at the current end of `queue`. It completes when every command
 * enqueued before it has; its time is taken then. */
GP_API gp_status gp_event_record(gp_queue *queue, gp_event **out);
/* Thread-safe. Makes `queue` wait for `event` (recorded on any queue of the same device) before
 * it runs later commands. The host does not block. */
GP_API gp_status gp_queue_wait_event(gp_queue *queue, gp_event *event);
/* Thread-safe. Blocks the host until the event completed. */
GP_API gp_status gp_event_wait(gp_event *event);
/* Thread-safe. Blocks the host until the event completed or `timeout_ms` passed (0: only asks):
 * *done is 1 or 0. A caller that waits in slices can stop waiting between them (Ctrl-C in
 * Python). A backend that cannot wait for a time waits until the event completed. */
GP_API gp_status gp_event_wait_for(gp_event *event, uint32_t timeout_ms, int *done);
/* Thread-safe. Milliseconds between two completed events of the same device (waits for both). */
GP_API gp_status gp_event_elapsed_ms(gp_event *start, gp_event *end, double *ms);
/* Thread-safe. NULL is a no-op. */
GP_API gp_status gp_event_release(gp_event *event);

/* ---- buffers ----------------------------------------------------------------------------- */
typedef enum gp_buffer_kind {
    GP_BUFFER_DEVICE = 0, /* device memory; reached from the host only by read/write/copy */
    GP_BUFFER_PINNED = 1, /* page-locked host memory the device reads (fast async copies);
                             mappable */
    GP_BUFFER_SHARED = 2, /* one allocation host and device both use (zero-copy on unified
                             memory: Apple, CPU, integrated GPUs); mappable. Refused with
                             GP_ERR_UNSUPPORTED where the device cannot share memory. */
} gp_buffer_kind;

/* Thread-safe. A buffer of `size` bytes (> 0). Contents are undefined until written. */
GP_API gp_status gp_buffer_create(gp_device *device, gp_buffer_kind kind, size_t size,
                                  gp_buffer **out);
/* Thread-safe, but the caller must know no queued command still uses the buffer (finish the
 * queue first). NULL is a no-op. */
GP_API gp_status gp_buffer_release(gp_buffer *buffer);
/* Thread-safe. */
GP_API gp_status gp_buffer_size(const gp_buffer *buffer, size_t *size);
GP_API gp_status gp_buffer_kind_of(const gp_buffer *buffer, gp_buffer_kind *kind);
/* Not thread-safe on one buffer. Maps a PINNED or SHARED buffer into host memory: waits for
 * the commands that use it, then gives a pointer to all `size` bytes. Between map and unmap the
 * device must not use the buffer. GP_ERR_UNSUPPORTED for DEVICE buffers. */
GP_API gp_status gp_buffer_map(gp_buffer *buffer, void **host_ptr);
GP_API gp_status gp_buffer_unmap(gp_buffer *buffer);

/* ---- memory and streams of other libraries ------------------------------------------------ *
 * For handing arrays between gpuport and another library without a copy (DLPack, the CUDA Array
 * Interface, PyTorch tensors): a buffer over memory gpuport did not allocate, a queue over a
 * stream gpuport did not create, and the backend's handles of gpuport's own. */
typedef enum gp_memory_kind {
    GP_MEMORY_HOST = 0,   /* a host address */
    GP_MEMORY_NATIVE = 1, /* the backend's own memory object: CUDA a CUdeviceptr (device, managed
                             or mapped host memory usable in the device's primary context),
                             Metal an id<MTLBuffer> of the device, CPU a host address */
} gp_memory_kind;

/* Thread-safe. A buffer over the `size` bytes (> 0) that start `offset` bytes into `memory`,
 * used in place: nothing is copied, and gp_buffer_release frees nothing of it (a Metal buffer is
 * retained while the gpuport buffer lives). The memory must stay valid, and must not be freed,
 * until the buffer is released. What each backend takes, and the kind of the buffer:
 *   CPU     HOST or NATIVE (the same thing): SHARED.
 *   OpenCL  HOST, through CL_MEM_USE_HOST_PTR: SHARED on a device that shares memory with the
 *           host (the driver uses the memory in place), else PINNED (the driver may keep a copy
 *           on the device, which gp_buffer_map brings back).
 *   CUDA    NATIVE: DEVICE.
 *   Metal   NATIVE: SHARED for a buffer in shared storage, DEVICE for one in private storage
 *           (PyTorch's MPS tensors are), which kernels and gp_buffer_copy reach but not the
 *           host; HOST: SHARED, over the pages that hold the range (newBufferWithBytesNoCopy),
 *           where Metal accepts the memory.
 * Anything else is GP_ERR_UNSUPPORTED, with a message that says to copy the data instead. */
GP_API gp_status gp_buffer_wrap(gp_device *device, gp_memory_kind kind, void *memory, size_t offset,
                                size_t size, gp_buffer **out);
/* Thread-safe. Where a buffer's memory is, for handing it to another library: `*native` the
 * backend's memory object (CUDA: the CUdeviceptr; Metal: the id<MTLBuffer>; OpenCL: the cl_mem;
 * CPU: the host address), `*offset` where the buffer's first byte is in it, and `*host` (may be
 * NULL) the host address of the first byte where host code may use the memory in place whenever
 * no command that uses the buffer is running (the CPU; CUDA PINNED and SHARED; Metal in shared
 * storage; host memory wrapped on an OpenCL device that shares memory with the host), else
 * NULL: then only gp_buffer_map and the transfers reach it. */
GP_API gp_status gp_buffer_native(const gp_buffer *buffer, void **native, size_t *offset,
                                  void **host);
/* Thread-safe. A queue over a stream another library created. CUDA: a CUstream of the device's
 * primary context (PyTorch's and CuPy's streams are), or (void *)1 for the legacy default
 * stream (NULL means it too) and (void *)2 for the per-thread default stream. Commands on it
 * are ordered with the other library's work on that stream; gp_queue_release frees only
 * gpuport's handle, without waiting. Other backends: GP_ERR_UNSUPPORTED. */
GP_API gp_status gp_queue_wrap(gp_device *device, void *native, gp_queue **out);
/* Thread-safe. The backend's handle of a queue (CUDA: its CUstream), to tell another library
 * which stream its work must follow. GP_ERR_UNSUPPORTED on backends without one. */
GP_API gp_status gp_queue_native(const gp_queue *queue, void **native);

/* Blocking transfers, ordered after everything on the device's default queue; they return when
 * the data has arrived. Thread-safe. Offsets and sizes in bytes, checked against the buffer. */
GP_API gp_status gp_buffer_write(gp_buffer *dst, size_t offset, const void *src, size_t size);
GP_API gp_status gp_buffer_read(gp_buffer *src, size_t offset, void *dst, size_t size);
GP_API gp_status gp_buffer_copy(gp_buffer *dst, size_t dst_offset, gp_buffer *src,
                                size_t src_offset, size_t size);
/* Repeats `pattern` (1, 2, 4, 8 or 16 bytes; `offset` and `size` multiples of it). */
GP_API gp_status gp_buffer_fill(gp_buffer *dst, size_t offset, const void *pattern,
                                size_t pattern_size, size_t size);

/* Asynchronous forms on `queue` (NULL: the buffer's device's default queue). They return once
 * enqueued; host memory passed in must stay valid and unchanged (write) or unread (read) until
 * the queue has finished them (gp_queue_finish or an event). Thread-safe. */
GP_API gp_status gp_buffer_write_async(gp_queue *queue, gp_buffer *dst, size_t offset,
                                       const void *src, size_t size);
GP_API gp_status gp_buffer_read_async(gp_queue *queue, gp_buffer *src, size_t offset, void *dst,
                                      size_t size);
GP_API gp_status gp_buffer_copy_async(gp_queue *queue, gp_buffer *dst, size_t dst_offset,
                                      gp_buffer *src, size_t src_offset, size_t size);
GP_API gp_status gp_buffer_fill_async(gp_queue *queue, gp_buffer *dst, size_t offset,
                                      const void *pattern, size_t pattern_size, size_t size);

/* ---- programs ---------------------------------------------------------------------------- */
enum {
    GP_BUILD_FAST_MATH = 1u << 0, /* allow the compiler's fast/relaxed math (off by default) */
    GP_BUILD_NO_CACHE = 1u << 1,  /* neither read nor write the kernel cache on disk */
};

typedef struct gp_build_options {
    uint32_t struct_size;       /* sizeof(gp_build_options), for growth */
    uint32_t flags;             /* GP_BUILD_* */
    const char *source_name;    /* the name compile errors use ("saxpy.gpk"); NULL: "kernel.gpk" */
    const char *const *defines; /* "NAME=VALUE" or "NAME", each defined before the source */
    uint32_t num_defines;
    uint32_t checks; /* GP_CHECK_* bits: build the program checked (CPU only; see "checking");
                        0: as the device handle says (gp_device_set_checks, GPUPORT_CHECK) */
} gp_build_options;

/* Thread-safe. Builds dialect source (`len` bytes; not NUL-terminated necessarily) for the
 * device, through the in-process and the on-disk kernel cache. `options` may be NULL. A compile
 * error is GP_ERR_BUILD with the compiler's log in gp_last_error(), every line naming the
 * user's source_name and line. A kernel that needs double must write GP_REQUIRES_FP64; it is
 * refused (GP_ERR_UNSUPPORTED) on devices without fp64. One with 64-bit atomics writes
 * GP_REQUIRES_ATOMIC64; it is refused on devices without them (Metal; OpenCL without
 * cl_khr_int64_base_atomics and _extended_atomics). */
GP_API gp_status gp_program_create(gp_device *device, const char *source, size_t len,
                                   const gp_build_options *options, gp_program **out);
/* Thread-safe. Builds the dialect source in the file at `path` (at most 64 MiB) as
 * gp_program_create does; compile errors and reports name the file as `options->source_name`,
 * or as `path` when that is NULL. GP_ERR_IO with the path and the reason when it cannot be read. */
GP_API gp_status gp_program_create_from_file(gp_device *device, const char *path,
                                             const gp_build_options *options, gp_program **out);
/* Thread-safe. Like gp_device_open, for one program: `auto` (and GPUPORT_DEVICE's list) skips
 * the devices that cannot run `source` (len bytes of dialect source, built with `options`, which
 * may be NULL): SIMD-group operations where the backend has none (OpenCL), a
 * GP_REQUIRES_SIMD_WIDTH the device does not have, GP_REQUIRES_FP64 without double precision,
 * GP_REQUIRES_ATOMIC64 without 64-bit atomics,
 * and anything but the CPU when `options->checks` (or GPUPORT_CHECK) asks for checking. Each
 * skipped backend is recorded as GP_SELECT_UNSUITABLE with the reason ("kernel 'k' uses
 * gp_simd_shuffle (line 12); opencl has no SIMD-group operations"). With `kernel` (may be NULL)
 * only that kernel's needs count, else every kernel's. A named spec is opened as it is and
 * refused with GP_ERR_UNSUPPORTED and the reason when it cannot run the program. A malformed
 * source is GP_ERR_BUILD at its line, as gp_program_create would say. */
GP_API gp_status gp_device_open_for_source(const char *spec, const char *source, size_t len,
                                           const gp_build_options *options, const char *kernel,
                                           gp_device **out);
/* Thread-safe. A program compiled into libgpuport at build time (its CPU code needs no compiler
 * at run time; other backends build its embedded source as above). */
GP_API gp_status gp_program_create_builtin(gp_device *device, const char *name, gp_program **out);
/* Thread-safe. The dialect prelude (include/gpuport/kernel.h as embedded in this library), which
 * every backend puts in front of a source; NUL-terminated, `*len` (optional) its length. For
 * tools that check a source against a target's compiler themselves. */
GP_API const char *gp_dialect_prelude(size_t *len);
/* Thread-safe. Names of the built-in programs: index 0..count-1; NULL past the end. */
GP_API uint32_t gp_builtin_program_count(void);
GP_API const char *gp_builtin_program_name(uint32_t index);
/* Thread-safe. Kernels stay valid after their program is released. NULL is a no-op. */
GP_API gp_status gp_program_release(gp_program *program);
/* Thread-safe. Number of GP_KERNELs in the program, and the name of kernel `index`. */
GP_API gp_status gp_program_kernel_count(const gp_program *program, uint32_t *count);
GP_API gp_status gp_program_kernel_name(const gp_program *program, uint32_t index,
                                        const char **name);

/* ---- kernels ----------------------------------------------------------------------------- */
typedef enum gp_arg_kind {
    GP_ARG_BUFFER = 0,       /* GP_BUF(T, name): a buffer the kernel may write */
    GP_ARG_CONST_BUFFER = 1, /* GP_CBUF(T, name): a buffer the kernel only reads */
    GP_ARG_VALUE = 2,        /* GP_VAL(T, name): a scalar or small struct, by value */
    GP_ARG_DYN_SHARED = 3,   /* GP_DYN_SHARED(T, name): the group's dynamic shared memory */
} gp_arg_kind;

typedef struct gp_arg_info {
    int32_t kind;       /* a gp_arg_kind */
    uint32_t size;      /* VALUE: sizeof(T); buffers and DYN_SHARED: sizeof the element T;
                           0 when the type is not one the runtime knows (then unchecked) */
    char type_name[64]; /* T as written: "float", "uint32_t", "gp_half" */
    char name[64];      /* the parameter's name */
} gp_arg_info;

/* Thread-safe. Looks a kernel up by name; GP_ERR_NOT_FOUND (listing the program's kernels) if
 * there is none. */
GP_API gp_status gp_kernel_create(gp_program *program, const char *name, gp_kernel **out);
/* Thread-safe. NULL is a no-op. */
GP_API gp_status gp_kernel_release(gp_kernel *kernel);
/* Thread-safe. The kernel's signature, parsed from its GP_KERNEL declaration. */
GP_API gp_status gp_kernel_arg_count(const gp_kernel *kernel, uint32_t *count);
GP_API gp_status gp_kernel_arg_info(const gp_kernel *kernel, uint32_t index, gp_arg_info *info);
/* Thread-safe. Largest group (work-items) this kernel can launch with on its device. */
GP_API gp_status gp_kernel_max_group_size(const gp_kernel *kernel, uint32_t *size);
/* Thread-safe. The group gp_kernel_launch chooses for a `dims`-dimensional grid of `global`
 * work-items when it is given none (group[d] = 1 beyond dims): tools say which group ran and
 * how far the grid was rounded up. */
GP_API gp_status gp_kernel_auto_group(const gp_kernel *kernel, uint32_t dims, const size_t *global,
                                      size_t group[3]);

/* One launch argument. Fill it with the gp_arg_* helpers below (or by hand from an FFI). */
typedef struct gp_arg {
    int32_t kind;      /* GP_ARG_BUFFER (for GP_BUF and GP_CBUF), GP_ARG_VALUE, GP_ARG_DYN_SHARED */
    uint32_t flags;    /* GP_ARG_FLAG_*; 0 for the helpers below except gp_arg_null */
    gp_buffer *buffer; /* BUFFER; NULL only with GP_ARG_FLAG_NULL */
    const void *value; /* VALUE: points at `size` bytes, copied at launch */
    size_t size;       /* VALUE: byte size, must equal sizeof(T); DYN_SHARED: bytes to reserve */
} gp_arg;

static inline gp_arg gp_arg_buffer(gp_buffer *b)
{
    gp_arg a = {GP_ARG_BUFFER, 0, b, NULL, 0};
    return a;
}
/* A null pointer for a GP_BUF or GP_CBUF parameter, on every backend: for kernels that take an
 * optional buffer and test it (`if (bias != 0)`) before they touch it. A plain
 * gp_arg_buffer(NULL) is still refused, since it is usually a mistake. */
#define GP_ARG_FLAG_NULL 1u
static inline gp_arg gp_arg_null(void)
{
    gp_arg a = {GP_ARG_BUFFER, GP_ARG_FLAG_NULL, NULL, NULL, 0};
    return a;
}
static inline gp_arg gp_arg_value(const void *v, size_t size)
{
    gp_arg a = {GP_ARG_VALUE, 0, NULL, v, size};
    return a;
}
static inline gp_arg gp_arg_shared(size_t bytes)
{
    gp_arg a = {GP_ARG_DYN_SHARED, 0, NULL, NULL, bytes};
    return a;
}

/* Thread-safe (kernels carry no argument state). Launches `kernel` on `queue` (NULL: the
 * default queue of the kernel's device) over a `dims`-dimensional grid (1..3) of `global`
 * work-items per dimension, in groups of `group` (NULL: the runtime chooses). The grid is
 * rounded up to whole groups on every backend, and every work-item of every group runs: kernels
 * compare gp_global_id() with their own size. Before anything runs, the arguments are checked
 * against the signature (count, kind, value size, buffer device) and the group against the
 * device's and the kernel's limits; a mismatch is GP_ERR_INVALID_ARGUMENT or GP_ERR_LAUNCH with a
 * message naming the parameter. Returns once enqueued. */
GP_API gp_status gp_kernel_launch(gp_queue *queue, gp_kernel *kernel, uint32_t dims,
                                  const size_t *global, const size_t *group, uint32_t num_args,
                                  const gp_arg *args);

/* ---- checking ------------------------------------------------------------------------------ *
 * The CPU backend can run any kernel checked: its source is instrumented so that every memory
 * access, barrier and SIMD-group operation is checked as it runs (docs/check.md):
 *   memcheck   every access of a buffer, shared array (each dimension of a named one), the
 *              dynamic shared block and private array against its bounds; an access outside is
 *              reported and not performed (a read gives 0). Part of every checked run.
 *   racecheck  two work-items of a group touching one shared word between two barriers, or two
 *              work-items of the launch one global word, one of them writing, neither atomic.
 *   synccheck  a barrier not reached by every work-item of the group; a SIMD-group operation
 *              with lanes elsewhere or returned.
 *   initcheck  a read of shared memory no work-item wrote in this launch, or of a buffer's bytes
 *              that nothing wrote since it was created (buffers made on a checked device).
 * Turned on for a device handle (gp_device_set_checks: the programs built and buffers created
 * through it afterwards), for one program (gp_build_options.checks), or for the whole process
 * with GPUPORT_CHECK=all or a comma list of the names above (read by gp_device_open; `auto`
 * then opens the CPU). A checked launch that made reports returns GP_ERR_CHECK; the reports stay
 * readable on the launching thread until its next CPU launch. The same happens, with line 0,
 * when an unchecked CPU launch finds a SIMD-group fault or an unexpected barrier. */
enum {
    GP_CHECK_MEMCHECK = 1u << 0,
    GP_CHECK_RACECHECK = 1u << 1,
    GP_CHECK_SYNCCHECK = 1u << 2,
    GP_CHECK_INITCHECK = 1u << 3,
    GP_CHECK_ALL = 0xfu,
    /* with racecheck: also report work-items storing the value a word already holds (every GPU
     * gives the same result, so such uniform writes are not reported by default); "uniform" */
    GP_CHECK_UNIFORM = 1u << 4,
};

/* One finding. Reports of a launch are merged by (check, file, line, column) — one per distinct
 * access: `count` says how often it happened, the rest describes its first occurrence. */
typedef struct gp_check_report {
    uint32_t check;         /* one GP_CHECK_* bit */
    uint32_t line, column;  /* in `file` (1-based); 0 when not known */
    uint64_t count;         /* occurrences (work-items x times), at least 1 */
    char file[256];         /* the source name the program was built with */
    char kernel[128];       /* the kernel launched */
    char message[1024];     /* "write of 4 bytes at out[1024] is outside ..." (no location) */
    int32_t group[3];       /* the work-item of the first occurrence: its group and local id */
    int32_t local[3];       /* (-1 when the report is not about one work-item) */
    uint32_t other_line;    /* the other side: the access it races with, the barrier the */
    uint32_t other_column;  /* others waited at, where items returned; 0 when none */
    int32_t other_group[3]; /* its work-item (-1 when not known) */
    int32_t other_local[3];
} gp_check_report;

/* Thread-safe. Parses "all", "none" (or "" / "0") or a comma list of memcheck, racecheck,
 * synccheck, initcheck into GP_CHECK_* bits. GP_ERR_INVALID_ARGUMENT naming the bad word. */
GP_API gp_status gp_check_parse(const char *list, uint32_t *checks);
/* Thread-safe. "memcheck", "racecheck", "synccheck", "initcheck" for one bit; "unknown" else. */
GP_API const char *gp_check_name(uint32_t check);
/* Not thread-safe on one handle. Sets the checks of programs built and buffers created through
 * this handle from now on (0: none). GP_ERR_UNSUPPORTED on a device of another backend than the
 * CPU when checks != 0. */
GP_API gp_status gp_device_set_checks(gp_device *device, uint32_t checks);
GP_API gp_status gp_device_get_checks(const gp_device *device, uint32_t *checks);
/* Thread-safe (per thread). The reports of the last CPU launch made on this thread: their
 * number (at most 100 are kept) and, in *omitted (may be NULL), how many more were dropped. */
GP_API gp_status gp_check_report_count(uint32_t *count, uint64_t *omitted);
/* Thread-safe (per thread). Report `index` of that launch, in the order they first happened. */
GP_API gp_status gp_check_report_get(uint32_t index, gp_check_report *report);
/* Thread-safe. The report as one line, "FILE:LINE:COL: CHECK: MESSAGE (N times)", into buf
 * (NUL-terminated, truncated to cap); *needed (optional) gets the full length + 1. */
GP_API gp_status gp_check_report_format(const gp_check_report *report, char *buf, size_t cap,
                                        size_t *needed);

/* ---- printing from kernels ---------------------------------------------------------------- *
 * gp_printf(fmt, ...) in a kernel prints on every backend. Formats are checked when the program
 * is built: a string literal using only
 * %d %u %ld %lu %x %f %e %g %c %s %% (with flags, width and precision), one argument per
 * conversion, %s only of string literals; anything else is GP_ERR_BUILD naming the line and why.
 * CPU (plain and checked): each call's text (at most 1023 bytes) is kept whole; when the launch
 * ends, its output goes to the handler below in group order (the order of calls within a group),
 * at most `limit` lines per launch, then one line saying how many were dropped. OpenCL: a print
 * buffer per launch, which the launch waits for and formats, handed on as on the CPU (group
 * order, the line limit); a program with a call in a helper function prints through OpenCL C's
 * own printf to the process's stdout instead, bounded by the device's printf buffer. CUDA
 * prints through its own printf to the process's stdout when the launch's wait returns (a 1 MiB
 * FIFO). Metal on macOS 15: os_log, each call's text handed to the handler below as Metal
 * delivers it. Metal before: a print buffer per launch, formatted when the queue is waited for
 * and handed on as on the CPU; calls only in kernel bodies (docs/debugging.md). */
typedef void (*gp_print_fn)(void *user, const char *text, size_t len);
/* Thread-safe. Where the kernel output of the CPU, OpenCL's print buffer and Metal goes:
 * fn(user, text, len) once per launch that printed (the CPU and OpenCL: from the launching
 * thread; Metal's print buffer: from the thread that waits; Metal's os_log: once per call, from a
 * Metal thread). NULL: the default, stdout (flushed). */
GP_API gp_status gp_print_set_handler(gp_print_fn fn, void *user);
/* Thread-safe. Lines kept per launch on the CPU and in the print buffers of OpenCL and Metal (0:
 * the default, 4096, or GPUPORT_PRINT_LIMIT). */
GP_API gp_status gp_print_set_limit(uint32_t lines);
GP_API gp_status gp_print_get_limit(uint32_t *lines);

/* ---- the timeline ------------------------------------------------------------------------- *
 * While a trace is recorded, every kernel launch, buffer copy (write, read, copy, fill), program
 * build (compiled, from the disk or the in-process cache) and wait (gp_queue_finish,
 * gp_device_synchronize, gp_event_wait) of every device is kept, and written at the stop in the
 * Chrome Trace Event Format (Perfetto, chrome://tracing): complete events ("ph": "X") with "ts"
 * and "dur" in microseconds since the start, one process per device, one track (tid) per queue
 * plus track 0 for the host's builds and waits; args name the backend, device, kernel, grid and
 * group, bytes, the cache outcome and the clock. Commands are timed on the device's own clock
 * where the backend has one (OpenCL profiling info, CUDA events; the CPU runs a command as it is
 * enqueued, on its own clock) aligned to the host's; else args.device_time is "unsupported" and
 * the host's interval is written. Tracing adds two markers per command on GPU backends; off, it
 * costs one branch per command. GPUPORT_TRACE=FILE traces the whole process (written at exit;
 * GPUPORT_TRACE_SUMMARY=1 prints the summary on stderr then). docs/debugging.md. */

/* Thread-safe. Starts recording; `path` (may be NULL: only the summary) is checked for writing
 * now and written at gp_trace_stop. GP_ERR_INVALID_ARGUMENT when a trace is already running. */
GP_API gp_status gp_trace_start(const char *path);
/* Thread-safe. Waits for the traced devices, stops and writes the file (GP_ERR_IO naming it). */
GP_API gp_status gp_trace_stop(void);
/* Thread-safe. The running or last trace summed up as text: time per kernel, per copy direction
 * (with bytes and GB/s), builds by cache outcome, waits, idle time per queue. As the *_text
 * functions: NUL-terminated, truncated to cap, *needed (optional) gets the full length + 1. */
GP_API gp_status gp_trace_summary(char *buf, size_t cap, size_t *needed);

/* ---- kernel cache ------------------------------------------------------------------------ *
 * Compiled kernels are kept on disk, keyed by a hash of (dialect version, backend, device,
 * driver/compiler version, options, source). Folder: gp_cache_set_dir, else $GPUPORT_CACHE_DIR,
 * else $XDG_CACHE_HOME/gpuport or ~/.cache/gpuport (~/Library/Caches/gpuport on macOS),
 * created with mode 0700. */

/* Thread-safe. Sets the folder for this process (NULL: back to the default). */
GP_API gp_status gp_cache_set_dir(const char *path);
/* Thread-safe. Writes the folder in use into buf (NUL-terminated); GP_ERR_INVALID_ARGUMENT if
 * it does not fit, with `*needed` (optional) set to the size required. */
GP_API gp_status gp_cache_get_dir(char *buf, size_t cap, size_t *needed);
/* Thread-safe. Counts the entries and their bytes. */
GP_API gp_status gp_cache_stats(uint64_t *entries, uint64_t *bytes);
/* Thread-safe. Removes every entry of the folder (files gpuport did not write are left). */
GP_API gp_status gp_cache_clear(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUPORT_GPUPORT_H */
