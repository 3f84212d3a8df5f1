/* stderr_capture.h — what a vendor library writes to the process's stderr (file descriptor 2)
 * during one call, caught so that it can go into gpuport's own message instead of beside it
 * (PoCL's compiler prints "1 error generated." there, next to the build log it also returns).
 * Process-wide by nature: one capture runs at a time (a lock); what other threads write to stderr
 * meanwhile is caught too and is the caller's to write back (gp_stderr_capture_replay). */
#ifndef GP_UTIL_STDERR_CAPTURE_H
#define GP_UTIL_STDERR_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gp_stderr_capture {
    int saved;   /* the real stderr, or -1 when nothing is being captured */
    int file;    /* an unlinked temporary file receiving fd 2 */
    bool locked; /* holds the capture lock */
} gp_stderr_capture;

/* Points fd 2 at a temporary file until gp_stderr_capture_end. When that cannot be done (no
 * temporary file), nothing is captured and the call writes to stderr as usual. */
void gp_stderr_capture_begin(gp_stderr_capture *c);
/* Restores fd 2 and returns what was written meanwhile (a NUL-terminated heap string, free() it;
 * NULL when nothing was captured), at most `cap` bytes of it. */
char *gp_stderr_capture_end(gp_stderr_capture *c, size_t cap);
/* Writes `text` to stderr, leaving out every line that `drop` says is already in gpuport's
 * message (drop may be NULL: everything is written). */
void gp_stderr_capture_replay(const char *text,
                              bool (*drop)(const char *line, size_t len, void *ctx), void *ctx);

#endif
