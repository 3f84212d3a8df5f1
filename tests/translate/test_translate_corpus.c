/* test_translate_corpus.c — the outcome of every file of tests/translate/corpus/, as the file
 * states it in its header: "// expect: translated", "// expect: refused CONSTRUCT LINE", or per
 * kernel "// expect kernel NAME: translated|refused CONSTRUCT LINE" (a partial translation); and
 * "// translate flags: ..." for the options. Every refusal must name its construct and line, and
 * with --partial the kernels that are translated must still be in the output. Computing the
 * right thing is test_translate_corpus_run.c. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/corpus_flags.h"
#include "translate/translate.h"
#include "util/fs.h"
#include "util/json.h"

typedef struct expect {
    char kernel[64]; /* "" for the whole file */
    bool translated;
    char construct[96];
    int line;
} expect;

static int parse_expects(const char *src, expect *out, int cap)
{
    int n = 0;
    for (const char *p = strstr(src, "// expect"); p && n < cap; p = strstr(p + 1, "// expect")) {
        char line[256];
        size_t l = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line ? l : sizeof line - 1), p);
        expect e = {0};
        const char *what = line + 9;
        if (!strncmp(what, " kernel ", 8)) {
            what += 8;
            size_t k = strcspn(what, ":");
            snprintf(e.kernel, sizeof e.kernel, "%.*s", (int)k, what);
            what += k;
        }
        if (*what != ':') continue;
        what++;
        while (*what == ' ')
            what++;
        if (!strncmp(what, "translated", 10)) {
            e.translated = true;
        } else if (!strncmp(what, "refused ", 8)) {
            const char *c = what + 8, *sp = strrchr(c, ' ');
            if (!sp) continue;
            snprintf(e.construct, sizeof e.construct, "%.*s", (int)(sp - c), c);
            e.line = atoi(sp + 1);
        } else {
            continue;
        }
        out[n++] = e;
    }
    return n;
}

static bool has_refusal(const cJSON *rep, const char *construct, int line)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(rep, "refusals"))
    {
        if ((int)cJSON_GetObjectItem(r, "line")->valuedouble == line &&
            strstr(gp_json_str(r, "construct", ""), construct))
            return true;
    }
    return false;
}

static const cJSON *kernel_of(const cJSON *rep, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(rep, "kernels"))
    {
        if (!strcmp(gp_json_str(k, "name", ""), name)) return k;
    }
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void every_file_has_its_outcome(void **state)
{
    (void)state;
    const char *root = getenv("GPUPORT_SOURCE_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/translate/corpus", root ? root : ".");
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[256];
    int nn = 0;
    for (struct dirent *de; (de = readdir(d)) && nn < 256;) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".cu")) names[nn++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, cmp_str);
    int files = 0, translated = 0, partial = 0, refused = 0, kernels = 0, kernels_ok = 0;
    for (int f = 0; f < nn; f++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        size_t len;
        char err[512];
        char *src = gp_read_file(path, 1 << 20, false, &len, err, sizeof err);
        if (!src) fail_msg("%s", err);
        expect ex[32];
        int ne = parse_expects(src, ex, 32);
        gp_translate_options flags = {0};
        corpus_flags fl;
        corpus_flags_apply(src, &fl, &flags);
        free(src);
        if (ne == 0) fail_msg("%s states no outcome (// expect: ...)", names[f]);
        for (int partial_mode = 0; partial_mode < 2; partial_mode++) {
            gp_translate_options o = flags;
            o.partial = partial_mode;
            gp_translate_result r;
            gp_translate(path, NULL, 0, &o, &r);
            if (r.status == GP_TRANSLATE_BAD_INPUT) fail_msg("%s: %s", names[f], r.error);
            char *rep = cJSON_Print(r.report);
            bool whole = ex[0].kernel[0] == '\0';
            if (whole && ex[0].translated) {
                if (r.status != GP_TRANSLATE_OK)
                    fail_msg("%s: expected translated, got refusals: %s", names[f], rep);
            } else if (whole) {
                if (r.status != GP_TRANSLATE_REFUSED ||
                    !has_refusal(r.report, ex[0].construct, ex[0].line))
                    fail_msg("%s: expected a refusal '%s' at line %d: %s", names[f],
                             ex[0].construct, ex[0].line, rep);
                if (!partial_mode) assert_null(r.output);
            } else {
                if (r.status != GP_TRANSLATE_REFUSED)
                    fail_msg("%s: expected a partial translation: %s", names[f], rep);
                for (int i = 0; i < ne; i++) {
                    const cJSON *k = kernel_of(r.report, ex[i].kernel);
                    if (!k) fail_msg("%s: no kernel %s in the report", names[f], ex[i].kernel);
                    bool t = cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"));
                    if (t != ex[i].translated)
                        fail_msg("%s: kernel %s %s translated: %s", names[f], ex[i].kernel,
                                 t ? "is" : "is not", rep);
                    if (!t && !has_refusal(r.report, ex[i].construct, ex[i].line))
                        fail_msg("%s: kernel %s: no refusal '%s' at line %d: %s", names[f],
                                 ex[i].kernel, ex[i].construct, ex[i].line, rep);
                    /* with --partial a translated kernel is in the output, outside the part
                     * left out of the build */
                    if (partial_mode && t) {
                        char sig[160];
                        snprintf(sig, sizeof sig, "GP_KERNEL(%.64s,", ex[i].kernel);
                        const char *at = strstr(r.output, sig);
                        while (at && at > r.output && at[-1] != '\n') /* skip commented ones */
                            at = strstr(at + 1, sig);
                        assert_non_null(at);
                        if (at > r.output && at[-1] != '\n')
                            fail_msg("%s: kernel %s is commented out", names[f], ex[i].kernel);
                    }
                }
            }
            /* every refusal names its construct and line */
            const cJSON *x;
            cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "refusals"))
            {
                assert_true(strlen(gp_json_str(x, "construct", "")) > 0);
                assert_true(cJSON_GetObjectItem(x, "line")->valuedouble > 0 ||
                            !strcmp(gp_json_str(x, "construct", ""), "--instantiate"));
            }
            if (!partial_mode) {
                files++;
                const cJSON *k;
                int nk = 0, nt = 0;
                cJSON_ArrayForEach(k, cJSON_GetObjectItem(r.report, "kernels"))
                {
                    nk++;
                    nt += cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"));
                }
                kernels += nk, kernels_ok += nt;
                if (r.status == GP_TRANSLATE_OK)
                    translated++;
                else if (nt)
                    partial++;
                else
                    refused++;
            }
            free(rep);
            gp_translate_result_free(&r);
        }
    }
    fprintf(stderr,
            "corpus: %d files: %d translated, %d partly translated, %d refused; %d of %d kernels "
            "translated\n",
            files, translated, partial, refused, kernels_ok, kernels);
    assert_true(files >= 30);
    for (int f = 0; f < nn; f++)
        free(names[f]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_file_has_its_outcome),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
