/* stderr_capture.c — see stderr_capture.h. */
#include "util/stderr_capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sys.h"
#include "util/thread.h"

#if defined(_WIN32)
/* Windows: a vendor DLL writes to the stderr of its own C runtime (each DLL may have its own),
 * which pointing this runtime's file descriptor 2 elsewhere does not reach. Nothing is captured:
 * what the library says goes to stderr as it is, beside gpuport's message. */
void gp_stderr_capture_begin(gp_stderr_capture *c)
{
    c->saved = c->file = -1;
    c->locked = false;
}

char *gp_stderr_capture_end(gp_stderr_capture *c, size_t cap)
{
    (void)cap;
    c->saved = c->file = -1;
    return NULL;
}
#else
static gp_mutex capture_lock = GP_MUTEX_INIT;

void gp_stderr_capture_begin(gp_stderr_capture *c)
{
    c->saved = c->file = -1;
    gp_mutex_lock(&capture_lock);
    c->locked = true;
    char path[1024];
    snprintf(path, sizeof path, "%s/gpuport-stderr-XXXXXX", gp_tmp_dir());
    int f = mkstemp(path);
    if (f < 0) return;
    unlink(path);
    fflush(stderr);
    int saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (saved < 0 || dup2(f, 2) < 0) {
        if (saved >= 0) close(saved);
        close(f);
        return;
    }
    c->saved = saved;
    c->file = f;
}

char *gp_stderr_capture_end(gp_stderr_capture *c, size_t cap)
{
    char *text = NULL;
    if (c->saved >= 0) {
        fflush(stderr);
        dup2(c->saved, 2);
        close(c->saved);
        off_t size = lseek(c->file, 0, SEEK_END);
        size_t n = size > 0 ? (size_t)size : 0;
        if (n > cap) n = cap;
        text = malloc(n + 1);
        size_t got = 0;
        if (text && lseek(c->file, 0, SEEK_SET) == 0) {
            while (got < n) {
                ssize_t k = read(c->file, text + got, n - got);
                if (k <= 0) break;
                got += (size_t)k;
            }
        }
        if (text) text[got] = '\0';
        close(c->file);
    }
    c->saved = c->file = -1;
    if (c->locked) gp_mutex_unlock(&capture_lock);
    c->locked = false;
    return text;
}

#endif

void gp_stderr_capture_replay(const char *text,
                              bool (*drop)(const char *line, size_t len, void *ctx), void *ctx)
{
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (!drop || !drop(p, len, ctx)) {
            fwrite(p, 1, len, stderr);
            fputc('\n', stderr);
        }
        p += len + (nl ? 1 : 0);
    }
    fflush(stderr);
}
