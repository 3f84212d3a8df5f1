/* shquote.h — text that a POSIX shell reads back as exactly one word, for the commands gpuport
 * prints for the user to paste (a path or an argument is never run as shell syntax). */
#ifndef GP_UTIL_SHQUOTE_H
#define GP_UTIL_SHQUOTE_H

/* A heap copy of `s` (free() it), unchanged when every character is one a shell takes
 * literally (letters, digits, and _ - . / , : = + @ %), else in single quotes, with each ' written
 * as '\''. The empty string becomes ''. NULL when out of memory. */
char *gp_shell_quote(const char *s);

#endif
