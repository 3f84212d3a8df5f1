/* build.c — the text of a checked CPU program: the dialect prelude as the core assembled it (its
 * defines are not needed: the front end expanded them in the source), the check prelude
 * (prelude.h, embedded at build time), and the user's source parsed and printed back with every
 * access instrumented (instrument.c), under #line directives that keep the user's lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/check/check.h"
#include "runtime/cpu/check/instrument.h"
#include "runtime/cpu/gpk/gpk.h"
#include "util/strbuf.h"

extern const char gp_check_prelude_text[];
extern const size_t gp_check_prelude_text_len;

/* The prelude part of the core's assembled text (see gp_build_request): from the kernel.h #line
 * to the #line that starts the user's source. */
bool gp_ck_prelude_part(const gp_build_request *req, const char **from, size_t *n)
{
    static const char mark[] = "#line 1 \"gpuport/kernel.h\"\n";
    const char *s = req->source;
    const char *k = strstr(s, mark);
    if (!k || req->source_len < req->user_source_len + 1) return false;
    const char *end = s + (req->source_len - req->user_source_len - 1);
    /* back over the `#line 1 "<name>"` line in front of the user's source */
    const char *e = end;
    if (e > s && e[-1] == '\n') e--;
    while (e > k && e[-1] != '\n')
        e--;
    if (e <= k || strncmp(e, "#line 1 \"", 9) != 0) return false;
    *from = k;
    *n = (size_t)(e - k);
    return true;
}

gp_status gp_ck_program_text(const gp_build_request *req, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    const char *pre;
    size_t npre;
    if (!gp_ck_prelude_part(req, &pre, &npre))
        return gp_error_set(GP_ERR_INTERNAL, "%s: the assembled source has no prelude",
                            req->source_name);
    gk_unit u;
    char err[600];
    if (gk_parse(&u, req->user_source, req->user_source_len, req->source_name, req->defines,
                 req->num_defines, err, sizeof err) != 0) {
        gk_unit_free(&u);
        return gp_error_set(GP_ERR_BUILD, "%s", err);
    }
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_append(&sb, pre, npre);
    gp_strbuf_puts(&sb, "\n#line 1 \"gpuport/check.h\"\n");
    gp_strbuf_append(&sb, gp_check_prelude_text, gp_check_prelude_text_len);
    gp_strbuf_putc(&sb, '\n');
    int rc = gp_ck_instrument(&u, &sb, err, sizeof err);
    gk_unit_free(&u);
    if (rc != 0) {
        gp_strbuf_free(&sb);
        return gp_error_set(GP_ERR_BUILD, "%s", err);
    }
    if (sb.failed) {
        gp_strbuf_free(&sb);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory instrumenting %s",
                            req->source_name);
    }
    *len = sb.len;
    *text = gp_strbuf_take(&sb);
    return GP_OK;
}
