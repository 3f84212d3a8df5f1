/* lines.c — see lines.h. */
#include "audit/lines.h"

#include <string.h>

void gp_line_reader_init(gp_line_reader *lr, gp_audit_source *s, bool join)
{
    lr->src = s;
    lr->pos = gp_audit_source_bom(s);
    lr->next_line = 1;
    lr->join = join;
}

bool gp_line_next(gp_line_reader *lr, gp_line *l)
{
    const char *d = lr->src->data;
    size_t n = lr->src->size;
    if (lr->pos >= n) return false;
    gp_audit_source_release(lr->src, lr->pos);
    l->off = lr->pos;
    l->line = lr->next_line;
    size_t p = lr->pos;
    for (;;) {
        const char *e = gp_audit_source_memchr(lr->src, p, n, '\n');
        size_t end = e ? (size_t)(e - d) : n;
        lr->next_line++;
        size_t last = end;
        while (last > p && d[last - 1] == '\r')
            last--;
        if (lr->join && last > p && d[last - 1] == '\\' && end < n) {
            p = end + 1;
            continue;
        }
        l->len = last - l->off;
        /* (the rest of an overlong line is not looked at: no build line or requirement is
         * that long, and its bytes would all be resident at once) */
        if (l->len > GP_LINE_CAP) l->len = GP_LINE_CAP;
        lr->pos = end < n ? end + 1 : n;
        return true;
    }
}

void gp_line_locate(const gp_audit_source *s, const gp_line *l, size_t off, uint32_t *line,
                    size_t *line_off)
{
    *line = l->line;
    *line_off = l->off;
    for (size_t i = l->off; i < off && i < s->size; i++)
        if (s->data[i] == '\n') {
            (*line)++;
            *line_off = i + 1;
        }
}
