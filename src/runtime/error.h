/* error.h — setting the thread-local message that gp_last_error() returns (library-internal). */
#ifndef GP_RUNTIME_ERROR_H
#define GP_RUNTIME_ERROR_H

#include "gpuport/gpuport.h"
#include "util/compiler.h"

/* Formats the message for the calling thread and returns `status`, so that callers can write
 * `return gp_error_set(GP_ERR_IO, "%s: %s", path, strerror(errno));`. */
gp_status gp_error_set(gp_status status, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
void gp_error_clear(void);

#endif
