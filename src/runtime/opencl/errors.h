/*
 * errors.h — OpenCL error codes in words: the symbolic name, what to do about it, and the
 * gp_status it becomes. Every failing OpenCL call in the backend is reported through
 * gp_cl_fail(), so that messages have one shape: "what: CL_NAME (code): fix".
 */
#ifndef GP_RUNTIME_OPENCL_ERRORS_H
#define GP_RUNTIME_OPENCL_ERRORS_H

#include "gpuport/gpuport.h"
#include "runtime/opencl/cl_api.h"
#include "util/compiler.h"

/* Thread-safe. "CL_OUT_OF_RESOURCES"; "CL_UNKNOWN_ERROR" for a code the table lacks. */
const char *gp_cl_error_name(cl_int err);
/* Thread-safe. One sentence saying what usually causes `err` and what to change. */
const char *gp_cl_error_fix(cl_int err);
/* Thread-safe. The gp_status an OpenCL error becomes (allocation failures are
 * GP_ERR_OUT_OF_MEMORY, build failures GP_ERR_BUILD, refused launches GP_ERR_LAUNCH, ...). */
gp_status gp_cl_status_of(cl_int err);
/* Sets the thread's message to "<what, formatted>: CL_NAME (code): fix" and returns
 * gp_cl_status_of(err). */
gp_status gp_cl_fail(cl_int err, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);

#endif
