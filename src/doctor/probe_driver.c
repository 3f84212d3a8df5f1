/* probe_driver.c — the NVIDIA user-space driver: NVML (libnvidia-ml.so.1) for the driver
 * version, the highest CUDA and the GPU inventory without starting CUDA, and the CUDA driver
 * (libcuda.so.1) for its version; cuInit(0) and the device list only with --deep. Both are
 * loaded with dlopen from the driver search path; a library without the expected entry points
 * is recorded as such, never called. */
#define _GNU_SOURCE 1 /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/driver_abi.h"
#include "doctor/probe.h"

/* Looks up `name`, adding it to lib->missing when absent. */
static void *sym(void *h, const char *name, gp_doctor_lib *lib)
{
    void *p = dlsym(h, name);
    if (!p) {
        size_t l = strlen(lib->missing);
        snprintf(lib->missing + l, sizeof lib->missing - l, "%s%s", l ? ", " : "", name);
    }
    return p;
}

static void nvml_devices(void *h, gp_doctor_nvidia *nv)
{
    gp_doctor_lib *lib = &nv->nvml;
    gp_nvmlDeviceGetCount_fn count = (gp_nvmlDeviceGetCount_fn)sym(h, "nvmlDeviceGetCount_v2", lib);
    gp_nvmlDeviceGetHandleByIndex_fn get =
        (gp_nvmlDeviceGetHandleByIndex_fn)sym(h, "nvmlDeviceGetHandleByIndex_v2", lib);
    gp_nvmlDeviceGetString_fn name = (gp_nvmlDeviceGetString_fn)sym(h, "nvmlDeviceGetName", lib);
    gp_nvmlDeviceGetString_fn uuid = (gp_nvmlDeviceGetString_fn)sym(h, "nvmlDeviceGetUUID", lib);
    gp_nvmlDeviceGetCudaComputeCapability_fn cc =
        (gp_nvmlDeviceGetCudaComputeCapability_fn)sym(h, "nvmlDeviceGetCudaComputeCapability", lib);
    gp_nvmlDeviceGetMemoryInfo_fn mem =
        (gp_nvmlDeviceGetMemoryInfo_fn)sym(h, "nvmlDeviceGetMemoryInfo", lib);
    unsigned n = 0;
    if (!count || !get || count(&n) != GP_NVML_SUCCESS) return;
    if (n > GP_DOCTOR_MAX_GPUS) n = GP_DOCTOR_MAX_GPUS;
    for (unsigned i = 0; i < n; i++) {
        gp_nvml_device d = NULL;
        if (get(i, &d) != GP_NVML_SUCCESS) continue;
        gp_doctor_gpu *g = &nv->nvml_gpus[nv->nvml_gpu_count++];
        char buf[96] = "";
        if (name && name(d, buf, sizeof buf) == GP_NVML_SUCCESS) {
            buf[sizeof buf - 1] = '\0';
            gp_copy(g->name, sizeof g->name, buf);
        }
        buf[0] = '\0';
        if (uuid && uuid(d, buf, sizeof buf) == GP_NVML_SUCCESS) {
            buf[sizeof buf - 1] = '\0';
            gp_copy(g->uuid, sizeof g->uuid, buf);
        }
        if (cc) cc(d, &g->cc_major, &g->cc_minor);
        gp_nvml_memory m = {0, 0, 0};
        if (mem && mem(d, &m) == GP_NVML_SUCCESS) g->memory_bytes = m.total;
    }
}

static void probe_nvml(const gp_probe_ctx *c, gp_doctor_nvidia *nv)
{
    void *h = gp_probe_dlopen(c, "libnvidia-ml.so.1", &nv->nvml);
    if (!h) return;
    gp_doctor_lib *lib = &nv->nvml;
    gp_nvmlInit_fn init = (gp_nvmlInit_fn)sym(h, "nvmlInit_v2", lib);
    gp_nvmlShutdown_fn shutdown = (gp_nvmlShutdown_fn)sym(h, "nvmlShutdown", lib);
    gp_nvmlErrorString_fn errstr = (gp_nvmlErrorString_fn)dlsym(h, "nvmlErrorString");
    gp_nvmlSystemGetDriverVersion_fn drv =
        (gp_nvmlSystemGetDriverVersion_fn)sym(h, "nvmlSystemGetDriverVersion", lib);
    gp_nvmlSystemGetCudaDriverVersion_fn cuda =
        (gp_nvmlSystemGetCudaDriverVersion_fn)sym(h, "nvmlSystemGetCudaDriverVersion", lib);
    if (init) {
        nv->nvml_probed = true;
        nv->nvml_init_rc = init();
        if (nv->nvml_init_rc != GP_NVML_SUCCESS) {
            const char *s = errstr ? errstr(nv->nvml_init_rc) : NULL;
            snprintf(nv->nvml_init_error, sizeof nv->nvml_init_error, "%s (NVML error %d)",
                     s ? s : "nvmlInit_v2 failed", nv->nvml_init_rc);
        } else {
            char v[96] = "";
            if (drv && drv(v, sizeof v) == GP_NVML_SUCCESS) {
                v[sizeof v - 1] = '\0';
                gp_copy_line(nv->nvml_driver, sizeof nv->nvml_driver, v);
            }
            if (cuda && cuda(&nv->nvml_cuda) != GP_NVML_SUCCESS) nv->nvml_cuda = 0;
            nvml_devices(h, nv);
            if (shutdown) shutdown();
        }
    }
    dlclose(h);
}

static void cuda_devices(void *h, gp_doctor_nvidia *nv)
{
    gp_doctor_lib *lib = &nv->cuda;
    gp_cuDeviceGetCount_fn count = (gp_cuDeviceGetCount_fn)sym(h, "cuDeviceGetCount", lib);
    gp_cuDeviceGet_fn get = (gp_cuDeviceGet_fn)sym(h, "cuDeviceGet", lib);
    gp_cuDeviceGetName_fn name = (gp_cuDeviceGetName_fn)sym(h, "cuDeviceGetName", lib);
    gp_cuDeviceGetAttribute_fn attr =
        (gp_cuDeviceGetAttribute_fn)sym(h, "cuDeviceGetAttribute", lib);
    gp_cuDeviceTotalMem_fn mem = (gp_cuDeviceTotalMem_fn)sym(h, "cuDeviceTotalMem_v2", lib);
    int n = 0;
    if (!count || !get || count(&n) != 0) return;
    if (n > GP_DOCTOR_MAX_GPUS) n = GP_DOCTOR_MAX_GPUS;
    for (int i = 0; i < n; i++) {
        gp_cu_device d = 0;
        if (get(&d, i) != 0) continue;
        gp_doctor_gpu *g = &nv->cuda_gpus[nv->cuda_gpu_count++];
        char buf[96] = "";
        if (name && name(buf, (int)sizeof buf, d) == 0) {
            buf[sizeof buf - 1] = '\0';
            gp_copy(g->name, sizeof g->name, buf);
        }
        if (attr) {
            attr(&g->cc_major, GP_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
            attr(&g->cc_minor, GP_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
            attr(&g->sm_count, GP_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
        }
        size_t bytes = 0;
        if (mem && mem(&bytes, d) == 0) g->memory_bytes = bytes;
    }
}

static void probe_libcuda(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_nvidia *nv = &f->nv;
    void *h = gp_probe_dlopen(c, "libcuda.so.1", &nv->cuda);
    if (!h) return;
    gp_doctor_lib *lib = &nv->cuda;
    gp_cuDriverGetVersion_fn ver = (gp_cuDriverGetVersion_fn)sym(h, "cuDriverGetVersion", lib);
    gp_cuInit_fn init = (gp_cuInit_fn)sym(h, "cuInit", lib);
    gp_cuGetErrorName_fn ename = (gp_cuGetErrorName_fn)dlsym(h, "cuGetErrorName");
    gp_cuGetErrorName_fn etext = (gp_cuGetErrorName_fn)dlsym(h, "cuGetErrorString");
    /* The file behind libcuda.so.1 names the driver (libcuda.so.535.129.03). */
    char real[GP_DOCTOR_PATH] = "";
    if (lib->path[0]) {
        char *r = realpath(lib->path, NULL);
        if (r) gp_copy(real, sizeof real, r);
        free(r);
    } else if (ver) {
        Dl_info info;
        if (dladdr((void *)ver, &info) && info.dli_fname) {
            char *r = realpath(info.dli_fname, NULL);
            gp_copy(real, sizeof real, r ? r : info.dli_fname);
            free(r);
        }
    }
    gp_copy(nv->cuda_real, sizeof nv->cuda_real, real);
    if (ver && ver(&nv->cuda_driver_version) != 0) nv->cuda_driver_version = 0;
    if (c->deep && init) {
        nv->deep = true;
        nv->cuinit_rc = init(0);
        const char *s = NULL;
        if (ename && ename(nv->cuinit_rc, &s) == 0 && s)
            gp_copy(nv->cuinit_name, sizeof nv->cuinit_name, s);
        s = NULL;
        if (etext && etext(nv->cuinit_rc, &s) == 0 && s)
            gp_copy(nv->cuinit_text, sizeof nv->cuinit_text, s);
        if (nv->cuinit_rc == 0) cuda_devices(h, nv);
        /* A started driver keeps threads that a dlclose would pull the code from under. */
        return;
    }
    dlclose(h);
}

/* A cuda-compat libcuda (forward compatibility) on LD_LIBRARY_PATH. */
static void probe_compat(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    if (strstr(f->nv.cuda_real, "/compat/")) {
        gp_copy(f->nv.compat_dir, sizeof f->nv.compat_dir, f->nv.cuda_real);
        gp_path_dirname(f->nv.compat_dir);
        return;
    }
    const char *s = getenv("LD_LIBRARY_PATH");
    while (s && *s) {
        size_t l = strcspn(s, ":");
        char dir[GP_DOCTOR_PATH], lib[GP_DOCTOR_PATH + 16];
        if (l > 0 && l < sizeof dir) {
            memcpy(dir, s, l);
            dir[l] = '\0';
            snprintf(lib, sizeof lib, "%s/libcuda.so.1", dir);
            if (strstr(dir, "compat") && gp_sysroot_exists(&c->sr, lib)) {
                gp_copy(f->nv.compat_dir, sizeof f->nv.compat_dir, dir);
                return;
            }
        }
        s += l;
        if (*s == ':') s++;
    }
}

void gp_probe_nvidia_libs(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    if (f->platform == GP_DOCTOR_MACOS) return; /* no NVIDIA driver on Apple Silicon macOS */
    probe_nvml(c, &f->nv);
    probe_libcuda(c, f);
    probe_compat(c, f);
}
