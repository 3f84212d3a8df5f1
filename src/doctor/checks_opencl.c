/* checks_opencl.c — OpenCL: the ICD loader, the installed ICDs and, after --deep, the platforms
 * and devices the loader actually started. */
#include <stdio.h>
#include <string.h>

#include "doctor/checks.h"

void gp_check_opencl(const gp_doctor_facts *f, const gp_derived *d, gp_doctor_report *r)
{
    const gp_doctor_opencl *cl = &f->cl;
    (void)d;
    gp_check *c;
    if (f->platform == GP_DOCTOR_MACOS) {
        c = gp_report_add(r, "opencl", "opencl", GP_CHECK_SKIP);
        gp_check_observed(c, "Apple deprecated OpenCL; gpuport uses Metal on a Mac");
        return;
    }
    if (!cl->loader.loaded) {
        c = gp_report_add(r, "opencl", "opencl", GP_CHECK_INFO);
        gp_check_observed(c, "no OpenCL ICD loader (%s)", cl->loader.error);
        gp_check_expected(c, "libOpenCL.so.1 and an ICD, to use the OpenCL backend");
        return;
    }
    if (cl->loader.missing[0]) {
        c = gp_report_add(r, "opencl", "opencl", GP_CHECK_WARN);
        gp_check_observed(c, "libOpenCL.so.1 (%s) lacks %s",
                          cl->loader.path[0] ? cl->loader.path : "default search",
                          cl->loader.missing);
        gp_check_expected(c, "an OpenCL ICD loader");
        gp_check_fix(c, "%s ocl-icd-libopencl1", gp_fix_pkg_install(&f->os));
        return;
    }
    if (!cl->enumerated) {
        c = gp_report_add(r, "opencl", "opencl", cl->icd_count ? GP_CHECK_INFO : GP_CHECK_WARN);
        gp_check_observed(c,
                          "ICD loader present, %d ICD(s) in /etc/OpenCL/vendors; --deep starts "
                          "them and lists the devices",
                          cl->icd_count);
        gp_check_expected(c, "at least one ICD");
        if (!cl->icd_count)
            gp_check_fix(c, "%s pocl-opencl-icd (CPU) or your GPU vendor's ICD",
                         gp_fix_pkg_install(&f->os));
        return;
    }
    if (cl->device_count == 0) {
        c = gp_report_add(r, "opencl", "opencl", GP_CHECK_WARN);
        gp_check_observed(c, "the ICD loader finds no device%s%s", cl->error[0] ? ": " : "",
                          cl->error);
        gp_check_expected(c, "at least one OpenCL device");
        gp_check_fix(c, "%s pocl-opencl-icd (CPU) or your GPU vendor's ICD",
                     gp_fix_pkg_install(&f->os));
        return;
    }
    c = gp_report_add(r, "opencl", "opencl", GP_CHECK_PASS);
    char list[600] = "";
    size_t used = 0;
    for (int i = 0; i < cl->device_count; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s: %s (%s, %d compute units)",
                         i ? "; " : "", cl->devices[i].platform, cl->devices[i].name,
                         cl->devices[i].type, cl->devices[i].compute_units);
        if (w < 0 || (size_t)w >= sizeof list - used) break;
        used += (size_t)w;
    }
    gp_check_observed(c, "%d platform(s): %s", cl->platform_count, list);
    gp_check_expected(c, "at least one OpenCL device");
}
