/* sys.h — facts about the machine and the process that every platform has in its own form:
 * processors, memory, the system's name and version, clocks, the environment. POSIX side in
 * sys_posix.c (sysconf, uname), Windows side in sys_win.c. */
#ifndef GP_UTIL_SYS_H
#define GP_UTIL_SYS_H

#include <stdbool.h>
#include <stddef.h>

/* The command that starts the user's Python 3: python3 on POSIX; python on Windows, where the
 * python.org installer, the Store and conda all provide python.exe (python3.exe only some). */
#if defined(_WIN32)
#define GP_PYTHON_COMMAND "python"
#else
#define GP_PYTHON_COMMAND "python3"
#endif

typedef struct gp_uname {
    char sysname[256]; /* "Linux", "Darwin", "Windows" */
    char nodename[256];
    char release[256]; /* the kernel's release; Windows: "10.0.22631" */
    char machine[256]; /* uname's spelling on every system: "x86_64", "aarch64", "arm64" (macOS) */
} gp_uname;

/* 0, or -1 when the system would not say (the fields are then ""). */
int gp_sys_uname(gp_uname *u);
/* Processors this process may run on (at least 1). */
unsigned gp_cpu_count(void);
/* Physical memory in bytes, 0 when unknown. */
unsigned long long gp_physical_memory(void);
/* The size of a virtual memory page in bytes. */
unsigned long gp_page_size(void);
/* Sleeps for `ms` milliseconds, or `us` microseconds (Windows: rounded up to a millisecond). */
void gp_sleep_ms(unsigned ms);
void gp_sleep_us(unsigned us);
/* Seconds on a monotonic clock (only differences mean something). */
double gp_monotonic_s(void);
/* Sets (value non-NULL) or removes an environment variable of this process: 0 or -1. */
int gp_setenv(const char *name, const char *value);
/* Memory aligned to `align` (a power of two, a multiple of sizeof(void *)), or NULL; freed with
 * gp_aligned_free only (Windows keeps such blocks apart from malloc's). */
void *gp_aligned_alloc(size_t size, size_t align);
void gp_aligned_free(void *p);
/* `size` bytes of zeroed pages, reserved rather than committed where the system allows (only
 * the pages touched take memory): NULL when the address space is not there. Freed with
 * gp_pages_free and the same size. */
void *gp_pages_alloc(size_t size);
void gp_pages_free(void *p, size_t size);
/* The folder for temporary files: $TMPDIR where set (on every platform, as a user's override),
 * else /tmp (POSIX) or the user's temporary folder (Windows: %TEMP%, GetTempPath). Never NULL;
 * the answer stays valid for the life of the process. */
const char *gp_tmp_dir(void);
#if defined(_WIN32)
/* The Windows folder (C:/Windows), '/'-separated, from the system (GetSystemWindowsDirectory),
 * never from %SystemRoot%, which a scrubbed environment lacks: 0, or -1 when it does not fit. */
int gp_windows_dir(char *buf, size_t n);
#endif
/* This process's id. */
long gp_getpid(void);
/* The broken-down UTC / local time of `t` (thread-safe): 0 or -1. */
struct tm;
int gp_gmtime(long long t, struct tm *out);
int gp_localtime(long long t, struct tm *out);

#endif
