/* proc.c — see proc.h. Polling the child (backing off to 20 Hz) instead of blocking keeps signal
 * handling free of races (a signal landing just before a blocking wait would be missed). The
 * platform's part (starting, polling, stopping, Ctrl-C) is util/spawn's. */
#include "remote/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <unistd.h>
#endif

#include "util/fs.h"
#include "util/spawn.h"
#include "util/sys.h"

void gp_argv_push(gp_argv *a, const char *s)
{
    if (a->failed) return;
    if (a->n + 2 > a->cap) {
        size_t c = a->cap ? a->cap * 2 : 16;
        char **v = realloc(a->v, c * sizeof *v);
        if (!v) {
            a->failed = true;
            return;
        }
        a->v = v;
        a->cap = c;
    }
    char *d = strdup(s);
    if (!d) {
        a->failed = true;
        return;
    }
    a->v[a->n++] = d;
    a->v[a->n] = NULL;
}

void gp_argv_pushf(gp_argv *a, const char *fmt, ...)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    gp_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    if (sb.failed)
        a->failed = true;
    else
        gp_argv_push(a, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
}

void gp_argv_free(gp_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

void gp_proc_interrupt_install(void)
{
    gp_interrupt_install();
}

int gp_proc_interrupted(void)
{
    return gp_interrupted();
}

int gp_proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid, char *err,
                  size_t errlen)
{
    int fds[3] = {in_fd, out_fd, err_fd};
    long p = 0;
    if (gp_spawn_fds(argv, fds, &p, err, errlen) != 0) return -1;
    *pid = (pid_t)p;
    return 0;
}

int gp_proc_wait(pid_t pid, int *stdin_w, double grace_s)
{
    double stop_at = 0; /* when the current stage of stopping gives up */
    int stage = 0;      /* 0 running, 1 stdin closed, 2 asked to stop, 3 ended hard */
    unsigned nap_us = 500;
    for (;;) {
        int code;
        int r = gp_spawn_poll((long)pid, &code);
        if (r == 1) return code;
        if (r < 0) return 255;
        if (gp_interrupted() && stage == 0) {
            if (stdin_w && *stdin_w >= 0) {
                close(*stdin_w);
                *stdin_w = -1;
            }
            stage = 1;
            stop_at = gp_monotonic_s() + grace_s;
        } else if (stage > 0 && stage < 3 && gp_monotonic_s() > stop_at) {
            gp_spawn_stop((long)pid, stage == 2);
            stage++;
            stop_at = gp_monotonic_s() + 2.0;
        }
        /* Quick children are reaped within a millisecond or two; long ones cost 20 wake-ups a
         * second. */
        gp_sleep_us(nap_us);
        if (nap_us < 50 * 1000) nap_us *= 2;
    }
}

static int proc_tmpfile(const char *dir, char *path, size_t len)
{
    snprintf(path, len, "%s/cap-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0) {
        unlink(path);
        /* Only the child's stdout/stderr copies may outlive the spawn (an ssh master that
         * daemonizes would otherwise keep these descriptors open). */
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    return fd;
}

static char *proc_slurp(int fd, size_t cap, size_t *len)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    char buf[8192];
    lseek(fd, 0, SEEK_SET);
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0 && sb.len < cap)
        gp_strbuf_append(&sb, buf, (size_t)r > cap - sb.len ? cap - sb.len : (size_t)r);
    if (len) *len = sb.len;
    char *s = gp_strbuf_take(&sb);
    return s ? s : calloc(1, 1);
}

int gp_proc_capture(char *const argv[], const char *in_path, const char *tmpdir, size_t cap,
                    char **out, size_t *out_len, char **errout, char *err, size_t errlen)
{
    char p1[4096], p2[4096];
    int in = open(in_path ? in_path : GP_DEV_NULL, O_RDONLY | O_CLOEXEC);
    int fo = proc_tmpfile(tmpdir, p1, sizeof p1);
    int fe = proc_tmpfile(tmpdir, p2, sizeof p2);
    int code = -1;
    pid_t pid;
    if (in < 0 || fo < 0 || fe < 0) {
        snprintf(err, errlen, "%s: %s", in < 0 && in_path ? in_path : tmpdir, strerror(errno));
    } else if (gp_proc_spawn(argv, in, fo, fe, &pid, err, errlen) == 0) {
        code = gp_proc_wait(pid, NULL, 0.2); /* no stdin to close: stop it soon after Ctrl-C */
        if (out) *out = proc_slurp(fo, cap, out_len);
        if (errout) *errout = proc_slurp(fe, cap, NULL);
    }
    if (in >= 0) close(in);
    if (fo >= 0) close(fo);
    if (fe >= 0) close(fe);
    return code;
}
