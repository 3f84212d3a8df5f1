/* dynlib_posix.c — see dynlib.h: the dlopen side. */
#if !defined(_WIN32)
/* dladdr */
#define _GNU_SOURCE 1
#include "util/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

#include "util/thread.h"

static GP_THREAD_LOCAL char gp_dl_last[1024];

#if defined(__APPLE__)
const char gp_dl_prefix[] = "lib";
const char gp_dl_suffix[] = "dylib";
#else
const char gp_dl_prefix[] = "lib";
const char gp_dl_suffix[] = "so";
#endif

static void gp_dl_note(void)
{
    const char *e = dlerror();
    snprintf(gp_dl_last, sizeof gp_dl_last, "%s", e ? e : "unknown dynamic loader error");
}

void *gp_dl_open(const char *name)
{
    dlerror();
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) gp_dl_note();
    return h;
}

void *gp_dl_sym(void *lib, const char *symbol)
{
    dlerror();
    void *p = dlsym(lib, symbol);
    if (!p) gp_dl_note();
    return p;
}

void gp_dl_close(void *lib)
{
    if (lib) dlclose(lib);
}

const char *gp_dl_error(void)
{
    return gp_dl_last;
}

int gp_dl_path_of(const void *addr, char *buf, size_t cap)
{
    Dl_info info;
    if (!addr || !dladdr(addr, &info) || !info.dli_fname || !info.dli_fname[0]) return -1;
    snprintf(buf, cap, "%s", info.dli_fname);
    return 0;
}
#endif
