/* probe.c — gp_doctor_probe(): sets up the root and the driver search path, then runs each
 * probe in turn. The order matters only where a later probe reads an earlier one's facts
 * (the toolkit probe uses the GPUs found, to know which libraries to look for). */
#include "doctor/probe.h"

#include "doctor/doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

#include "util/dynlib.h"

void *gp_probe_dlopen(const gp_probe_ctx *c, const char *soname, gp_doctor_lib *lib)
{
    memset(lib, 0, sizeof *lib);
    const char *s = c->driver_path;
    while (*s) {
        size_t l = strcspn(s, ":");
        if (l > 0) {
            char p[GP_DOCTOR_PATH];
            int w = snprintf(p, sizeof p, "%.*s/%s", (int)l, s, soname);
            if (w > 0 && (size_t)w < sizeof p) {
                /* dlopen would block on a FIFO: only a regular file is handed to it */
                char why[GP_DOCTOR_PATH + 96];
                struct stat st;
                int fd = gp_open_regular(p, 0, NULL, why, sizeof why);
                if (fd < 0 && stat(p, &st) == 0 && !S_ISREG(st.st_mode)) {
                    gp_copy(lib->error, sizeof lib->error, why);
                    gp_copy(lib->path, sizeof lib->path, p);
                    return NULL;
                }
                if (fd >= 0) {
                    close(fd);
                    void *h = gp_dl_open(p);
                    if (h) {
                        lib->loaded = true;
                        gp_copy(lib->path, sizeof lib->path, p);
                        return h;
                    }
                    const char *e = gp_dl_error();
                    gp_copy(lib->error, sizeof lib->error, e ? e : "dlopen failed");
                    gp_copy(lib->path, sizeof lib->path, p);
                    return NULL;
                }
            }
        }
        s += l;
        if (*s == ':') s++;
    }
    if (!c->sr.host) {
        snprintf(lib->error, sizeof lib->error, "%s: not found in the driver search path", soname);
        return NULL;
    }
    void *h = gp_dl_open(soname);
    if (h) {
        lib->loaded = true;
        return h;
    }
    const char *e = gp_dl_error();
    gp_copy(lib->error, sizeof lib->error, e ? e : "dlopen failed");
    return NULL;
}

void gp_probe_platform(const gp_probe_ctx *c, gp_doctor_facts *f)
{
#if defined(__APPLE__)
    if (c->sr.host) {
        gp_probe_macos(c, f);
        return;
    }
#endif
    gp_probe_linux(c, f);
}

bool gp_doctor_probe(const gp_doctor_options *o, gp_doctor_facts *f)
{
    memset(f, 0, sizeof *f);
    gp_probe_ctx *c = calloc(1, sizeof *c);
    if (!c) return false;
    const char *root = o && o->root ? o->root : getenv("GPUPORT_SYSROOT");
    if (!gp_sysroot_init(&c->sr, root)) {
        free(c);
        return false;
    }
    c->deep = o && o->deep;
    const char *dp = o && o->driver_path ? o->driver_path : getenv("GPUPORT_DRIVER_PATH");
    gp_copy(c->driver_path, sizeof c->driver_path, dp);
    gp_copy(f->root, sizeof f->root, c->sr.host ? "/" : c->sr.root);

    if (gp_probe_is_windows(c)) {
        gp_probe_windows(c, f);
        free(c);
        return true;
    }
    gp_probe_platform(c, f);
    gp_probe_nvidia_libs(c, f);
    gp_probe_toolkit(c, f);
    gp_probe_python(c, f);
    gp_probe_opencl(c, f);
    free(c);
    return true;
}
