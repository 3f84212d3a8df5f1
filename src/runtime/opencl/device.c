/*
 * device.c — enumerates OpenCL platforms and devices and reads their facts. String facts of
 * any length are read whole and truncated into fixed fields, so that a driver with a long
 * name cannot make an info query fail.
 */
#include "runtime/opencl/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/errors.h"

/* One query shape for platform and device facts (the object is one or the other). */
typedef struct gp_cl_object {
    const gp_cl_api *api;
    cl_platform_id platform; /* set for a platform fact */
    cl_device_id device;     /* set for a device fact */
} gp_cl_object;

static cl_int gp_cl_object_info(gp_cl_object o, cl_uint param, size_t size, void *value,
                                size_t *size_ret)
{
    if (o.platform) return o.api->clGetPlatformInfo(o.platform, param, size, value, size_ret);
    return o.api->clGetDeviceInfo(o.device, param, size, value, size_ret);
}

/* Reads a string fact whole into a heap buffer (free() it). NULL with *err set on failure. */
static char *gp_cl_string_fact(gp_cl_object o, cl_uint param, cl_int *err)
{
    size_t size = 0;
    *err = gp_cl_object_info(o, param, 0, NULL, &size);
    if (*err != CL_SUCCESS) return NULL;
    char *s = calloc(size + 1, 1);
    if (!s) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    *err = gp_cl_object_info(o, param, size, s, NULL);
    if (*err != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

static cl_int gp_cl_string_into(gp_cl_object o, cl_uint param, char *dst, size_t cap)
{
    cl_int err;
    char *s = gp_cl_string_fact(o, param, &err);
    if (!s) return err;
    /* Drivers pad some strings with trailing spaces; trim them for display. */
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    snprintf(dst, cap, "%s", s);
    free(s);
    return CL_SUCCESS;
}

bool gp_cl_has_extension(const char *extensions, const char *name)
{
    size_t n = strlen(name);
    if (!extensions || !n) return false;
    for (const char *p = extensions; (p = strstr(p, name)) != NULL; p += n) {
        bool starts = p == extensions || p[-1] == ' ';
        bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

static cl_int gp_cl_device_scalar(const gp_cl_api *api, cl_device_id d, cl_device_info p, void *v,
                                  size_t size)
{
    return api->clGetDeviceInfo(d, p, size, v, NULL);
}

/* OpenCL 1.2 has no device-wide SIMD width; two vendor extensions report it, and on a CPU
 * device the preferred float vector width is what the compiler vectorises work-items to. */
static uint32_t gp_cl_simd_width(const gp_cl_api *api, cl_device_id d, cl_device_type type,
                                 const char *ext)
{
    cl_uint w = 0;
    if (gp_cl_has_extension(ext, "cl_nv_device_attribute_query") &&
        gp_cl_device_scalar(api, d, CL_DEVICE_WARP_SIZE_NV, &w, sizeof w) == CL_SUCCESS)
        return w;
    if (gp_cl_has_extension(ext, "cl_amd_device_attribute_query") &&
        gp_cl_device_scalar(api, d, CL_DEVICE_WAVEFRONT_WIDTH_AMD, &w, sizeof w) == CL_SUCCESS)
        return w;
    if ((type & CL_DEVICE_TYPE_CPU) &&
        gp_cl_device_scalar(api, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, &w, sizeof w) ==
            CL_SUCCESS)
        return w;
    return 0;
}

static cl_int gp_cl_device_strings(const gp_cl_api *api, cl_device_id d, gp_cl_device_info *info)
{
    cl_int err;
    gp_cl_object dev = {api, NULL, d};
    struct {
        cl_uint param;
        char *dst;
        size_t cap;
    } fields[] = {
        {CL_DEVICE_NAME, info->name, sizeof info->name},
        {CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor},
        {CL_DRIVER_VERSION, info->driver_version, sizeof info->driver_version},
        {CL_DEVICE_VERSION, info->device_version, sizeof info->device_version},
        {CL_DEVICE_OPENCL_C_VERSION, info->c_version, sizeof info->c_version},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        err = gp_cl_string_into(dev, fields[i].param, fields[i].dst, fields[i].cap);
        if (err != CL_SUCCESS) return err;
    }
    char *ext = gp_cl_string_fact(dev, CL_DEVICE_EXTENSIONS, &err);
    if (!ext) return err;
    cl_device_fp_config dbl = 0;
    /* CL_DEVICE_DOUBLE_FP_CONFIG is optional before 1.2 on some drivers: a failure means 0. */
    if (gp_cl_device_scalar(api, d, CL_DEVICE_DOUBLE_FP_CONFIG, &dbl, sizeof dbl) != CL_SUCCESS)
        dbl = 0;
    info->fp64 = gp_cl_has_extension(ext, "cl_khr_fp64") || dbl != 0;
    info->atomic64 = gp_cl_has_extension(ext, "cl_khr_int64_base_atomics") &&
                     gp_cl_has_extension(ext, "cl_khr_int64_extended_atomics");
    info->fp16 = gp_cl_has_extension(ext, "cl_khr_fp16");
    info->simd_width = gp_cl_simd_width(api, d, info->type, ext);
    free(ext);
    return CL_SUCCESS;
}

static cl_int gp_cl_device_numbers(const gp_cl_api *api, cl_device_id d, gp_cl_device_info *info)
{
    cl_ulong global = 0, alloc = 0, local = 0;
    cl_uint units = 0, clock = 0, dims = 0;
    cl_bool unified = CL_FALSE, available = CL_FALSE, compiler = CL_FALSE;
    size_t group = 0;
    struct {
        cl_uint param;
        void *v;
        size_t size;
    } fields[] = {
        {CL_DEVICE_TYPE, &info->type, sizeof info->type},
        {CL_DEVICE_GLOBAL_MEM_SIZE, &global, sizeof global},
        {CL_DEVICE_MAX_MEM_ALLOC_SIZE, &alloc, sizeof alloc},
        {CL_DEVICE_LOCAL_MEM_SIZE, &local, sizeof local},
        {CL_DEVICE_MAX_COMPUTE_UNITS, &units, sizeof units},
        {CL_DEVICE_MAX_CLOCK_FREQUENCY, &clock, sizeof clock},
        {CL_DEVICE_MAX_WORK_GROUP_SIZE, &group, sizeof group},
        {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, &dims, sizeof dims},
        {CL_DEVICE_HOST_UNIFIED_MEMORY, &unified, sizeof unified},
        {CL_DEVICE_AVAILABLE, &available, sizeof available},
        {CL_DEVICE_COMPILER_AVAILABLE, &compiler, sizeof compiler},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        cl_int err = gp_cl_device_scalar(api, d, fields[i].param, fields[i].v, fields[i].size);
        if (err != CL_SUCCESS) return err;
    }
    info->global_mem_bytes = global;
    info->max_alloc_bytes = alloc;
    info->local_mem_bytes = local;
    info->compute_units = units;
    info->clock_mhz = clock;
    info->max_group_size = group;
    info->max_dims = dims > 3 ? 3 : dims;
    info->unified_memory = unified != CL_FALSE;
    info->available = available != CL_FALSE;
    info->compiler_available = compiler != CL_FALSE;
    /* The item sizes come as one size_t per dimension the device has (possibly more than 3). */
    size_t sizes[16] = {0};
    size_t want = (dims > 16 ? 16 : dims) * sizeof(size_t);
    if (want) {
        cl_int err = api->clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, want, sizes, NULL);
        if (err != CL_SUCCESS) return err;
    }
    for (unsigned i = 0; i < 3; i++)
        info->max_item_sizes[i] = i < info->max_dims ? sizes[i] : 1;
    return CL_SUCCESS;
}

cl_int gp_cl_device_info_query(const gp_cl_api *api, cl_platform_id platform, cl_device_id device,
                               gp_cl_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->platform = platform;
    info->device = device;
    struct {
        cl_uint param;
        char *dst;
        size_t cap;
    } fields[] = {
        {CL_PLATFORM_NAME, info->platform_name, sizeof info->platform_name},
        {CL_PLATFORM_VENDOR, info->platform_vendor, sizeof info->platform_vendor},
        {CL_PLATFORM_VERSION, info->platform_version, sizeof info->platform_version},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        gp_cl_object plat = {api, platform, NULL};
        cl_int err = gp_cl_string_into(plat, fields[i].param, fields[i].dst, fields[i].cap);
        if (err != CL_SUCCESS) return err;
    }
    /* numbers first: the SIMD width read with the strings depends on the device type */
    cl_int err = gp_cl_device_numbers(api, device, info);
    if (err == CL_SUCCESS) err = gp_cl_device_strings(api, device, info);
    return err;
}

/* Where the ICD loader looks for drivers, for the "no platform" reason. */
static const char *gp_cl_vendor_dir(void)
{
    const char *env = getenv("OCL_ICD_VENDORS");
    return env && *env ? env : "/etc/OpenCL/vendors";
}

/* Appends the devices of one platform to *list. CL_DEVICE_NOT_FOUND counts as none. */
static cl_int gp_cl_platform_devices(const gp_cl_api *api, cl_platform_id p, unsigned index,
                                     gp_cl_device_info **list, size_t *count)
{
    cl_uint n = 0;
    cl_int err = api->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && n == 0)) return CL_SUCCESS;
    if (err != CL_SUCCESS) return err;
    cl_device_id *ids = calloc(n, sizeof *ids);
    gp_cl_device_info *grown = realloc(*list, (*count + n) * sizeof **list);
    if (!ids || !grown) {
        free(ids);
        return CL_OUT_OF_HOST_MEMORY;
    }
    *list = grown;
    err = api->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids, NULL);
    for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++) {
        err = gp_cl_device_info_query(api, p, ids[i], &grown[*count]);
        grown[*count].platform_index = index;
        if (err == CL_SUCCESS) (*count)++;
    }
    free(ids);
    return err;
}

gp_cl_enum_result gp_cl_devices_enumerate(const gp_cl_api *api, gp_cl_device_info **out,
                                          size_t *count, char *why, size_t whylen, cl_int *cl_err)
{
    *out = NULL;
    *count = 0;
    cl_uint np = 0;
    cl_int err = api->clGetPlatformIDs(0, NULL, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0)) {
        snprintf(why, whylen,
                 "no OpenCL platform: the ICD loader %s found no driver in %s; install one "
                 "(Debian/Ubuntu: pocl-opencl-icd, or the GPU vendor's OpenCL driver)",
                 api->path, gp_cl_vendor_dir());
        return GP_CL_ENUM_NO_PLATFORM;
    }
    cl_platform_id *ps = err == CL_SUCCESS ? calloc(np, sizeof *ps) : NULL;
    if (err == CL_SUCCESS && !ps) err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS) err = api->clGetPlatformIDs(np, ps, NULL);
    gp_cl_device_info *list = NULL;
    size_t n = 0;
    for (cl_uint i = 0; err == CL_SUCCESS && i < np; i++)
        err = gp_cl_platform_devices(api, ps[i], i, &list, &n);
    free(ps);
    if (cl_err) *cl_err = err;
    if (err != CL_SUCCESS) {
        free(list);
        snprintf(why, whylen, "OpenCL enumeration failed: %s (%d): %s", gp_cl_error_name(err),
                 (int)err, gp_cl_error_fix(err));
        return GP_CL_ENUM_ERROR;
    }
    if (n == 0) {
        free(list);
        snprintf(why, whylen,
                 "no OpenCL device: %u platform%s found but no device in any (the driver may "
                 "lack support for this hardware, or a variable such as POCL_DEVICES hides it)",
                 (unsigned)np, np == 1 ? "" : "s");
        return GP_CL_ENUM_NO_DEVICE;
    }
    *out = list;
    *count = n;
    return GP_CL_ENUM_OK;
}
