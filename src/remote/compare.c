/* compare.c — see compare.h. Local globbing with glob(3) (no shell); the verdict counts a
 * missing remote file as a difference, never as a pass. */
#include "remote/compare.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/selfexe.h"
#include "util/fs.h"
#include "util/term.h"

static void compare_chomp(char *e)
{
    size_t n = e ? strlen(e) : 0;
    while (n && (e[n - 1] == '\n' || e[n - 1] == '\r'))
        e[--n] = '\0';
}

/* 0 same, 1 differ, 2 compare unavailable (msg), 3 compare could not judge (msg). */
static int compare_pair(const char *tmpdir, const char *a, const char *b, char *msg,
                        unsigned long msglen)
{
    char *const args[] = {"compare", (char *)a, (char *)b, NULL};
    char *out = NULL, *eout = NULL, why[512];
    int unknown = 0;
    int code = gp_self_run(tmpdir, args, 1u << 20, &out, NULL, &eout, &unknown, why, sizeof why);
    compare_chomp(eout);
    int rc;
    if (unknown) {
        snprintf(msg, msglen, "compare not run: this gpuport has no `compare`");
        rc = 2;
    } else if (code < 0) {
        snprintf(msg, msglen, "compare not run: %s", why);
        rc = 2;
    } else if (code == 0 || code == 1) {
        /* One line per pair: compare's own last line (its summary) after our word. */
        compare_chomp(out);
        const char *last = out ? strrchr(out, '\n') : NULL;
        last = last ? last + 1 : (out ? out : "");
        printf("%-9s %s  (%s)\n", code == 0 ? "same" : "DIFFERENT", a, last);
        rc = code;
    } else {
        snprintf(msg, msglen, "gpuport compare %s %s exited %d: %s", a, b, code, eout ? eout : "");
        rc = 3;
    }
    free(out);
    free(eout);
    return rc;
}

int gp_remote_compare(const char *tmpdir, const char *glob_pat, const char *fetched,
                      const char *name, char *msg, unsigned long msglen)
{
    glob_t g;
    memset(&g, 0, sizeof g);
    if (glob(glob_pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        globfree(&g);
        snprintf(msg, msglen, "nothing here matches --compare '%s'", glob_pat);
        return 2;
    }
    size_t same = 0, differ = 0, missing = 0, failed = 0;
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc && rc != 2; i++) {
        const char *local = g.gl_pathv[i];
        char *remote = gp_path_join(fetched, local);
        if (!remote) {
            failed++;
            continue;
        }
        if (!gp_path_exists(remote)) {
            printf("%-9s %s  (no counterpart from %s: %s)\n", "MISSING", local, name, remote);
            missing++;
        } else {
            int c = compare_pair(tmpdir, local, remote, msg, msglen);
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
    size_t total = g.gl_pathc;
    globfree(&g);
    if (rc == 2) return 2;
    const char *col =
        gp_term_color(stdout, differ + missing + failed ? GP_COLOR_RED : GP_COLOR_GREEN);
    const char *z = gp_term_color(stdout, GP_COLOR_RESET);
    if (differ + missing + failed == 0) {
        printf("%sverdict: same — all %zu pairs agree between here and %s%s\n", col, total, name,
               z);
        return 0;
    }
    printf("%sverdict: different — %zu of %zu pairs differ, %zu lack a file from %s, %zu could "
           "not be compared%s\n",
           col, differ, total, missing, name, failed, z);
    return 1;
}
