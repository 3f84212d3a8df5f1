/*
 * error.c — the one status type and the thread-local message behind gp_last_error().
 * Every public function that fails calls gp_error_set() before it returns its status.
 */
#include "runtime/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gp_version.h"
#include "runtime/core.h"

static _Thread_local char gp_error_message[4096];

const char *gp_last_error(void)
{
    return gp_error_message;
}

gp_status gp_error_set(gp_status status, const char *fmt, ...)
{
    /* Formatted apart first: callers may pass gp_last_error() itself as an argument. */
    char buf[sizeof gp_error_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    memcpy(gp_error_message, buf, sizeof buf);
    return status;
}

gp_status gp_strbuf_out(gp_strbuf *sb, char *buf, size_t cap, size_t *needed)
{
    if (sb->failed) {
        gp_strbuf_free(sb);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    if (needed) *needed = sb->len + 1;
    if (cap) {
        size_t n = sb->len < cap - 1 ? sb->len : cap - 1;
        if (n) memcpy(buf, sb->data, n);
        buf[n] = '\0';
    }
    gp_strbuf_free(sb);
    return GP_OK;
}

void gp_error_clear(void)
{
    gp_error_message[0] = '\0';
}

const char *gp_status_name(gp_status status)
{
    switch (status) {
    case GP_OK:
        return "GP_OK";
    case GP_ERR_INVALID_ARGUMENT:
        return "GP_ERR_INVALID_ARGUMENT";
    case GP_ERR_NOT_FOUND:
        return "GP_ERR_NOT_FOUND";
    case GP_ERR_UNSUPPORTED:
        return "GP_ERR_UNSUPPORTED";
    case GP_ERR_OUT_OF_MEMORY:
        return "GP_ERR_OUT_OF_MEMORY";
    case GP_ERR_BUILD:
        return "GP_ERR_BUILD";
    case GP_ERR_LAUNCH:
        return "GP_ERR_LAUNCH";
    case GP_ERR_BACKEND:
        return "GP_ERR_BACKEND";
    case GP_ERR_IO:
        return "GP_ERR_IO";
    case GP_ERR_INTERNAL:
        return "GP_ERR_INTERNAL";
    case GP_ERR_CHECK:
        return "GP_ERR_CHECK";
    case GP_ERR_INTERRUPTED:
        return "GP_ERR_INTERRUPTED";
    }
    return "GP_ERR_UNKNOWN";
}

const char *gp_version_string(void)
{
    return GP_VERSION_STRING;
}
