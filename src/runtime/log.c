/* log.c — GPUPORT_LOG: "info" prints device choices and fallbacks, "debug" also builds and cache
 * hits, on stderr, one line each prefixed "gpuport: ". Read once per process. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "util/thread.h"

static int gp_log_cached = -1;
static gp_once gp_log_once = GP_ONCE_INIT;

static void gp_log_read_env(void)
{
    const char *v = getenv("GPUPORT_LOG");
    int level = 0;
    if (v && (!strcmp(v, "info") || !strcmp(v, "1"))) level = 1;
    if (v && !strcmp(v, "debug")) level = 2;
    gp_log_cached = level;
}

int gp_log_level(void)
{
    gp_once_call(&gp_log_once, gp_log_read_env);
    return gp_log_cached;
}

static void gp_log_v(const char *fmt, va_list ap)
{
    char line[2048];
    vsnprintf(line, sizeof line, fmt, ap);
    fprintf(stderr, "gpuport: %s\n", line); /* one call: lines of threads do not interleave */
}

void gp_log_info(const char *fmt, ...)
{
    if (gp_log_level() < 1) return;
    va_list ap;
    va_start(ap, fmt);
    gp_log_v(fmt, ap);
    va_end(ap);
}

void gp_log_debug(const char *fmt, ...)
{
    if (gp_log_level() < 2) return;
    va_list ap;
    va_start(ap, fmt);
    gp_log_v(fmt, ap);
    va_end(ap);
}

void gp_copy_str(char *dst, size_t cap, const char *src)
{
    if (!cap) return;
    if (!src) src = "";
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}
