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
/* Appends `word` quoted for rsync's -e splitter (single quotes, an embedded ' doubled). */
void gp_shquote_rsync_append(gp_strbuf *sb, const char *word);

#endif
