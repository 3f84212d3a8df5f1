/* spawn.c — see spawn.h. One poll loop drains both pipes so a chatty child never blocks.
 * (Windows: spawn_win.c.) */
#if !defined(_WIN32)
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct sink {
    char *buf;
    size_t len, cap, limit;
} sink;

static void sink_add(sink *s, const char *p, size_t n)
{
    if (s->len >= s->limit) return;
    if (n > s->limit - s->len) n = s->limit - s->len;
    if (s->len + n + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 1024;
        while (c < s->len + n + 1)
            c *= 2;
        char *q = realloc(s->buf, c);
        if (!q) return;
        s->buf = q;
        s->cap = c;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

int gp_spawn_capture(char *const argv[], char *const envp[], double timeout_s, size_t cap,
                     gp_spawn_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    if (pipe(po) != 0 || pipe(pe) != 0) {
        snprintf(err, errlen, "%s: pipe: %s", argv[0], strerror(errno));
        if (po[0] >= 0) close(po[0]), close(po[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", argv[0], strerror(rc));
        close(po[0]);
        close(pe[0]);
        return -1;
    }
    sink so = {NULL, 0, 0, cap}, se = {NULL, 0, 0, cap};
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2;
    double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
    char buf[8192];
    while (open_fds > 0) {
        int wait_ms = -1;
        if (deadline > 0) {
            double left = deadline - now_s();
            if (left <= 0) {
                res->timed_out = true;
                kill(pid, SIGKILL);
                break;
            }
            wait_ms = (int)(left * 1000) + 1;
        }
        int n = poll(fds, 2, wait_ms);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t r = read(fds[i].fd, buf, sizeof buf);
            if (r > 0) {
                sink_add(i == 0 ? &so : &se, buf, (size_t)r);
            } else if (r == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        res->exit_code = WEXITSTATUS(status);
    } else {
        res->exit_code = -1;
        res->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    res->out = so.buf ? so.buf : calloc(1, 1);
    res->out_len = so.len;
    res->err = se.buf ? se.buf : calloc(1, 1);
    res->err_len = se.len;
    return 0;
}

void gp_spawn_result_free(gp_spawn_result *res)
{
    free(res->out);
    free(res->err);
    res->out = res->err = NULL;
}

int gp_spawn_fds(char *const argv[], const int fds[3], long *pid, char *err, size_t errlen)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
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
    pid_t p;
    int rc = posix_spawnp(&p, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", argv[0], strerror(rc));
        return -1;
    }
    *pid = (long)p;
    return 0;
}

int gp_spawn_poll(long pid, int *code)
{
    int status = 0;
    pid_t r;
    while ((r = waitpid((pid_t)pid, &status, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (r < 0) return -1;
    if (r == 0) return 0;
    *code = WIFEXITED(status)     ? WEXITSTATUS(status)
            : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                  : 255;
    return 1;
}

void gp_spawn_stop(long pid, bool hard)
{
    kill((pid_t)pid, hard ? SIGKILL : SIGTERM);
}

/* The one piece of process-wide state: which signal asked us to stop (written only by the
 * handler, read by the waits). */
static volatile sig_atomic_t gp_interrupt_signal;

static void gp_on_interrupt(int sig)
{
    gp_interrupt_signal = sig;
}

void gp_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = gp_on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A closed pipe to a child must be an error value, not the end of gpuport. */
    signal(SIGPIPE, SIG_IGN);
}

int gp_interrupted(void)
{
    return (int)gp_interrupt_signal;
}
#endif
