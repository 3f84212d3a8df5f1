/* compare.c — see compare.h. Local globbing with gp_glob (glob(3); no shell); the verdict counts a
 * missing remote file as a difference, never as a pass. */
#include "remote/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/proc.h"
#include "remote/selfexe.h"
#include "remote/shquote.h"
#include "util/fs.h"
#include "util/match.h"
#include "util/term.h"

static void compare_chomp(char *e)
{
    size_t n = e ? strlen(e) : 0;
    while (n && (e[n - 1] == '\n' || e[n - 1] == '\r'))
        e[--n] = '\0';
}

/* The text after `prefix` on the first line of `report` that starts with it (leading spaces
 * of the line skipped), up to the line's end; NULL when there is none. */
static const char *detail_line(const char *report, const char *prefix, size_t *n)
{
    size_t pl = strlen(prefix);
    for (const char *p = report; p && *p;) {
        const char *s = p;
        while (*s == ' ')
            s++;
        const char *nl = strchr(p, '\n');
        if (strncmp(s, prefix, pl) == 0) {
            s += pl;
            while (*s == ' ')
                s++;
            *n = (size_t)((nl ? nl : s + strlen(s)) - s);
            return s;
        }
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

const char *gp_remote_compare_detail(const char *report, char *buf, size_t len)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    size_t n = 0, fails = 0;
    const char *first = NULL;
    size_t first_n = 0;
    for (const char *p = report; p && *p;) {
        const char *nl = strchr(p, '\n');
        if (strncmp(p, "FAIL  ", 6) == 0) {
            if (!first) first = p + 6, first_n = (size_t)((nl ? nl : p + strlen(p)) - first);
            fails++;
        }
        p = nl ? nl + 1 : NULL;
    }
    if (first) {
        /* "NAME  DTYPE [SHAPE]  -- WHY": keep the name and why */
        const char *dash = NULL;
        for (size_t i = 0; i + 3 < first_n && !dash; i++)
            if (strncmp(first + i, "  -- ", 5) == 0) dash = first + i;
        size_t name_n = strcspn(first, " ");
        if (name_n > first_n) name_n = first_n;
        gp_strbuf_append(&sb, first, name_n);
        if (dash) {
            gp_strbuf_puts(&sb, ": ");
            gp_strbuf_append(&sb, dash + 5, first_n - (size_t)(dash + 5 - first));
        }
        /* the numbers of that tensor: its lines come right after its FAIL line */
        const char *after = first + first_n;
        const char *end = strstr(after, "\nFAIL");
        gp_strbuf tensor = GP_STRBUF_INIT;
        gp_strbuf_append(&tensor, after, end ? (size_t)(end - after) : strlen(after));
        static const char *const keys[] = {"max abs", "max rel", "would pass"};
        for (size_t k = 0; k < 3; k++) {
            const char *v = detail_line(gp_strbuf_cstr(&tensor), keys[k], &n);
            if (!v) continue;
            /* "max rel      2   NMSE 2.57" keeps only the first number */
            size_t take = n;
            if (k == 1) {
                const char *gap = strstr(v, "   ");
                if (gap && (size_t)(gap - v) < n) take = (size_t)(gap - v);
            }
            gp_strbuf_printf(&sb, "; %s %.*s", keys[k], (int)take, v);
        }
        gp_strbuf_free(&tensor);
        if (fails > 2)
            gp_strbuf_printf(&sb, "; %zu more tensors fail", fails - 2);
        else if (fails == 2)
            gp_strbuf_puts(&sb, "; 1 more tensor fails");
    }
    /* compare's own summary, its last line */
    const char *last = report;
    for (const char *p = report; *p; p++)
        if (*p == '\n' && p[1]) last = p + 1;
    size_t ln = strcspn(last, "\n");
    if (ln) gp_strbuf_printf(&sb, "%s%.*s", sb.len ? "; " : "", (int)ln, last);
    snprintf(buf, len, "%s", sb.failed ? "" : gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return buf;
}

/* 0 same, 1 differ, 2 compare unavailable (msg), 3 compare could not judge (msg). */
static int compare_pair(const char *tmpdir, const char *a, const char *b,
                        const gp_remote_compare_opts *o, char *msg, size_t msglen)
{
    gp_argv args = {0};
    gp_argv_push(&args, "compare");
    if (o && o->rtol) gp_argv_push(&args, "--rtol"), gp_argv_push(&args, o->rtol);
    if (o && o->atol) gp_argv_push(&args, "--atol"), gp_argv_push(&args, o->atol);
    if (o && o->policy) gp_argv_push(&args, "--policy"), gp_argv_push(&args, o->policy);
    gp_argv_push(&args, "--");
    gp_argv_push(&args, a);
    gp_argv_push(&args, b);
    char *out = NULL, *eout = NULL, why[512];
    int unknown = 0;
    int code = args.failed ? -1
                           : gp_self_run(tmpdir, args.v, 1u << 20, &out, NULL, &eout, &unknown, why,
                                         sizeof why);
    if (args.failed) snprintf(why, sizeof why, "out of memory");
    gp_argv_free(&args);
    compare_chomp(eout);
    int rc;
    if (unknown) {
        snprintf(msg, msglen, "compare not run: this gpuport has no `compare`");
        rc = 2;
    } else if (code < 0) {
        snprintf(msg, msglen, "compare not run: %s", why);
        rc = 2;
    } else if (code == 0 || code == 1) {
        /* One line per pair: compare's summary after our word; for a difference, by how much. */
        compare_chomp(out);
        char detail[2048];
        gp_remote_compare_detail(out ? out : "", detail, sizeof detail);
        printf("%-9s %s  (%s)\n", code == 0 ? "same" : "DIFFERENT", a, detail);
        rc = code;
    } else {
        char cmd[1024];
        snprintf(msg, msglen, "%s exited %d: %s",
                 gp_shquote_cmd(cmd, sizeof cmd, "gpuport", "compare", a, b, NULL), code,
                 eout ? eout : "");
        rc = 3;
    }
    free(out);
    free(eout);
    return rc;
}

int gp_remote_compare(const char *tmpdir, const char *glob_pat, const char *fetched,
                      const char *name, const gp_remote_compare_opts *opts, char *msg,
                      size_t msglen)
{
    char **matches = NULL;
    size_t nmatches = 0;
    if (gp_glob(glob_pat, &matches, &nmatches) != 0 || nmatches == 0) {
        gp_glob_free(matches, nmatches);
        gp_strbuf q = GP_STRBUF_INIT;
        gp_shquote_display(&q, glob_pat);
        snprintf(msg, msglen, "nothing here matches --compare %s", gp_strbuf_cstr(&q));
        gp_strbuf_free(&q);
        return 2;
    }
    size_t same = 0, differ = 0, missing = 0, failed = 0;
    int rc = 0;
    for (size_t i = 0; i < nmatches && rc != 2; i++) {
        const char *local = matches[i];
        char *remote = gp_path_join(fetched, local);
        if (!remote) {
            failed++;
            continue;
        }
        if (!gp_path_exists(remote)) {
            printf("%-9s %s  (no counterpart from %s: %s)\n", "MISSING", local, name, remote);
            missing++;
        } else {
            int c = compare_pair(tmpdir, local, remote, opts, msg, msglen);
            if (c == 0)
                same++;
            else if (c == 1)
                differ++;
            else if (c == 2)
                rc = 2;
            else {
                fprintf(stderr, "gpuport remote: %s\n", msg);
                failed++;
            }
        }
        free(remote);
    }
    size_t total = nmatches;
    gp_glob_free(matches, nmatches);
    if (rc == 2) return 2;
    const char *col =
        gp_term_color(stdout, differ + missing + failed ? GP_COLOR_RED : GP_COLOR_GREEN);
    const char *z = gp_term_color(stdout, GP_COLOR_RESET);
    if (differ + missing + failed == 0) {
        if (total == 1)
            printf("%sverdict: same — the pair agrees between here and %s%s\n", col, name, z);
        else
            printf("%sverdict: same — all %zu pairs agree between here and %s%s\n", col, total,
                   name, z);
        return 0;
    }
    printf("%sverdict: different — %zu of %zu pairs differ, %zu lack a file from %s, %zu could "
           "not be compared%s\n",
           col, differ, total, missing, name, failed, z);
    return 1;
}
