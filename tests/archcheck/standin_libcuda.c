/* standin_libcuda.c — a stand-in for the CUDA driver (libcuda.so.1), built only for the tests,
 * because no GPU is here: it answers the few entry points `archcheck --device` calls with the
 * devices named in GPUPORT_STANDIN_CCS ("8.6,12.0"); an empty list means no GPU, and
 * GPUPORT_STANDIN_INIT_FAIL=1 makes cuInit fail as it does without the kernel module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuInit(unsigned flags);
int cuDriverGetVersion(int *v);
int cuDeviceGetCount(int *n);
int cuDeviceGet(int *dev, int ordinal);
int cuDeviceGetAttribute(int *value, int attr, int dev);
int cuDeviceGetName(char *name, int len, int dev);

static int standin_cc(int index, int *major, int *minor)
{
    const char *s = getenv("GPUPORT_STANDIN_CCS");
    for (int i = 0; s && *s; i++) {
        int a = 0, b = 0;
        if (sscanf(s, "%d.%d", &a, &b) != 2) return -1;
        if (i == index) {
            *major = a;
            *minor = b;
            return 0;
        }
        s = strchr(s, ',');
        if (s) s++;
    }
    return -1;
}

int cuInit(unsigned flags)
{
    (void)flags;
    const char *f = getenv("GPUPORT_STANDIN_INIT_FAIL");
    return f && *f == '1' ? 100 : 0; /* 100: CUDA_ERROR_NO_DEVICE */
}

int cuDriverGetVersion(int *v)
{
    *v = 13000;
    return 0;
}

int cuDeviceGetCount(int *n)
{
    int a, b;
    *n = 0;
    while (standin_cc(*n, &a, &b) == 0)
        ++*n;
    return 0;
}

int cuDeviceGet(int *dev, int ordinal)
{
    *dev = ordinal;
    return 0;
}

int cuDeviceGetAttribute(int *value, int attr, int dev)
{
    int major, minor;
    if (standin_cc(dev, &major, &minor) != 0) return 101; /* CUDA_ERROR_INVALID_DEVICE */
    if (attr == 75)
        *value = major;
    else if (attr == 76)
        *value = minor;
    else
        return 1;
    return 0;
}

int cuDeviceGetName(char *name, int len, int dev)
{
    snprintf(name, (size_t)len, "Stand-in GPU %d", dev);
    return 0;
}
