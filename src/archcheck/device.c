/* device.c — the compute capabilities of this machine's GPUs, asked of the CUDA driver
 * (libcuda.so.1) loaded at run time. The few driver entry points are declared here, so that
 * nothing of CUDA is needed to build gpuport. */
#include "util/dynlib.h"
#include <stdio.h>
#include <string.h>

#include "archcheck/archcheck.h"

typedef int ac_cu_result;
typedef int ac_cu_device;
enum { AC_CU_ATTR_CC_MAJOR = 75, AC_CU_ATTR_CC_MINOR = 76 };

typedef ac_cu_result (*ac_cu_init_fn)(unsigned flags);
typedef ac_cu_result (*ac_cu_driver_version_fn)(int *version);
typedef ac_cu_result (*ac_cu_device_count_fn)(int *count);
typedef ac_cu_result (*ac_cu_device_get_fn)(ac_cu_device *dev, int ordinal);
typedef ac_cu_result (*ac_cu_device_attr_fn)(int *value, int attr, ac_cu_device dev);
typedef ac_cu_result (*ac_cu_device_name_fn)(char *name, int len, ac_cu_device dev);

int gp_ac_device_query(gp_cc *ccs, char (*names)[128], int max, int *driver_cuda, char *err,
                       size_t errlen)
{
    const char *lib = "libcuda.so.1";
    void *h = gp_dl_open(lib);
    if (!h) {
        snprintf(err, errlen, "no NVIDIA driver on this machine (%s cannot be loaded: %s)", lib,
                 gp_dl_error());
        return -1;
    }
    ac_cu_init_fn cu_init = (ac_cu_init_fn)gp_dl_sym(h, "cuInit");
    ac_cu_driver_version_fn cu_ver = (ac_cu_driver_version_fn)gp_dl_sym(h, "cuDriverGetVersion");
    ac_cu_device_count_fn cu_count = (ac_cu_device_count_fn)gp_dl_sym(h, "cuDeviceGetCount");
    ac_cu_device_get_fn cu_get = (ac_cu_device_get_fn)gp_dl_sym(h, "cuDeviceGet");
    ac_cu_device_attr_fn cu_attr = (ac_cu_device_attr_fn)gp_dl_sym(h, "cuDeviceGetAttribute");
    ac_cu_device_name_fn cu_name = (ac_cu_device_name_fn)gp_dl_sym(h, "cuDeviceGetName");
    int n = -1;
    if (!cu_init || !cu_count || !cu_get || !cu_attr) {
        snprintf(err, errlen, "%s lacks the driver entry points archcheck needs", lib);
    } else if (cu_init(0) != 0) {
        snprintf(err, errlen,
                 "the CUDA driver did not start (cuInit failed): no usable GPU, or "
                 "the kernel module is not loaded");
    } else if (cu_count(&n) != 0 || n < 0) {
        snprintf(err, errlen, "the CUDA driver cannot count its devices");
        n = -1;
    } else if (n == 0) {
        snprintf(err, errlen, "the CUDA driver sees no GPU on this machine");
        n = -1;
    } else {
        int v = 0;
        if (driver_cuda && cu_ver && cu_ver(&v) == 0) *driver_cuda = v / 1000 * 10 + v % 1000 / 10;
        if (n > max) n = max;
        for (int i = 0; i < n; i++) {
            ac_cu_device d = 0;
            int maj = 0, min = 0;
            if (cu_get(&d, i) != 0 || cu_attr(&maj, AC_CU_ATTR_CC_MAJOR, d) != 0 ||
                cu_attr(&min, AC_CU_ATTR_CC_MINOR, d) != 0) {
                snprintf(err, errlen, "the CUDA driver cannot describe device %d", i);
                n = -1;
                break;
            }
            ccs[i] = GP_CC(maj, min);
            names[i][0] = '\0';
            if (cu_name) cu_name(names[i], 128, d);
            names[i][127] = '\0';
        }
    }
    gp_dl_close(h);
    return n;
}
