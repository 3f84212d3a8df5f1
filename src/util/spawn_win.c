/* spawn_win.c — see spawn.h: the Windows side. The program is looked up on PATH (with .exe
 * appended, as a shell would) and started with CreateProcessW, its command line quoted the way
 * the C runtime splits it; only its three standard handles are inherited. Two threads drain
 * stdout and stderr so that a chatty child never blocks; a time limit ends it. A batch file
 * (.bat, .cmd) is refused: it would run through cmd.exe, which splits arguments its own way.
 * Children started with our descriptors are kept by id in a small table until polled to their
 * end, since POSIX-style callers know a child by its id alone. */
#if defined(_WIN32)
#include "util/spawn.h"

#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/strbuf.h"
#include "util/win.h"

typedef struct gp_drain {
    HANDLE pipe;
    size_t limit, len, cap;
    char *buf;
} gp_drain;

static unsigned __stdcall gp_drain_main(void *p)
{
    gp_drain *d = p;
    char chunk[8192];
    DWORD n;
    while (ReadFile(d->pipe, chunk, sizeof chunk, &n, NULL) && n > 0) {
        size_t keep = d->len >= d->limit ? 0 : (n < d->limit - d->len ? n : d->limit - d->len);
        if (!keep) continue;
        if (d->len + keep + 1 > d->cap) {
            size_t c = d->cap ? d->cap : 1024;
            while (c < d->len + keep + 1)
                c *= 2;
            char *q = realloc(d->buf, c);
            if (!q) continue;
            d->buf = q;
            d->cap = c;
        }
        memcpy(d->buf + d->len, chunk, keep);
        d->len += keep;
        d->buf[d->len] = '\0';
    }
    return 0;
}

/* Appends `arg` to `cmd` as CommandLineToArgvW and the C runtime read it back: in quotes when it
 * is empty or holds blanks or quotes; backslashes doubled where they precede a quote. */
static void gp_cmdline_arg(gp_strbuf *cmd, const char *arg)
{
    if (cmd->len) gp_strbuf_puts(cmd, " ");
    if (*arg && !strpbrk(arg, " \t\n\v\"")) {
        gp_strbuf_puts(cmd, arg);
        return;
    }
    gp_strbuf_puts(cmd, "\"");
    for (const char *p = arg;; p++) {
        size_t slashes = 0;
        while (*p == '\\') {
            p++;
            slashes++;
        }
        if (!*p) {
            for (size_t i = 0; i < 2 * slashes; i++)
                gp_strbuf_puts(cmd, "\\");
            break;
        }
        size_t n = *p == '"' ? 2 * slashes + 1 : slashes;
        for (size_t i = 0; i < n; i++)
            gp_strbuf_puts(cmd, "\\");
        char c[2] = {*p, 0};
        gp_strbuf_puts(cmd, c);
    }
    gp_strbuf_puts(cmd, "\"");
}

static bool gp_is_file_w(const wchar_t *w)
{
    DWORD a = GetFileAttributesW(w);
    return a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
}

/* `name`, or `name`.exe, as a file: a heap UTF-16 path or NULL. */
static wchar_t *gp_try_program(const char *dir, const char *name)
{
    gp_strbuf b = GP_STRBUF_INIT;
    if (dir) gp_strbuf_printf(&b, "%s\\", dir);
    gp_strbuf_puts(&b, name);
    const char *base = strrchr(name, '\\') ? strrchr(name, '\\') + 1 : name;
    if (strrchr(base, '/')) base = strrchr(base, '/') + 1;
    for (int with_exe = 0; with_exe < 2; with_exe++) {
        if (with_exe) {
            if (strchr(base, '.') && _stricmp(strrchr(base, '.'), ".exe") == 0) break;
            gp_strbuf_puts(&b, ".exe");
        }
        wchar_t *w = gp_win_path(gp_strbuf_cstr(&b));
        if (w && gp_is_file_w(w)) {
            gp_strbuf_free(&b);
            return w;
        }
        free(w);
    }
    gp_strbuf_free(&b);
    return NULL;
}

/* A name with a folder in it is taken as it is; a bare name is looked for on PATH and then in
 * System32 (where ssh.exe's folder and the system's tools are). */
static wchar_t *gp_find_program(const char *name)
{
    if (strpbrk(name, "/\\:")) return gp_try_program(NULL, name);
    wchar_t *found = NULL;
    const char *path = getenv("PATH");
    char *copy = path ? _strdup(path) : NULL;
    char *save = NULL;
    for (char *d = copy ? strtok_s(copy, ";", &save) : NULL; d && !found;
         d = strtok_s(NULL, ";", &save))
        if (*d) found = gp_try_program(d, name);
    free(copy);
    if (!found) {
        wchar_t sys[MAX_PATH];
        UINT n = GetSystemDirectoryW(sys, MAX_PATH);
        char *s = n ? gp_win_utf8(sys) : NULL;
        if (s) found = gp_try_program(s, name);
        free(s);
    }
    return found;
}

/* A UTF-16 environment block from envp ("NAME=value" strings), NULL-free; NULL on ENOMEM. */
static wchar_t *gp_env_block(char *const envp[])
{
    size_t total = 1, used = 0;
    wchar_t *block = NULL;
    for (char *const *e = envp; *e; e++) {
        wchar_t *w = gp_win_wide(*e);
        if (!w) continue;
        size_t n = wcslen(w) + 1;
        wchar_t *g = realloc(block, (total + n) * sizeof *g);
        if (!g) {
            free(w);
            free(block);
            return NULL;
        }
        block = g;
        memcpy(block + used, w, n * sizeof *w);
        used += n;
        total += n;
        free(w);
    }
    if (!block && !(block = malloc(2 * sizeof *block))) return NULL;
    block[used] = 0;
    if (used == 0) block[1] = 0;
    return block;
}

/* Starts argv with the three handles (made inheritable copies here; only they are inherited).
 * TRUE, or FALSE with the reason in err. */
static BOOL gp_win_start(char *const argv[], char *const envp[], HANDLE in, HANDLE out, HANDLE errh,
                         PROCESS_INFORMATION *pi, char *err, size_t errlen)
{
    const char *base = argv[0];
    for (const char *p = argv[0]; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    const char *dot = strrchr(base, '.');
    if (dot && (_stricmp(dot, ".bat") == 0 || _stricmp(dot, ".cmd") == 0)) {
        snprintf(err, errlen, "%s: a batch file runs only through cmd.exe: name a program",
                 argv[0]);
        return FALSE;
    }
    wchar_t *exe = gp_find_program(argv[0]);
    if (!exe) {
        snprintf(err, errlen, "%s: No such file or directory (looked on PATH and in System32)",
                 argv[0]);
        return FALSE;
    }
    gp_strbuf cmd = GP_STRBUF_INIT;
    for (char *const *a = argv; *a; a++)
        gp_cmdline_arg(&cmd, *a);
    wchar_t *wcmd = gp_win_wide(gp_strbuf_cstr(&cmd));
    gp_strbuf_free(&cmd);
    wchar_t *env = envp ? gp_env_block(envp) : NULL;
    HANDLE self = GetCurrentProcess(), std[3] = {in, out, errh}, inherit[3] = {NULL, NULL, NULL};
    BOOL ok = wcmd && (!envp || env);
    for (int i = 0; ok && i < 3; i++)
        ok = std[i] && std[i] != INVALID_HANDLE_VALUE &&
             DuplicateHandle(self, std[i], self, &inherit[i], 0, TRUE, DUPLICATE_SAME_ACCESS);
    SIZE_T attr_size = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
    LPPROC_THREAD_ATTRIBUTE_LIST attrs = ok ? malloc(attr_size) : NULL;
    ok = ok && attrs && InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size) &&
         UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit,
                                   sizeof inherit, NULL, NULL);
    DWORD code = 0;
    if (ok) {
        STARTUPINFOEXW si = {0};
        si.StartupInfo.cb = sizeof si;
        si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
        si.StartupInfo.hStdInput = inherit[0];
        si.StartupInfo.hStdOutput = inherit[1];
        si.StartupInfo.hStdError = inherit[2];
        si.lpAttributeList = attrs;
        ok = CreateProcessW(exe, wcmd, NULL, NULL, TRUE,
                            EXTENDED_STARTUPINFO_PRESENT | CREATE_UNICODE_ENVIRONMENT, env, NULL,
                            &si.StartupInfo, pi);
    }
    if (!ok) code = GetLastError();
    if (attrs) {
        DeleteProcThreadAttributeList(attrs);
        free(attrs);
    }
    for (int i = 0; i < 3; i++)
        if (inherit[i]) CloseHandle(inherit[i]);
    free(exe);
    free(wcmd);
    free(env);
    if (!ok) {
        char why[256];
        gp_win_error_text(code ? code : ERROR_INVALID_HANDLE, why, sizeof why);
        snprintf(err, errlen, "%s: %s", argv[0], why);
    }
    return ok;
}

int gp_spawn_capture(char *const argv[], char *const envp[], double timeout_s, size_t cap,
                     gp_spawn_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    HANDLE out_r = NULL, out_w = NULL, err_r = NULL, err_w = NULL;
    HANDLE in = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                            OPEN_EXISTING, 0, NULL);
    PROCESS_INFORMATION pi = {0};
    BOOL ok = in != INVALID_HANDLE_VALUE && CreatePipe(&out_r, &out_w, NULL, 0) &&
              CreatePipe(&err_r, &err_w, NULL, 0);
    if (!ok) snprintf(err, errlen, "%s: cannot make pipes", argv[0]);
    ok = ok && gp_win_start(argv, envp, in, out_w, err_w, &pi, err, errlen);
    if (in != INVALID_HANDLE_VALUE) CloseHandle(in);
    if (out_w) CloseHandle(out_w);
    if (err_w) CloseHandle(err_w);
    if (!ok) {
        if (out_r) CloseHandle(out_r);
        if (err_r) CloseHandle(err_r);
        return -1;
    }
    CloseHandle(pi.hThread);
    gp_drain d[2] = {{out_r, cap, 0, 0, NULL}, {err_r, cap, 0, 0, NULL}};
    HANDLE t[2];
    for (int i = 0; i < 2; i++)
        t[i] = (HANDLE)_beginthreadex(NULL, 0, gp_drain_main, &d[i], 0, NULL);
    DWORD wait_ms = timeout_s > 0 ? (DWORD)(timeout_s * 1000) + 1 : INFINITE;
    if (WaitForSingleObject(pi.hProcess, wait_ms) == WAIT_TIMEOUT) {
        res->timed_out = true;
        TerminateProcess(pi.hProcess, 1);
        WaitForSingleObject(pi.hProcess, INFINITE);
    }
    /* the pipes end when every holder of their write ends has exited; a grandchild that keeps
     * them is not waited for long */
    for (int i = 0; i < 2; i++) {
        if (!t[i]) {
            gp_drain_main(&d[i]);
            continue;
        }
        if (WaitForSingleObject(t[i], 2000) == WAIT_TIMEOUT) {
            CancelSynchronousIo(t[i]);
            WaitForSingleObject(t[i], INFINITE);
        }
        CloseHandle(t[i]);
    }
    CloseHandle(out_r);
    CloseHandle(err_r);
    DWORD exit_code = 0;
    GetExitCodeProcess(pi.hProcess, &exit_code);
    CloseHandle(pi.hProcess);
    res->exit_code = res->timed_out ? -1 : (int)exit_code;
    res->out = d[0].buf ? d[0].buf : calloc(1, 1);
    res->out_len = d[0].len;
    res->err = d[1].buf ? d[1].buf : calloc(1, 1);
    res->err_len = d[1].len;
    return 0;
}

/* ---- children that run with our descriptors ------------------------------------------------ */

/* The started children's handles by id, until they are polled to their end. */
#define GP_CHILD_MAX 64
static struct {
    SRWLOCK lock;
    long pid[GP_CHILD_MAX];
    HANDLE handle[GP_CHILD_MAX];
} gp_children = {SRWLOCK_INIT, {0}, {0}};

static HANDLE gp_std_handle(int fd, DWORD which)
{
    if (fd < 0) return GetStdHandle(which);
    intptr_t h = _get_osfhandle(fd);
    return h == -1 ? NULL : (HANDLE)h;
}

int gp_spawn_fds(char *const argv[], const int fds[3], long *pid, char *err, size_t errlen)
{
    HANDLE nul = NULL, h[3] = {gp_std_handle(fds[0], STD_INPUT_HANDLE),
                               gp_std_handle(fds[1], STD_OUTPUT_HANDLE),
                               gp_std_handle(fds[2], STD_ERROR_HANDLE)};
    /* a process without a console or a redirected handle: the child gets the empty device */
    for (int i = 0; i < 3; i++) {
        if (h[i] && h[i] != INVALID_HANDLE_VALUE) continue;
        if (!nul)
            nul = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE,
                              FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
        h[i] = nul;
    }
    PROCESS_INFORMATION pi = {0};
    BOOL ok = gp_win_start(argv, NULL, h[0], h[1], h[2], &pi, err, errlen);
    if (nul && nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
    if (!ok) return -1;
    CloseHandle(pi.hThread);
    AcquireSRWLockExclusive(&gp_children.lock);
    int slot = -1;
    for (int i = 0; i < GP_CHILD_MAX && slot < 0; i++)
        if (!gp_children.handle[i]) slot = i;
    if (slot >= 0) {
        gp_children.pid[slot] = (long)pi.dwProcessId;
        gp_children.handle[slot] = pi.hProcess;
    }
    ReleaseSRWLockExclusive(&gp_children.lock);
    if (slot < 0) {
        TerminateProcess(pi.hProcess, 1);
        CloseHandle(pi.hProcess);
        snprintf(err, errlen, "%s: more than %d children at once", argv[0], GP_CHILD_MAX);
        return -1;
    }
    *pid = (long)pi.dwProcessId;
    return 0;
}

static int gp_child_slot(long pid)
{
    for (int i = 0; i < GP_CHILD_MAX; i++)
        if (gp_children.handle[i] && gp_children.pid[i] == pid) return i;
    return -1;
}

int gp_spawn_poll(long pid, int *code)
{
    AcquireSRWLockExclusive(&gp_children.lock);
    int slot = gp_child_slot(pid);
    int rc = -1;
    if (slot >= 0) {
        HANDLE h = gp_children.handle[slot];
        rc = WaitForSingleObject(h, 0) == WAIT_OBJECT_0 ? 1 : 0;
        if (rc == 1) {
            DWORD ec = 255;
            GetExitCodeProcess(h, &ec);
            *code = (int)ec;
            CloseHandle(h);
            gp_children.handle[slot] = NULL;
        }
    }
    ReleaseSRWLockExclusive(&gp_children.lock);
    return rc;
}

void gp_spawn_stop(long pid, bool hard)
{
    (void)hard;
    AcquireSRWLockShared(&gp_children.lock);
    int slot = gp_child_slot(pid);
    /* 128 + SIGTERM, the code a POSIX shell reports for a stopped child */
    if (slot >= 0) TerminateProcess(gp_children.handle[slot], 128 + 15);
    ReleaseSRWLockShared(&gp_children.lock);
}

static volatile LONG gp_interrupt_signal;

static BOOL WINAPI gp_on_console_event(DWORD event)
{
    switch (event) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
        InterlockedExchange(&gp_interrupt_signal, 2 /* SIGINT */);
        return TRUE;
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
        InterlockedExchange(&gp_interrupt_signal, 15 /* SIGTERM */);
        return TRUE;
    }
    return FALSE;
}

void gp_interrupt_install(void)
{
    SetConsoleCtrlHandler(gp_on_console_event, TRUE);
}

int gp_interrupted(void)
{
    return (int)InterlockedCompareExchange(&gp_interrupt_signal, 0, 0);
}

void gp_spawn_result_free(gp_spawn_result *res)
{
    free(res->out);
    free(res->err);
    res->out = res->err = NULL;
}
#endif
