/* shquote.h — quoting words for the two command-line parsers between us and the remote host:
 * the remote POSIX login shell (ssh sends one string, the shell splits it again) and rsync's
 * own splitting of its -e option. Every word we send passes through one of these. */
#ifndef GP_REMOTE_SHQUOTE_H
#define GP_REMOTE_SHQUOTE_H

#include "util/strbuf.h"

/* Appends `word` quoted for a POSIX shell: always inside single quotes, each embedded ' as
 * '\'' — nothing inside is expanded ($, `, *, ~, \ all stay literal). */
void gp_shquote_append(gp_strbuf *sb, const char *word);
/* Appends `words` (NULL-terminated) quoted and separated by single spaces. */
void gp_shquote_join(gp_strbuf *sb, char *const words[]);
/* Appends `word` as a user would type it: bare when it holds only characters that no shell
 * treats specially (letters, digits, '@%+=:,./_-', not starting with '='), else quoted as
 * gp_shquote_append does. For the commands gpuport shows in its messages, which a user pastes. */
void gp_shquote_display(gp_strbuf *sb, const char *word);
/* Appends `words` (NULL-terminated) as gp_shquote_display does, separated by single spaces. */
void gp_shquote_display_join(gp_strbuf *sb, char *const words[]);
/* The command of the NULL-terminated words after `buf`/`len`, each as gp_shquote_display
 * writes it, in buf (cut to fit). Returns buf, to be used inside a message. */
const char *gp_shquote_cmd(char *buf, size_t len, ...);
/* Appends `word` quoted for rsync's -e splitter (single quotes, an embedded ' doubled). */
void gp_shquote_rsync_append(gp_strbuf *sb, const char *word);

#endif
