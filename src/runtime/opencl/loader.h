/*
 * loader.h — finding and opening the OpenCL ICD loader with dlopen and resolving the entry
 * points of cl_api.h. Nothing of OpenCL is linked at build time; a machine without it gets a
 * reason ("not found, looked in ...") instead of a failure to start.
 */
#ifndef GP_RUNTIME_OPENCL_LOADER_H
#define GP_RUNTIME_OPENCL_LOADER_H

#include <stddef.h>

#include "gpuport/gpuport.h"
#include "runtime/opencl/cl_api.h"

/* When set, replaces the default search: a ':'-separated list of folders (each tried for
 * the loader's usual file names) or files (tried as given). An empty folder makes the backend
 * report "library not found" — this is how the tests check that path, and how a user points
 * gpuport at a loader outside the dynamic linker's search path. */
#define GP_CL_LIBRARY_PATH_ENV "GPUPORT_OPENCL_LIBRARY_PATH"

/* Opens the ICD loader and resolves every entry point into *api. `search_path` is a list as in
 * GP_CL_LIBRARY_PATH_ENV, or NULL for the platform's default names (libOpenCL.so.1, then
 * libOpenCL.so; OpenCL.framework on macOS) through the dynamic linker's search. On failure
 * returns GP_ERR_NOT_FOUND (nothing loadable; `why` lists every place tried) or
 * GP_ERR_UNSUPPORTED (a library without an OpenCL 1.2 entry point), and *api is zeroed.
 * Thread-safe (touches no shared state). */
gp_status gp_cl_api_open(gp_cl_api *api, const char *search_path, char *why, size_t whylen);
/* Closes what gp_cl_api_open opened (used by tests; the process-wide one is never closed,
 * because ICD drivers do not survive being unloaded). */
void gp_cl_api_close(gp_cl_api *api);

/* The process-wide loader, opened on first use with GP_CL_LIBRARY_PATH_ENV (or the defaults).
 * Thread-safe. NULL when it cannot be opened; then `why` (optional) receives the reason, the
 * same on every call. */
const gp_cl_api *gp_cl_api_get(char *why, size_t whylen);

#endif
