/*
 * status.h — turning a CUresult or an nvrtcResult into a gp_status and a message that names the
 * code and says what to do about it. Own name table, so that the message is right even when the
 * driver is missing, a stand-in, or too old to have cuGetErrorName.
 */
#ifndef GP_RUNTIME_CUDA_STATUS_H
#define GP_RUNTIME_CUDA_STATUS_H

#include "gpuport/gpuport.h"
#include "runtime/cuda/cuda_api.h"

/* "CUDA_ERROR_NO_DEVICE"; "CUDA_ERROR_<n>" style names are never returned: unknown codes give
 * "unknown CUresult". */
const char *gp_cuda_result_name(CUresult r);

/* The gp_status a CUresult stands for (GP_OK for CUDA_SUCCESS). */
gp_status gp_cuda_result_status(CUresult r);

/* Writes "<name> (<code>): <what it means and how to fix it>" into buf. `driver_version` (as
 * cuDriverGetVersion reports it, 0 if unknown) and `needed_version` (the CUDA version the code
 * being loaded needs, 0 if unknown) make the driver-version advice exact. */
void gp_cuda_result_explain(CUresult r, int driver_version, int needed_version, char *buf,
                            size_t len);

/* Sets the thread-local message to "<what>: <explanation>" and returns the mapped status. */
gp_status gp_cuda_fail(CUresult r, const char *what);
gp_status gp_cuda_fail_versions(CUresult r, const char *what, int driver_version,
                                int needed_version);

/* The minimum Linux driver for a CUDA version (12040 -> "550.54.14"); NULL when not in the
 * table. */
const char *gp_cuda_min_driver(int cuda_version);

/* "NVRTC_ERROR_COMPILATION" */
const char *gp_nvrtc_result_name(nvrtcResult r);

#endif
