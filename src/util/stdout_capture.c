/* stdout_capture.c — fd 1 pointed at an unlinked temporary file for a while, then read back
 * (stdout_capture.h). */
#include <stdio.h>
#include <stdlib.h>

#include "util/stdout_capture.h"

#ifndef _WIN32
#include <unistd.h>
#endif

void gp_stdout_capture_begin(gp_stdout_capture *c)
{
    c->saved = -1;
    c->file = -1;
#ifndef _WIN32
    FILE *tmp = tmpfile();
    if (!tmp) return;
    c->file = dup(fileno(tmp));
    fclose(tmp);
    if (c->file < 0) return;
    fflush(stdout);
    c->saved = dup(1);
    if (c->saved >= 0 && dup2(c->file, 1) >= 0) return;
    if (c->saved >= 0) close(c->saved);
    close(c->file);
    c->saved = c->file = -1;
#endif
}

char *gp_stdout_capture_end(gp_stdout_capture *c, size_t cap)
{
#ifndef _WIN32
    if (c->saved < 0) return NULL;
    fflush(stdout);
    dup2(c->saved, 1);
    close(c->saved);
    c->saved = -1;
    char *out = malloc(cap + 1);
    size_t len = 0;
    ssize_t n = 0;
    while (out && len < cap && (n = pread(c->file, out + len, cap - len, (off_t)len)) > 0)
        len += (size_t)n;
    close(c->file);
    c->file = -1;
    if (out) out[len] = '\0';
    return out;
#else
    (void)c;
    (void)cap;
    return NULL;
#endif
}
