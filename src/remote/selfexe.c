/* selfexe.c — see selfexe.h. /proc/self/exe on Linux, _NSGetExecutablePath on macOS. */
#include "remote/selfexe.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/proc.h"

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

char *gp_self_exe(void)
{
#if defined(__APPLE__)
    char buf[PATH_MAX];
    uint32_t size = sizeof buf;
    if (_NSGetExecutablePath(buf, &size) != 0) return NULL;
    return realpath(buf, NULL);
#else
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return NULL;
    buf[n] = '\0';
    return strdup(buf);
#endif
}

int gp_self_run(const char *tmpdir, char *const args[], size_t cap, char **out, size_t *out_len,
                char **errout, int *unknown, char *err, size_t errlen)
{
    *unknown = 0;
    char *self = gp_self_exe();
    if (!self) {
        snprintf(err, errlen, "cannot find the running gpuport executable");
        return -1;
    }
    gp_argv a = {0};
    gp_argv_push(&a, self);
    for (size_t i = 0; args[i]; i++)
        gp_argv_push(&a, args[i]);
    free(self);
    char *e = NULL;
    int code =
        a.failed ? -1 : gp_proc_capture(a.v, NULL, tmpdir, cap, out, out_len, &e, err, errlen);
    gp_argv_free(&a);
    if (code == 2 && e && strstr(e, "unknown command")) *unknown = 1;
    if (errout)
        *errout = e;
    else
        free(e);
    return code;
}
