/* ssh.c — see ssh.h. The master is started with -f (ssh forks once logged in, so its exit
 * status tells whether the login worked) and ControlPersist as a safety net: if gpuport dies
 * without stopping it, the master still ends after five idle minutes. */
#include "remote/ssh.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote/shquote.h"
#include "util/fs.h"

/* sockaddr_un.sun_path is 104 bytes on macOS, 108 on Linux. */
#define SSH_SOCKET_MAX 100

static char *ssh_make_rundir(void)
{
    const char *bases[3] = {getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR"), "/tmp"};
    for (int i = 0; i < 3; i++) {
        if (!bases[i] || bases[i][0] != '/' || !gp_path_is_dir(bases[i])) continue;
        char *d = gp_path_join(bases[i], "gpuport-remote-XXXXXX");
        if (!d) return NULL;
        if (strlen(d) + 4 < SSH_SOCKET_MAX && mkdtemp(d)) {
            chmod(d, 0700);
            return d;
        }
        free(d);
    }
    return NULL;
}

void gp_ssh_base_argv(const gp_ssh *s, gp_argv *a)
{
    gp_argv_push(a, "ssh");
    const char *cfg = getenv("GPUPORT_SSH_CONFIG");
    if (cfg && *cfg) {
        gp_argv_push(a, "-F");
        gp_argv_push(a, cfg);
    }
    gp_argv_push(a, "-T"); /* no terminal: output streams as it is written, signals are ours */
    gp_argv_push(a, "-o");
    gp_argv_push(a, "BatchMode=yes");
    gp_argv_push(a, "-o");
    gp_argv_pushf(a, "ControlPath=%s", s->control);
    gp_argv_push(a, "-o");
    gp_argv_push(a, "ServerAliveInterval=15");
    gp_argv_push(a, "-o");
    gp_argv_push(a, "ServerAliveCountMax=4");
}

char *gp_ssh_rsync_shell(const gp_ssh *s)
{
    gp_argv a = {0};
    gp_ssh_base_argv(s, &a);
    gp_strbuf sb = GP_STRBUF_INIT;
    for (size_t i = 0; !a.failed && i < a.n; i++) {
        if (i) gp_strbuf_putc(&sb, ' ');
        gp_shquote_rsync_append(&sb, a.v[i]);
    }
    if (a.failed) sb.failed = true;
    gp_argv_free(&a);
    return gp_strbuf_take(&sb);
}

static const char *ssh_last_line(const char *text, char *buf, size_t len)
{
    /* The last non-empty line that is not a "Warning: Permanently added" notice. */
    buf[0] = '\0';
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
            n--;
        if (n && strncmp(p, "Warning: Permanently added", 26) != 0) {
            if (n >= len) n = len - 1;
            memcpy(buf, p, n);
            buf[n] = '\0';
        }
        if (!e) break;
        p = e + 1;
    }
    return buf;
}

void gp_ssh_explain(const char *name, const char *target, const char *e, char *msg, size_t msglen)
{
    char last[512], check[600], other[600];
    ssh_last_line(e, last, sizeof last);
    /* Commands are shown shell-quoted, after a colon, so that pasting one runs that and no more. */
    gp_shquote_cmd(check, sizeof check, "ssh", target, "true", NULL);
    if (strstr(e, "Permission denied") || strstr(e, "Too many authentication failures")) {
        snprintf(msg, msglen,
                 "cannot log in to %s (%s): the server refused our keys (%s); gpuport runs ssh in "
                 "BatchMode, so no password is asked: load the key (ssh-add) or install one "
                 "with: %s; then check with: %s",
                 name, target, last,
                 gp_shquote_cmd(other, sizeof other, "ssh-copy-id", target, NULL), check);
    } else if (strstr(e, "Host key verification failed") ||
               strstr(e, "REMOTE HOST IDENTIFICATION HAS CHANGED")) {
        snprintf(msg, msglen,
                 "cannot connect to %s (%s): its host key is unknown or has changed; connect once "
                 "to check and accept the key, then retry: %s",
                 name, target, gp_shquote_cmd(other, sizeof other, "ssh", target, NULL));
    } else if (strstr(e, "Could not resolve hostname") || strstr(e, "Name or service not known")) {
        snprintf(msg, msglen,
                 "cannot reach %s: the host name of '%s' does not resolve (%s); fix the name with "
                 "'gpuport remote add' or the Host entry in ~/.ssh/config",
                 name, target, last);
    } else if (strstr(e, "Connection refused") || strstr(e, "timed out") ||
               strstr(e, "No route to host") || strstr(e, "Network is unreachable") ||
               strstr(e, "Connection closed") || strstr(e, "Connection reset")) {
        snprintf(msg, msglen,
                 "cannot reach %s (%s): %s; check that the host is up, that sshd runs there and "
                 "the host name and port in ~/.ssh/config, then check with: %s",
                 name, target, last, check);
    } else {
        snprintf(msg, msglen, "cannot connect to %s (%s): ssh says: %s; check with: %s", name,
                 target, last[0] ? last : "(nothing)", check);
    }
}

int gp_ssh_open(gp_ssh *s, const char *name, const char *target, char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->target = target;
    s->rundir = ssh_make_rundir();
    if (!s->rundir) {
        snprintf(msg, msglen,
                 "cannot create a private folder for the ssh control socket in "
                 "$XDG_RUNTIME_DIR, $TMPDIR or /tmp");
        return 3;
    }
    s->control = gp_path_join(s->rundir, "cm");
    gp_argv a = {0};
    gp_ssh_base_argv(s, &a);
    gp_argv_push(&a, "-o");
    gp_argv_push(&a, "ControlMaster=yes");
    gp_argv_push(&a, "-o");
    gp_argv_push(&a, "ControlPersist=300");
    gp_argv_push(&a, "-o");
    gp_argv_push(&a, "ConnectTimeout=20");
    gp_argv_push(&a, "-f");
    gp_argv_push(&a, "-N");
    gp_argv_push(&a, target);
    if (a.failed || !s->control) {
        gp_argv_free(&a);
        snprintf(msg, msglen, "out of memory");
        return 3;
    }
    char *err = NULL, why[512];
    int code = gp_proc_capture(a.v, NULL, s->rundir, 64 * 1024, NULL, NULL, &err, why, sizeof why);
    gp_argv_free(&a);
    int rc = 0;
    if (code < 0) {
        snprintf(msg, msglen, "cannot run ssh: %s; install OpenSSH (the ssh client)", why);
        rc = 2;
    } else if (gp_proc_interrupted()) {
        snprintf(msg, msglen, "interrupted while connecting to %s", name);
        rc = 128 + gp_proc_interrupted();
    } else if (code != 0) {
        gp_ssh_explain(name, target, err ? err : "", msg, msglen);
        rc = 2;
    } else {
        s->master = true;
    }
    free(err);
    return rc;
}

static int ssh_control(gp_ssh *s, const char *op)
{
    gp_argv a = {0};
    gp_ssh_base_argv(s, &a);
    gp_argv_push(&a, "-O");
    gp_argv_push(&a, op);
    gp_argv_push(&a, s->target);
    char why[256];
    int code = a.failed
                   ? -1
                   : gp_proc_capture(a.v, NULL, s->rundir, 4096, NULL, NULL, NULL, why, sizeof why);
    gp_argv_free(&a);
    return code;
}

bool gp_ssh_alive(gp_ssh *s)
{
    return s->master && ssh_control(s, "check") == 0;
}

void gp_ssh_close(gp_ssh *s)
{
    if (s->master) ssh_control(s, "exit");
    s->master = false;
    if (s->rundir) {
        if (s->control) unlink(s->control);
        rmdir(s->rundir);
    }
    free(s->control);
    free(s->rundir);
    s->control = s->rundir = NULL;
}

char *gp_ssh_script_line(const char *script, char *const args[])
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "sh -c ");
    gp_shquote_append(&sb, script);
    gp_strbuf_puts(&sb, " gpuport-remote");
    for (size_t i = 0; args && args[i]; i++) {
        gp_strbuf_putc(&sb, ' ');
        gp_shquote_append(&sb, args[i]);
    }
    return gp_strbuf_take(&sb);
}

int gp_ssh_script(gp_ssh *s, const char *script, char *const args[], const char *in_path,
                  size_t cap, char **out, size_t *out_len, char **errout, char *err, size_t errlen)
{
    char *line = gp_ssh_script_line(script, args);
    gp_argv a = {0};
    gp_ssh_base_argv(s, &a);
    gp_argv_push(&a, s->target);
    gp_argv_push(&a, line ? line : "");
    int code = -1;
    if (!line || a.failed)
        snprintf(err, errlen, "out of memory");
    else
        code = gp_proc_capture(a.v, in_path, s->rundir, cap, out, out_len, errout, err, errlen);
    gp_argv_free(&a);
    free(line);
    return code;
}
