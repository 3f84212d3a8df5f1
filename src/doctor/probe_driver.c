/* probe_driver.c — the NVIDIA user-space driver: NVML (libnvidia-ml.so.1) for the driver
 * version, the highest CUDA and the GPU inventory without starting CUDA, and the CUDA driver
 * (libcuda.so.1) for its version; cuInit(0) and the device list only with --deep. Both are
 * loaded with dlopen from the driver search path; a library without the expected entry points
 * is recorded as such, never called. */
#include "util/dynlib.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/driver_abi.h"
#include "doctor/probe.h"

/* Looks up `name`, adding it to lib->missing when absent. */
static void *sym(void *h, const char *name, gp_doctor_lib *lib)
{
    void *p = gp_dl_sym(h, name);
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
    nv->nvml_gpu_total = (int)(n > 1u << 20 ? 1u << 20 : n);
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
        if (cc && cc(d, &g->cc_major, &g->cc_minor) == GP_NVML_SUCCESS && g->cc_major > 0)
            gp_copy(g->cc_from, sizeof g->cc_from, "NVML");
        else
            g->cc_major = g->cc_minor = 0;
        gp_nvml_memory m = {0, 0, 0};
        if (mem && mem(d, &m) == GP_NVML_SUCCESS) g->memory_bytes = m.total;
    }
}

void gp_probe_nvml(const gp_probe_ctx *c, gp_doctor_nvidia *nv, const char *soname)
{
    void *h = gp_probe_dlopen(c, soname, &nv->nvml);
    if (!h) return;
    gp_doctor_lib *lib = &nv->nvml;
    gp_nvmlInit_fn init = (gp_nvmlInit_fn)sym(h, "nvmlInit_v2", lib);
    gp_nvmlShutdown_fn shutdown = (gp_nvmlShutdown_fn)sym(h, "nvmlShutdown", lib);
    gp_nvmlErrorString_fn errstr = (gp_nvmlErrorString_fn)gp_dl_sym(h, "nvmlErrorString");
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
    gp_dl_close(h);
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
    if (!count || !get || count(&n) != 0 || n < 0) return;
    nv->cuda_gpu_total = n;
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
            if (g->cc_major > 0) gp_copy(g->cc_from, sizeof g->cc_from, "CUDA driver");
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
    gp_cuGetErrorName_fn ename = (gp_cuGetErrorName_fn)gp_dl_sym(h, "cuGetErrorName");
    gp_cuGetErrorName_fn etext = (gp_cuGetErrorName_fn)gp_dl_sym(h, "cuGetErrorString");
    /* The file behind libcuda.so.1 names the driver (libcuda.so.535.129.03). */
    char real[GP_DOCTOR_PATH] = "";
    if (lib->path[0]) {
        char *r = realpath(lib->path, NULL);
        if (r) gp_copy(real, sizeof real, r);
        free(r);
    } else if (ver) {
        char from[GP_DOCTOR_PATH];
        if (gp_dl_path_of((void *)ver, from, sizeof from) == 0) {
            char *r = realpath(from, NULL);
            gp_copy(real, sizeof real, r ? r : from);
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
    gp_dl_close(h);
}

/* True when machine folder `dir` is a cuda-compat folder holding a libcuda.so.1. */
static bool compat_folder(const gp_probe_ctx *c, const char *dir)
{
    char lib[GP_DOCTOR_PATH + 16];
    snprintf(lib, sizeof lib, "%s/libcuda.so.1", dir);
    return strstr(dir, "compat") && gp_sysroot_exists(&c->sr, lib);
}

/* A compat folder named by a line of ld.so.conf file `file` (the way images install it). */
static bool compat_in_conf(const gp_probe_ctx *c, gp_doctor_nvidia *nv, const char *file)
{
    char err[GP_DOCTOR_TEXT], line[GP_DOCTOR_PATH];
    size_t len;
    char *t = gp_sysroot_read(&c->sr, file, 64 * 1024, &len, err, sizeof err);
    if (!t) return false;
    bool found = false;
    for (char *s = t; *s && !found; s += strcspn(s, "\n"), s += *s == '\n') {
        gp_copy_line(line, sizeof line, s);
        if (line[0] != '/' || !compat_folder(c, line)) continue;
        gp_copy(nv->compat_dir, sizeof nv->compat_dir, line);
        gp_copy(nv->compat_via, sizeof nv->compat_via, file);
        found = true;
    }
    free(t);
    return found;
}

/* A cuda-compat libcuda (forward compatibility): the one loaded, or one that LD_LIBRARY_PATH or
 * the loader's configuration (/etc/ld.so.conf and the .conf files of /etc/ld.so.conf.d) puts
 * first. */
static void probe_compat(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_nvidia *nv = &f->nv;
    if (strstr(nv->cuda_real, "/compat/")) {
        gp_copy(nv->compat_dir, sizeof nv->compat_dir, nv->cuda_real);
        gp_path_dirname(nv->compat_dir);
        gp_copy(nv->compat_via, sizeof nv->compat_via, "the libcuda.so.1 that loads");
        return;
    }
    const char *s = getenv("LD_LIBRARY_PATH");
    while (s && *s) {
        size_t l = strcspn(s, ":");
        char dir[GP_DOCTOR_PATH];
        if (l > 0 && l < sizeof dir) {
            memcpy(dir, s, l);
            dir[l] = '\0';
            if (compat_folder(c, dir)) {
                gp_copy(nv->compat_dir, sizeof nv->compat_dir, dir);
                gp_copy(nv->compat_via, sizeof nv->compat_via, "LD_LIBRARY_PATH");
                return;
            }
        }
        s += l;
        if (*s == ':') s++;
    }
    if (compat_in_conf(c, nv, "/etc/ld.so.conf")) return;
    DIR *d = gp_sysroot_opendir(&c->sr, "/etc/ld.so.conf.d");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && !nv->compat_dir[0]) {
        size_t l = strlen(e->d_name);
        if (l < 6 || l > 128 || strcmp(e->d_name + l - 5, ".conf") != 0) continue;
        char p[GP_DOCTOR_PATH];
        snprintf(p, sizeof p, "/etc/ld.so.conf.d/%s", e->d_name);
        compat_in_conf(c, nv, p);
    }
    closedir(d);
}

void gp_probe_nvidia_libs(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    if (f->platform == GP_DOCTOR_MACOS) return; /* no NVIDIA driver on Apple Silicon macOS */
    gp_probe_nvml(c, &f->nv, "libnvidia-ml.so.1");
    probe_libcuda(c, f);
    probe_compat(c, f);
}
