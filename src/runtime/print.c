/*
 * print.c — where kernel output goes: the handler of gp_printf's text for the backends that
 * collect it themselves (the CPU), and the per-launch line limit. Backends format and order the
 * output of a launch; this file only hands it on.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/core.h"

#define GP_PRINT_DEFAULT_LIMIT 4096u

static gp_mutex gp_print_lock = GP_MUTEX_INIT;
static gp_print_fn gp_print_handler;
static void *gp_print_user;
static uint32_t gp_print_lines; /* 0: not set (the default or GPUPORT_PRINT_LIMIT) */

gp_status gp_print_set_handler(gp_print_fn fn, void *user)
{
    gp_mutex_lock(&gp_print_lock);
    gp_print_handler = fn;
    gp_print_user = fn ? user : NULL;
    gp_mutex_unlock(&gp_print_lock);
    return GP_OK;
}

gp_status gp_print_set_limit(uint32_t lines)
{
    gp_mutex_lock(&gp_print_lock);
    gp_print_lines = lines;
    gp_mutex_unlock(&gp_print_lock);
    return GP_OK;
}

uint32_t gp_print_limit(void)
{
    gp_mutex_lock(&gp_print_lock);
    uint32_t n = gp_print_lines;
    gp_mutex_unlock(&gp_print_lock);
    if (n) return n;
    const char *e = getenv("GPUPORT_PRINT_LIMIT");
    if (e && *e) {
        char *end = NULL;
        unsigned long v = strtoul(e, &end, 10);
        if (end && *end == '\0' && v > 0 && v <= UINT32_MAX) return (uint32_t)v;
        gp_log_info("GPUPORT_PRINT_LIMIT=%s is not a line count (1..4294967295); using %u", e,
                    GP_PRINT_DEFAULT_LIMIT);
    }
    return GP_PRINT_DEFAULT_LIMIT;
}

uint32_t gp_print_record_words(void)
{
    uint64_t w = (uint64_t)gp_print_limit() * 32;
    return (uint32_t)(w < 4096 ? 4096 : w > (4u << 20) ? (4u << 20) : w);
}

gp_status gp_print_get_limit(uint32_t *lines)
{
    if (!lines) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_print_get_limit: NULL argument");
    *lines = gp_print_limit();
    return GP_OK;
}

void gp_print_emit(const char *text, size_t len)
{
    if (!len) return;
    gp_mutex_lock(&gp_print_lock);
    gp_print_fn fn = gp_print_handler;
    void *user = gp_print_user;
    gp_mutex_unlock(&gp_print_lock);
    if (fn) {
        fn(user, text, len);
        return;
    }
    fwrite(text, 1, len, stdout);
    fflush(stdout);
}
