/* sys_posix.c — see sys.h: the POSIX side. */
#if !defined(_WIN32)
#include "util/sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

int gp_sys_uname(gp_uname *u)
{
    memset(u, 0, sizeof *u);
    struct utsname s;
    if (uname(&s) != 0) return -1;
    snprintf(u->sysname, sizeof u->sysname, "%s", s.sysname);
    snprintf(u->nodename, sizeof u->nodename, "%s", s.nodename);
    snprintf(u->release, sizeof u->release, "%s", s.release);
    snprintf(u->machine, sizeof u->machine, "%s", s.machine);
    return 0;
}

unsigned gp_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned long long gp_physical_memory(void)
{
#if defined(_SC_PHYS_PAGES)
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) return (unsigned long long)pages * (unsigned long long)size;
#endif
    return 0;
}

unsigned long gp_page_size(void)
{
    long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? (unsigned long)n : 4096;
}

void gp_sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void gp_sleep_us(unsigned us)
{
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

double gp_monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gp_setenv(const char *name, const char *value)
{
    return value ? setenv(name, value, 1) : unsetenv(name);
}

void *gp_aligned_alloc(size_t size, size_t align)
{
    void *m = NULL;
    return posix_memalign(&m, align, size) == 0 ? m : NULL;
}

void *gp_pages_alloc(size_t size)
{
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_NORESERVE
    flags |= MAP_NORESERVE;
#endif
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

void gp_pages_free(void *p, size_t size)
{
    if (p) munmap(p, size);
}

void gp_aligned_free(void *p)
{
    free(p);
}

const char *gp_tmp_dir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

long gp_getpid(void)
{
    return (long)getpid();
}

int gp_gmtime(long long t, struct tm *out)
{
    time_t tt = (time_t)t;
    return gmtime_r(&tt, out) ? 0 : -1;
}

int gp_localtime(long long t, struct tm *out)
{
    time_t tt = (time_t)t;
    return localtime_r(&tt, out) ? 0 : -1;
}
#endif
