/* term.c — see term.h. */
#include "util/term.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool gp_term_use_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(fileno(f)) == 1;
}

const char *gp_term_color(FILE *f, gp_color c)
{
    if (!gp_term_use_color(f)) return "";
    switch (c) {
    case GP_COLOR_RESET: return "\033[0m";
    case GP_COLOR_RED: return "\033[31m";
    case GP_COLOR_GREEN: return "\033[32m";
    case GP_COLOR_YELLOW: return "\033[33m";
    case GP_COLOR_BLUE: return "\033[34m";
    case GP_COLOR_BOLD: return "\033[1m";
    case GP_COLOR_DIM: return "\033[2m";
    }
    return "";
}

static bool progress_shown;

void gp_term_progress(const char *fmt, ...)
{
    if (isatty(STDERR_FILENO) != 1) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\033[K", stderr);
    fflush(stderr);
    va_end(ap);
    progress_shown = true;
}

void gp_term_progress_done(void)
{
    if (!progress_shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress_shown = false;
}
