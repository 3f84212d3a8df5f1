/* lines.h — a reader of logical lines for the line-oriented formats (Makefiles, shell,
 * requirements, TOML, setup.cfg, YAML, Dockerfiles): joins backslash continuations when asked,
 * caps a line's length for analysis, and releases consumed pages of large files. */
#ifndef GP_AUDIT_LINES_H
#define GP_AUDIT_LINES_H

#include "audit/source.h"

/* A logical line is looked at up to this length (GP_AUDIT_CHUNK: 1 MiB). */
#define GP_LINE_CAP GP_AUDIT_CHUNK

typedef struct gp_line_reader {
    gp_audit_source *src;
    size_t pos;
    uint32_t next_line;
    bool join; /* join lines ending in a backslash */
} gp_line_reader;

typedef struct gp_line {
    size_t off, len; /* the first physical line when joined: [off, off+len) spans them all */
    uint32_t line;
} gp_line;

void gp_line_reader_init(gp_line_reader *lr, gp_audit_source *s, bool join);
bool gp_line_next(gp_line_reader *lr, gp_line *l);

/* Physical line and its start offset for a byte offset inside a joined line. */
void gp_line_locate(const gp_audit_source *s, const gp_line *l, size_t off, uint32_t *line,
                    size_t *line_off);

#endif
