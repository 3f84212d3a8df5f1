/* proc.c — see proc.h. Polling waitpid (backing off to 20 Hz) instead of blocking keeps signal
 * handling free of races (a signal landing just before a blocking wait would be missed). */
#include "remote/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fs.h"

extern char **environ;

/* The one piece of process-wide state: which signal asked us to stop (written only by the
 * handler, read by the waits). */
static volatile sig_atomic_t proc_signal;

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

static void proc_on_signal(int sig)
{
    proc_signal = sig;
}

void gp_proc_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = proc_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A closed pipe to a child must be an error value, not the end of gpuport. */
    signal(SIGPIPE, SIG_IGN);
}

int gp_proc_interrupted(void)
{
    return (int)proc_signal;
}

int gp_proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid, char *err,
                  size_t errlen)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int fds[3] = {in_fd, out_fd, err_fd};
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0 && fds[i] != i) posix_spawn_file_actions_adddup2(&fa, fds[i], i);
    /* The child starts with default signal dispositions: our handlers are not inherited by
     * exec anyway, but an ignored SIGPIPE would be. */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    int rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", argv[0], strerror(rc));
        return -1;
    }
    return 0;
}

static double proc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int proc_status_code(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 255;
}

int gp_proc_wait(pid_t pid, int *stdin_w, double grace_s)
{
    int status = 0;
    double stop_at = 0; /* when the current stage of stopping gives up */
    int stage = 0;      /* 0 running, 1 stdin closed, 2 SIGTERM sent, 3 SIGKILL sent */
    long nap_ns = 500 * 1000;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return proc_status_code(status);
        if (r < 0 && errno != EINTR) return 255;
        if (proc_signal && stage == 0) {
            if (stdin_w && *stdin_w >= 0) {
                close(*stdin_w);
                *stdin_w = -1;
            }
            stage = 1;
            stop_at = proc_now() + grace_s;
        } else if (stage > 0 && stage < 3 && proc_now() > stop_at) {
            kill(pid, stage == 1 ? SIGTERM : SIGKILL);
            stage++;
            stop_at = proc_now() + 2.0;
        }
        /* Quick children are reaped within a millisecond or two; long ones cost 20 wake-ups a
         * second. */
        struct timespec ts = {0, nap_ns};
        nanosleep(&ts, NULL);
        if (nap_ns < 50 * 1000 * 1000) nap_ns *= 2;
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
    int in = open(in_path ? in_path : "/dev/null", O_RDONLY | O_CLOEXEC);
    int fo = proc_tmpfile(tmpdir, p1, sizeof p1);
    int fe = proc_tmpfile(tmpdir, p2, sizeof p2);
    int code = -1;
    pid_t pid;
    if (in < 0 || fo < 0 || fe < 0) {
        snprintf(err, errlen, "%s: %s", in < 0 && in_path ? in_path : tmpdir, strerror(errno));
    } else if (gp_proc_spawn(argv, in, fo, fe, &pid, err, errlen) == 0) {
        code = gp_proc_wait(pid, NULL, 2.0);
        if (out) *out = proc_slurp(fo, cap, out_len);
        if (errout) *errout = proc_slurp(fe, cap, NULL);
    }
    if (in >= 0) close(in);
    if (fo >= 0) close(fo);
    if (fe >= 0) close(fe);
    return code;
}
