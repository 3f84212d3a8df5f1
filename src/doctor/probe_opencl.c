/* probe_opencl.c — OpenCL through the ICD loader (libOpenCL.so.1, dlopen): the installed ICDs
 * (the .icd files in /etc/OpenCL/vendors) always, and the platforms and devices themselves by
 * calling the loader, which loads and starts every vendor driver. The few cl* entry points are
 * declared here; no OpenCL header is needed to build. */
#include "util/dynlib.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "doctor/probe.h"

/* Enumerating starts every vendor driver (PoCL alone takes ~100 ms), so by default only
 * --deep does it; see docs/doctor.md. */
#ifndef GP_OPENCL_ENUMERATE_BY_DEFAULT
#define GP_OPENCL_ENUMERATE_BY_DEFAULT 0
#endif

typedef int32_t gp_cl_int;
typedef uint32_t gp_cl_uint;
typedef uint64_t gp_cl_ulong;
typedef struct gp_cl_platform_st *gp_cl_platform_id;
typedef struct gp_cl_device_st *gp_cl_device_id;
enum {
    GP_CL_PLATFORM_NAME = 0x0902,
    GP_CL_DEVICE_TYPE = 0x1000,
    GP_CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002,
    GP_CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F,
    GP_CL_DEVICE_NAME = 0x102B,
};
#define GP_CL_DEVICE_TYPE_ALL 0xFFFFFFFFull
typedef gp_cl_int (*gp_clGetPlatformIDs_fn)(gp_cl_uint n, gp_cl_platform_id *p, gp_cl_uint *count);
typedef gp_cl_int (*gp_clGetPlatformInfo_fn)(gp_cl_platform_id p, gp_cl_uint what, size_t size,
                                             void *value, size_t *ret);
typedef gp_cl_int (*gp_clGetDeviceIDs_fn)(gp_cl_platform_id p, gp_cl_ulong type, gp_cl_uint n,
                                          gp_cl_device_id *d, gp_cl_uint *count);
typedef gp_cl_int (*gp_clGetDeviceInfo_fn)(gp_cl_device_id d, gp_cl_uint what, size_t size,
                                           void *value, size_t *ret);

typedef struct cl_api {
    gp_clGetPlatformIDs_fn platforms;
    gp_clGetPlatformInfo_fn platform_info;
    gp_clGetDeviceIDs_fn devices;
    gp_clGetDeviceInfo_fn device_info;
} cl_api;

static void cl_string(gp_cl_int rc, char *buf, size_t n)
{
    if (rc != 0) gp_copy(buf, n, "");
    buf[n - 1] = '\0';
}

static void cl_device(const cl_api *a, gp_cl_device_id d, const char *platform,
                      gp_doctor_opencl *cl)
{
    if (cl->device_count >= GP_DOCTOR_MAX_CL) return;
    gp_doctor_cl_device *x = &cl->devices[cl->device_count++];
    gp_copy(x->platform, sizeof x->platform, platform);
    cl_string(a->device_info(d, GP_CL_DEVICE_NAME, sizeof x->name, x->name, NULL), x->name,
              sizeof x->name);
    gp_cl_ulong type = 0, mem = 0;
    gp_cl_uint units = 0;
    if (a->device_info(d, GP_CL_DEVICE_TYPE, sizeof type, &type, NULL) != 0) type = 0;
    if (a->device_info(d, GP_CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL) != 0)
        units = 0;
    if (a->device_info(d, GP_CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL) != 0) mem = 0;
    gp_copy(x->type, sizeof x->type,
            type & 4   ? "gpu"
            : type & 2 ? "cpu"
            : type & 8 ? "accelerator"
                       : "other");
    x->compute_units = (int)units;
    x->memory_bytes = mem;
}

static void cl_enumerate(const cl_api *a, gp_doctor_opencl *cl)
{
    gp_cl_platform_id plats[8];
    gp_cl_uint np = 0;
    gp_cl_int rc = a->platforms(8, plats, &np);
    cl->enumerated = true;
    if (rc != 0) {
        /* -1001: the loader found no platform (CL_PLATFORM_NOT_FOUND_KHR) */
        snprintf(cl->error, sizeof cl->error, "clGetPlatformIDs returned %d%s", (int)rc,
                 rc == -1001 ? " (no OpenCL platform: no ICD loads)" : "");
        return;
    }
    if (np > 8) np = 8;
    cl->platform_count = (int)np;
    for (gp_cl_uint i = 0; i < np; i++) {
        char name[96] = "";
        cl_string(a->platform_info(plats[i], GP_CL_PLATFORM_NAME, sizeof name, name, NULL), name,
                  sizeof name);
        gp_cl_device_id devs[GP_DOCTOR_MAX_CL];
        gp_cl_uint nd = 0;
        if (a->devices(plats[i], GP_CL_DEVICE_TYPE_ALL, GP_DOCTOR_MAX_CL, devs, &nd) != 0) continue;
        if (nd > GP_DOCTOR_MAX_CL) nd = GP_DOCTOR_MAX_CL;
        for (gp_cl_uint k = 0; k < nd; k++)
            cl_device(a, devs[k], name, cl);
    }
}

void gp_probe_opencl(const gp_probe_ctx *c, gp_doctor_facts *f)
{
    gp_doctor_opencl *cl = &f->cl;
    DIR *d = gp_sysroot_opendir(&c->sr, "/etc/OpenCL/vendors");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l > 4 && strcmp(e->d_name + l - 4, ".icd") == 0) cl->icd_count++;
        }
        closedir(d);
    }
    if (f->platform == GP_DOCTOR_MACOS) return; /* Apple's OpenCL is deprecated; Metal instead */
    void *h = gp_probe_dlopen(c, "libOpenCL.so.1", &cl->loader);
    if (!h) return;
    cl_api a = {
        (gp_clGetPlatformIDs_fn)gp_dl_sym(h, "clGetPlatformIDs"),
        (gp_clGetPlatformInfo_fn)gp_dl_sym(h, "clGetPlatformInfo"),
        (gp_clGetDeviceIDs_fn)gp_dl_sym(h, "clGetDeviceIDs"),
        (gp_clGetDeviceInfo_fn)gp_dl_sym(h, "clGetDeviceInfo"),
    };
    if (!a.platforms || !a.platform_info || !a.devices || !a.device_info) {
        gp_copy(cl->loader.missing, sizeof cl->loader.missing,
                "clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs or clGetDeviceInfo");
        gp_dl_close(h);
        return;
    }
    if (c->deep || GP_OPENCL_ENUMERATE_BY_DEFAULT) cl_enumerate(&a, cl);
    /* Vendor drivers loaded by the ICD loader keep threads (PoCL's pthread device): leave the
     * loader mapped when it was used. */
    if (!cl->enumerated) gp_dl_close(h);
}
