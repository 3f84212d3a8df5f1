/* dynlib_win.c — see dynlib.h: the LoadLibraryEx side. A bare name is searched the standard way
 * for a program's DLLs (its own folder, System32, the Windows folder, PATH); a path loads that
 * file, with its own folder searched for what it needs. Errors are the system's own words
 * (error 126: "The specified module could not be found") with the name. */
#if defined(_WIN32)
#include "util/dynlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/thread.h"
#include "util/win.h"

const char gp_dl_prefix[] = "";
const char gp_dl_suffix[] = "dll";

static GP_THREAD_LOCAL char gp_dl_last[1024];

static void gp_dl_note(const char *what, DWORD code)
{
    char text[512];
    gp_win_error_text(code, text, sizeof text);
    snprintf(gp_dl_last, sizeof gp_dl_last, "%s: %s", what, text);
}

void *gp_dl_open(const char *name)
{
    wchar_t *w = gp_win_path(name);
    if (!w) {
        snprintf(gp_dl_last, sizeof gp_dl_last, "%s: not a UTF-8 name, or out of memory", name);
        return NULL;
    }
    bool is_path = strchr(name, '/') || strchr(name, '\\') || strchr(name, ':');
    /* no error dialog for a missing dependency: the caller reports it */
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    HMODULE h = LoadLibraryExW(w, NULL, is_path ? LOAD_WITH_ALTERED_SEARCH_PATH : 0);
    DWORD code = h ? 0 : GetLastError();
    SetErrorMode(old_mode);
    free(w);
    if (!h) gp_dl_note(name, code);
    return (void *)h;
}

void *gp_dl_sym(void *lib, const char *symbol)
{
    FARPROC p = GetProcAddress((HMODULE)lib, symbol);
    if (!p) {
        gp_dl_note(symbol, GetLastError());
        return NULL;
    }
    void *q;
    memcpy(&q, &p, sizeof q);
    return q;
}

void gp_dl_close(void *lib)
{
    if (lib) FreeLibrary((HMODULE)lib);
}

const char *gp_dl_error(void)
{
    return gp_dl_last;
}

int gp_dl_path_of(const void *addr, char *buf, size_t cap)
{
    HMODULE m = NULL;
    if (!addr || !GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                         GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                                     (LPCWSTR)addr, &m))
        return -1;
    wchar_t w[32768];
    DWORD n = GetModuleFileNameW(m, w, (DWORD)(sizeof w / sizeof w[0]));
    if (n == 0 || n >= sizeof w / sizeof w[0]) return -1;
    char *u = gp_win_utf8(w);
    if (!u) return -1;
    snprintf(buf, cap, "%s", u);
    free(u);
    return 0;
}
#endif
