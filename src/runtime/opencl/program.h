/*
 * program.h — building OpenCL programs from dialect source or from a cached binary, with the
 * driver's build log rewritten to point at the user's file and line, and the per-kernel limits
 * (CL_KERNEL_WORK_GROUP_SIZE) that a launch must respect.
 */
#ifndef GP_RUNTIME_OPENCL_PROGRAM_H
#define GP_RUNTIME_OPENCL_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuport/gpuport.h"
#include "runtime/opencl/cl_api.h"

/* Build logs longer than this are cut (with a note) before they reach a message. */
#define GP_CL_LOG_CAP (64u * 1024u)

/* Builds `source` (len bytes, not necessarily NUL-terminated) for one device. `prelude` (may be
 * NULL) is compiled first and a `#line 1 "<file>"` directive separates it from the user's
 * source, so the compiler numbers the user's lines from 1 and names them by `file`. On a
 * compile error returns GP_ERR_BUILD with "FILE: OpenCL build failed on DEVICE:" and the mapped
 * log as the thread's message; other failures map through gp_cl_fail. *out is NULL on error. */
gp_status gp_cl_program_build_source(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                     const char *prelude, const char *source, size_t len,
                                     const char *file, const char *options, cl_program *out);

/* Builds text the core has assembled (defines, `#line 1 "gpuport/kernel.h"`, the prelude,
 * `#line 1 "<file>"`, the user's source) exactly as given; errors as above, with locations
 * before the first #line (the defines) named "<gpuport build defines>". */
gp_status gp_cl_program_build_assembled(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                        const char *text, size_t len, const char *file,
                                        const char *options, cl_program *out);

/* Builds a program from a device binary (as returned by gp_cl_program_binary). A binary the
 * driver rejects (another driver version, a corrupt file) gives GP_ERR_BUILD so that the
 * caller rebuilds from source; *out is NULL then. */
gp_status gp_cl_program_build_binary(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                     const unsigned char *binary, size_t len, const char *options,
                                     cl_program *out);

/* The program's binary for its one device (CL_PROGRAM_BINARIES), as a heap buffer (free() it). */
gp_status gp_cl_program_binary(const gp_cl_api *api, cl_program program, unsigned char **binary,
                               size_t *len);

/* Whether the device's driver is a PoCL release whose kernel compiler loses work under a
 * barrier that a condition of the whole group guards: with `if (c) { ...; barrier; ... }` and
 * other code under a condition (an `else`, a later `if`, an early `return`), the writes of the
 * barrier's branch vanish, plain OpenCL C included (seen on PoCL 3.1, Debian 12's; its
 * conditional-barrier handling was reworked in later releases). Built with -cl-opt-disable the
 * same program is right. True for PoCL up to major version 3. */
bool gp_cl_pocl_conditional_barrier_bug(const char *platform_name, const char *driver_version);

/* Whether dialect source (`len` bytes, as the core assembled it) calls gp_barrier() where a
 * condition may keep part of a kernel from it: inside an if or else (braced or not), after a
 * `return` inside an if of the same function, or in a function that is not a kernel (its
 * callers' conditions are not looked at). Comments, strings and preprocessor lines (the
 * prelude's definitions) are skipped. */
bool gp_cl_has_conditional_barrier(const char *src, size_t len);

/* Rewrites a driver's build log so that every location reads "FILE:LINE:COL: severity: text":
 * PoCL's "error: FILE:L:C: text" is reordered; a location named `file` or "gpuport/kernel.h"
 * keeps its name, any other (the driver's temporary file, which only text before the first
 * #line can produce) is named `other` (NULL: "<gpuport OpenCL prelude>"). At most `len` bytes
 * of `log` are read (a NUL ends it early); the result (free() it) is capped at GP_CL_LOG_CAP
 * bytes. NULL only when out of memory. */
char *gp_cl_build_log_map(const char *log, size_t len, const char *file, const char *other);

/* Where the parts of the compiled text begin, in its own line numbers (0: not known). For a
 * compiler that ignores #line (NVIDIA's numbers the whole text under a name of its own), a
 * location in an unknown name is placed by its line: from user_first on in `file`, from
 * header_first on in gpuport/kernel.h, before that in `other`. */
typedef struct gp_cl_lines {
    unsigned header_first; /* line 1 of gpuport/kernel.h */
    unsigned user_first;   /* line 1 of the user's source */
} gp_cl_lines;
char *gp_cl_build_log_map_lines(const char *log, size_t len, const char *file, const char *other,
                                const gp_cl_lines *lines);

/* The limits of one kernel on one device. */
typedef struct gp_cl_kernel_limits {
    size_t max_group_size;      /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t preferred_multiple;  /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    uint64_t local_mem_bytes;   /* CL_KERNEL_LOCAL_MEM_SIZE (static shared memory) */
    uint64_t private_mem_bytes; /* CL_KERNEL_PRIVATE_MEM_SIZE */
} gp_cl_kernel_limits;

gp_status gp_cl_kernel_limits_query(const gp_cl_api *api, cl_kernel kernel, cl_device_id dev,
                                    gp_cl_kernel_limits *out);

#endif
