/*
 * status.c — every CUresult and nvrtcResult as a name, a gp_status and a fix. The messages are
 * written for the person at the machine: what the code means on their system and the command or
 * setting that resolves it. Driver minimums come from NVIDIA's release notes (Linux x86-64).
 */
#include "runtime/cuda/status.h"
#include "util/cuda_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/error.h"
#include "util/compiler.h"

typedef struct gp_cu_name {
    int code;
    const char *name;
} gp_cu_name;

static const gp_cu_name gp_cu_names[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {5, "CUDA_ERROR_PROFILER_DISABLED"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
    {205, "CUDA_ERROR_MAP_FAILED"},
    {206, "CUDA_ERROR_UNMAP_FAILED"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
    {208, "CUDA_ERROR_ALREADY_MAPPED"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
    {211, "CUDA_ERROR_NOT_MAPPED"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
    {226, "CUDA_ERROR_CONTAINED"},
    {300, "CUDA_ERROR_INVALID_SOURCE"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {401, "CUDA_ERROR_ILLEGAL_STATE"},
    {402, "CUDA_ERROR_LOSSY_QUERY"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
    {710, "CUDA_ERROR_ASSERT"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
    {907, "CUDA_ERROR_CAPTURED_EVENT"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"},
    {916, "CUDA_ERROR_KEY_ROTATION"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

static const gp_cu_name gp_nvrtc_names[] = {
    {0, "NVRTC_SUCCESS"},
    {1, "NVRTC_ERROR_OUT_OF_MEMORY"},
    {2, "NVRTC_ERROR_PROGRAM_CREATION_FAILURE"},
    {3, "NVRTC_ERROR_INVALID_INPUT"},
    {4, "NVRTC_ERROR_INVALID_PROGRAM"},
    {5, "NVRTC_ERROR_INVALID_OPTION"},
    {6, "NVRTC_ERROR_COMPILATION"},
    {7, "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"},
    {8, "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION"},
    {9, "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
    {10, "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID"},
    {11, "NVRTC_ERROR_INTERNAL_ERROR"},
    {12, "NVRTC_ERROR_TIME_FILE_WRITE_FAILED"},
};

/* CUDA version (1000 * major + 10 * minor) -> minimum Linux driver. */

static const char *gp_name_lookup(const gp_cu_name *t, size_t n, int code, const char *unknown)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code) return t[i].name;
    return unknown;
}

const char *gp_cuda_result_name(CUresult r)
{
    return gp_name_lookup(gp_cu_names, GP_ARRAY_LEN(gp_cu_names), r, "unknown CUresult");
}

const char *gp_nvrtc_result_name(nvrtcResult r)
{
    return gp_name_lookup(gp_nvrtc_names, GP_ARRAY_LEN(gp_nvrtc_names), r, "unknown nvrtcResult");
}

const char *gp_cuda_min_driver(int cuda_version)
{
    return gp_cuda_min_driver_for(cuda_version / 1000, (cuda_version % 1000) / 10);
}

gp_status gp_cuda_result_status(CUresult r)
{
    switch (r) {
    case 0:
        return GP_OK;
    case 1:
        return GP_ERR_INVALID_ARGUMENT;
    case 2:
        return GP_ERR_OUT_OF_MEMORY;
    case 100:
    case 101:
    case 500:
        return GP_ERR_NOT_FOUND;
    case 200:
    case 209:
    case 218:
    case 221:
    case 222:
    case 223:
    case 300:
        return GP_ERR_BUILD;
    case 701:
    case 720:
    case 912:
        return GP_ERR_LAUNCH;
    case 801:
        return GP_ERR_UNSUPPORTED;
    case 400:
    case 201:
        return GP_ERR_INTERNAL;
    default:
        return GP_ERR_BACKEND;
    }
}

/* "CUDA 12.4" from 12040, into buf. */
static const char *gp_cuda_version_text(int v, char *buf, size_t len)
{
    if (v <= 0)
        snprintf(buf, len, "an unknown CUDA version");
    else
        snprintf(buf, len, "CUDA %d.%d", v / 1000, (v % 1000) / 10);
    return buf;
}

/* The driver-version advice shared by 35, 36 and 222. */
static void gp_cuda_driver_advice(int driver_version, int needed_version, char *buf, size_t len)
{
    char have[40], need[40];
    const char *min = needed_version > 0 ? gp_cuda_min_driver(needed_version) : NULL;
    gp_cuda_version_text(driver_version, have, sizeof have);
    gp_cuda_version_text(needed_version, need, sizeof need);
    if (needed_version > 0 && min)
        snprintf(buf, len,
                 "this needs %s, which needs NVIDIA driver %s or newer; the installed driver "
                 "supports %s. Update the NVIDIA driver",
                 need, min, have);
    else if (needed_version > 0)
        snprintf(buf, len,
                 "this needs %s; the installed driver supports %s. Update the NVIDIA driver", need,
                 have);
    else
        snprintf(buf, len,
                 "the installed driver supports %s, older than this program needs. Update the "
                 "NVIDIA driver (nvidia-smi shows the highest CUDA version it supports)",
                 have);
}

/* Where else a GPU goes missing: a Linux container started without it; on Windows a GPU that
 * Device Manager disabled or stopped (Code 43), or one in TCC seen from WSL 2. */
#if defined(_WIN32)
#define GP_CUDA_NO_DEVICE_WHERE                                                                    \
    "and that Device Manager shows it enabled and working (no Code 43 on the NVIDIA display "      \
    "adapter); `gpuport doctor` checks the driver"
#else
#define GP_CUDA_NO_DEVICE_WHERE "and in a container that it was started with --gpus all"
#endif

static const char *gp_cuda_fix(CUresult r)
{
    switch (r) {
    case 2:
        return "the GPU is out of memory: free buffers or use smaller ones (nvidia-smi shows "
               "what else uses it)";
    case 3:
    case 4:
        return "the driver was not initialized or was shut down: this is a gpuport bug, please "
               "report it";
    case 34:
        return "the libcuda.so.1 found is the toolkit's stub library (a 'stubs' folder): remove "
               "that folder from LD_LIBRARY_PATH and install the NVIDIA driver";
    case 46:
        return "the GPU is unavailable: it is in exclusive-process compute mode and used by "
               "another process (nvidia-smi -q -d COMPUTE), or being reset";
    case 100: {
        const char *v = getenv("CUDA_VISIBLE_DEVICES");
        if (v && (!*v || strcmp(v, "-1") == 0 || strcmp(v, "none") == 0))
            return "no CUDA device is visible because CUDA_VISIBLE_DEVICES hides them all: "
                   "unset it or list the GPUs to use (CUDA_VISIBLE_DEVICES=0)";
        return "no CUDA device is visible: check CUDA_VISIBLE_DEVICES, that nvidia-smi lists "
               "the GPU, " GP_CUDA_NO_DEVICE_WHERE;
    }
    case 101:
        return "no such CUDA device: the index is beyond the devices CUDA_VISIBLE_DEVICES leaves "
               "visible (gpuport devices lists them)";
    case 200:
    case 218:
        return "the driver rejected the compiled kernel: a corrupt kernel cache entry (gpuport "
               "cache clear) or code from a newer CUDA than the driver supports";
    case 209:
        return "the code has no image for this GPU's architecture and no PTX the driver can "
               "compile: rebuild with NVRTC for this GPU, or clear the kernel cache";
    case 221:
        return "the driver's PTX JIT compiler is missing (libnvidia-ptxjitcompiler.so.1): "
               "reinstall the NVIDIA driver's compute libraries";
    case 223:
        return "PTX JIT compilation is disabled (CUDA_DISABLE_PTX_JIT is set): unset it, or "
               "install NVRTC so gpuport can compile a cubin for this GPU";
    case 500:
        return "the kernel is not in the compiled module: check the name given to the "
               "GP_KERNEL macro";
    case 700:
        return "a kernel read or wrote outside its buffers; the CUDA context is unusable now: "
               "restart the process and check the kernel's indexing (compute-sanitizer finds it)";
    case 701:
        return "the launch needs more registers or shared memory than a multiprocessor has: use "
               "a smaller group size";
    case 702:
        return "the kernel ran longer than the display watchdog allows: split the work into "
               "shorter launches, or use a GPU without a display attached";
    case 719:
        return "the kernel faulted while running; the CUDA context is unusable now: restart the "
               "process";
    case 304:
        return "an operating-system call inside the driver failed: check the permissions of "
               "/dev/nvidia* (video/render group) and dmesg";
    case 802:
        return "the system is not ready: on NVSwitch systems start the fabric manager "
               "(systemctl start nvidia-fabricmanager)";
    case 803:
        return "the kernel module and libcuda.so.1 are different driver versions (often after "
               "an unattended driver upgrade): reboot, then hold the driver packages";
    case 804:
        return "the forward-compatibility libraries (cuda-compat) are in use on a GPU that does "
               "not support them (only datacenter GPUs and Jetson do): remove the cuda-compat "
               "folder from LD_LIBRARY_PATH or the container image and use the driver's own "
               "libcuda.so.1";
    case 999:
        return "the driver reported an unknown error: check dmesg for Xid messages and that "
               "nvidia-smi works";
    default:
        return NULL;
    }
}

void gp_cuda_result_explain(CUresult r, int driver_version, int needed_version, char *buf,
                            size_t len)
{
    char advice[512];
    const char *fix = gp_cuda_fix(r);
    if (r == 35 || r == 36 || r == 222) {
        gp_cuda_driver_advice(driver_version, needed_version, advice, sizeof advice);
        if (r == 222)
            snprintf(buf, len,
                     "%s (%d): the PTX was produced by a newer CUDA compiler than the driver "
                     "understands; %s, or use an NVRTC no newer than the driver "
                     "(pip install nvidia-cuda-nvrtc-cu12 for a CUDA 12 driver; "
                     "GPUPORT_NVRTC_LIBRARY picks one)",
                     gp_cuda_result_name(r), r, advice);
        else
            snprintf(buf, len, "%s (%d): the NVIDIA driver is too old: %s", gp_cuda_result_name(r),
                     r, advice);
        return;
    }
    if (fix)
        snprintf(buf, len, "%s (%d): %s", gp_cuda_result_name(r), r, fix);
    else
        snprintf(buf, len, "%s (%d)", gp_cuda_result_name(r), r);
}

gp_status gp_cuda_fail_versions(CUresult r, const char *what, int driver_version,
                                int needed_version)
{
    char text[1536];
    gp_cuda_result_explain(r, driver_version, needed_version, text, sizeof text);
    gp_status st = gp_cuda_result_status(r);
    if (st == GP_OK) st = GP_ERR_INTERNAL; /* a caller bug: success is not a failure */
    return gp_error_set(st, "%s: %s", what, text);
}

gp_status gp_cuda_fail(CUresult r, const char *what)
{
    return gp_cuda_fail_versions(r, what, 0, 0);
}
