/* term.h — terminal conventions shared by every subcommand: colour only on a terminal and never
 * with NO_COLOR (or TERM=dumb); progress lines on stderr only when stderr is a terminal; outside
 * text (file names, names and values read from files) printed with its control characters
 * escaped, so that a name cannot drive the terminal. */
#ifndef GP_UTIL_TERM_H
#define GP_UTIL_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "util/compiler.h"
#include "util/strbuf.h"

typedef enum gp_color {
    GP_COLOR_RESET,
    GP_COLOR_RED,
    GP_COLOR_GREEN,
    GP_COLOR_YELLOW,
    GP_COLOR_BLUE,
    GP_COLOR_BOLD,
    GP_COLOR_DIM
} gp_color;

/* Once, at the start of a program: on Windows, console output in UTF-8 (the code page gpuport
 * writes in) and the standard streams in binary mode (no CRLF translation, as on POSIX);
 * nothing elsewhere. */
void gp_term_init(void);
/* After a failed write to `f`: true when it failed because the reader is gone (a pipe closed at
 * the far end: EPIPE; on Windows, whose C runtime says EINVAL there: any failed write to a pipe).
 */
bool gp_term_reader_gone(FILE *f);
/* True when `f` is a terminal (a Windows console). */
bool gp_term_is_terminal(FILE *f);
/* Makes the terminal of `f` understand escape sequences (Windows consoles: virtual terminal
 * mode, Windows 10 and later); false where it cannot. Always true on POSIX. */
bool gp_term_enable_vt(FILE *f);
/* True when `f` is a terminal that takes escape sequences, NO_COLOR is unset or empty, and
 * TERM is not "dumb". */
bool gp_term_use_color(FILE *f);
/* The escape sequence for `c`, or "" when colour is off for `f`. */
const char *gp_term_color(FILE *f, gp_color c);
/* Prints a transient progress line on stderr ("\r...\033[K") when stderr is a terminal;
 * nothing otherwise. gp_term_progress_done() clears it. */
void gp_term_progress(const char *fmt, ...) GP_PRINTF_LIKE(1, 2);
void gp_term_progress_done(void);

/* Appends `s` to sb with every byte that could move the cursor or start an escape sequence
 * written as a C escape: C0 controls and DEL as \n, \r, \t or \xNN, C1 controls (U+0080 to
 * U+009F) and bytes that are not UTF-8 as \xNN; other UTF-8 text as it is. `keep_lines` leaves
 * newline and tab alone (multi-line messages such as a compiler's log). */
void gp_term_escape(gp_strbuf *sb, const char *s, bool keep_lines);
/* `s` made safe to print the same way: `s` itself when nothing needs escaping, else the escaped
 * text in buf (n bytes; cut short with "..." when it does not fit). For printf arguments:
 *   char b[GP_TERM_SAFE_MAX]; printf("%s\n", gp_term_safe(path, b, sizeof b)); */
const char *gp_term_safe(const char *s, char *buf, size_t n);
#define GP_TERM_SAFE_MAX 4096

/* The noun that goes with a count, for messages: "%zu %s", n, gp_plural(n, "file", "files"). */
static inline const char *gp_plural(unsigned long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

#endif
