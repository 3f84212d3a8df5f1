/* stdout_capture.h — what vendor libraries write to the process's stdout (file descriptor 1)
 * during a stretch of work, caught instead of printed: the printf of OpenCL and CUDA kernels while
 * `gpuport run --json` keeps stdout for its JSON document. Process-wide by nature, like
 * stderr_capture.h: use it where one thread does the work. */
#ifndef GP_UTIL_STDOUT_CAPTURE_H
#define GP_UTIL_STDOUT_CAPTURE_H

#include <stddef.h>

typedef struct gp_stdout_capture {
    int saved; /* the real stdout, or -1 when nothing is being captured */
    int file;  /* an unlinked temporary file receiving fd 1 */
} gp_stdout_capture;

/* Points fd 1 at a temporary file until gp_stdout_capture_end (stdout is flushed first). When
 * that cannot be done (no temporary file, or a platform without dup2), nothing is captured. */
void gp_stdout_capture_begin(gp_stdout_capture *c);
/* Restores fd 1 and returns what was written meanwhile (a NUL-terminated heap string, free() it;
 * NULL when nothing was captured), at most `cap` bytes of it. */
char *gp_stdout_capture_end(gp_stdout_capture *c, size_t cap);

#endif
