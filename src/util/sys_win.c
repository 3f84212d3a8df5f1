/* sys_win.c — see sys.h: the Windows side. The version comes from RtlGetVersion, which, unlike
 * GetVersionEx, is not capped at the version the program's manifest names. */
#if defined(_WIN32)
#include "util/sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/win.h"

typedef LONG(WINAPI *gp_rtl_get_version_fn)(OSVERSIONINFOW *);

int gp_sys_uname(gp_uname *u)
{
    memset(u, 0, sizeof *u);
    snprintf(u->sysname, sizeof u->sysname, "Windows");
    OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof v};
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC f = ntdll ? GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    gp_rtl_get_version_fn get = NULL;
    if (f) memcpy(&get, &f, sizeof get);
    if (get && get(&v) == 0)
        snprintf(u->release, sizeof u->release, "%lu.%lu.%lu", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
    wchar_t host[256];
    DWORD n = (DWORD)(sizeof host / sizeof host[0]);
    if (GetComputerNameExW(ComputerNameDnsHostname, host, &n)) {
        char *h = gp_win_utf8(host);
        if (h) snprintf(u->nodename, sizeof u->nodename, "%s", h);
        free(h);
    }
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    const char *m = "unknown";
    switch (si.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64:
        m = "x86_64";
        break;
    case PROCESSOR_ARCHITECTURE_ARM64:
        m = "aarch64";
        break;
    case PROCESSOR_ARCHITECTURE_INTEL:
        m = "i686";
        break;
    case PROCESSOR_ARCHITECTURE_ARM:
        m = "armv7l";
        break;
    }
    snprintf(u->machine, sizeof u->machine, "%s", m);
    return 0;
}

unsigned gp_cpu_count(void)
{
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (unsigned)n : 1;
}

unsigned long long gp_physical_memory(void)
{
    MEMORYSTATUSEX ms = {.dwLength = sizeof ms};
    return GlobalMemoryStatusEx(&ms) ? (unsigned long long)ms.ullTotalPhys : 0;
}

unsigned long gp_page_size(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwPageSize ? si.dwPageSize : 4096;
}

void gp_sleep_ms(unsigned ms)
{
    Sleep(ms);
}

void gp_sleep_us(unsigned us)
{
    Sleep((us + 999) / 1000);
}

double gp_monotonic_s(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}

int gp_setenv(const char *name, const char *value)
{
    /* the C runtime's copy, which getenv reads, and the process's, which children inherit */
    if (_putenv_s(name, value ? value : "") != 0) return -1;
    wchar_t *wn = gp_win_wide(name), *wv = value ? gp_win_wide(value) : NULL;
    BOOL ok = wn && (!value || wv) && SetEnvironmentVariableW(wn, wv);
    free(wn);
    free(wv);
    return ok ? 0 : -1;
}

void *gp_aligned_alloc(size_t size, size_t align)
{
    return _aligned_malloc(size ? size : 1, align);
}

/* Committed pages are zero-filled on first touch: only those touched take memory. */
void *gp_pages_alloc(size_t size)
{
    return VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void gp_pages_free(void *p, size_t size)
{
    (void)size;
    if (p) VirtualFree(p, 0, MEM_RELEASE);
}

void gp_aligned_free(void *p)
{
    _aligned_free(p);
}

const char *gp_tmp_dir(void)
{
    const char *t = getenv("TMPDIR");
    if (t && *t) return t;
    static char dir[1024];
    if (!dir[0]) {
        wchar_t w[MAX_PATH + 1];
        DWORD n = GetTempPathW(MAX_PATH + 1, w);
        char *u = n ? gp_win_utf8(w) : NULL;
        size_t len = u ? strlen(u) : 0;
        while (len > 3 && (u[len - 1] == '\\' || u[len - 1] == '/'))
            u[--len] = '\0';
        for (char *c = u; c && *c; c++)
            if (*c == '\\') *c = '/';
        snprintf(dir, sizeof dir, "%s", u && *u ? u : "C:/Windows/Temp");
        free(u);
    }
    return dir;
}

int gp_windows_dir(char *buf, size_t n)
{
    wchar_t w[MAX_PATH + 1];
    UINT len = GetSystemWindowsDirectoryW(w, MAX_PATH + 1);
    char *u = len && len <= MAX_PATH ? gp_win_utf8(w) : NULL;
    if (!u || strlen(u) >= n) {
        free(u);
        return -1;
    }
    for (char *c = u; *c; c++)
        if (*c == '\\') *c = '/';
    memcpy(buf, u, strlen(u) + 1);
    free(u);
    return 0;
}

long gp_getpid(void)
{
    return (long)GetCurrentProcessId();
}

int gp_gmtime(long long t, struct tm *out)
{
    __time64_t tt = (__time64_t)t;
    return _gmtime64_s(out, &tt) == 0 ? 0 : -1;
}

int gp_localtime(long long t, struct tm *out)
{
    __time64_t tt = (__time64_t)t;
    return _localtime64_s(out, &tt) == 0 ? 0 : -1;
}
#endif
