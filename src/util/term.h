/* term.h — terminal conventions shared by every subcommand: colour only on a terminal and never
 * with NO_COLOR (or TERM=dumb); progress lines on stderr only when stderr is a terminal. */
#ifndef GP_UTIL_TERM_H
#define GP_UTIL_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "util/compiler.h"

typedef enum gp_color { GP_COLOR_RESET, GP_COLOR_RED, GP_COLOR_GREEN, GP_COLOR_YELLOW,
                        GP_COLOR_BLUE, GP_COLOR_BOLD, GP_COLOR_DIM } gp_color;

/* True when `f` is a terminal, NO_COLOR is unset or empty, and TERM is not "dumb". */
bool gp_term_use_color(FILE *f);
/* The escape sequence for `c`, or "" when colour is off for `f`. */
const char *gp_term_color(FILE *f, gp_color c);
/* Prints a transient progress line on stderr ("\r...\033[K") when stderr is a terminal;
 * nothing otherwise. gp_term_progress_done() clears it. */
void gp_term_progress(const char *fmt, ...) GP_PRINTF_LIKE(1, 2);
void gp_term_progress_done(void);

#endif
