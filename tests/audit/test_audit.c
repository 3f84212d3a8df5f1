/* test_audit.c — the lexers' hard cases (f-strings, docstrings, continuations, raw strings,
 * #if 0 / #else, guards, notebooks), the rule table's integrity, and the shapes of the JSON
 * and SARIF 2.1.0 reports (checked field by field through cJSON). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/audit.h"
#include "util/json.h"

/* Scans `text` as file `name`; returns the findings as "line:col sev RULE;" text. */
static char *scan(const char *name, const char *text)
{
    gp_audit_result r;
    gp_audit_result_init(&r);
    gp_audit_scan_bytes(name, text, strlen(text), &r);
    static char out[4096];
    out[0] = '\0';
    for (size_t i = 0; i < r.nf; i++) {
        char one[96];
        if (r.f[i].cell)
            snprintf(one, sizeof one, "c%u:", r.f[i].cell);
        else
            one[0] = '\0';
        snprintf(one + strlen(one), sizeof one - strlen(one), "%u:%u %s %s;", r.f[i].line,
                 r.f[i].col, gp_audit_sev_name(r.f[i].severity),
                 gp_audit_rule_get(r.f[i].rule)->id);
        strncat(out, one, sizeof out - strlen(out) - 1);
    }
    gp_audit_result_free(&r);
    return out;
}

static void test_python_fstrings(void **state)
{
    (void)state;
    /* nested quotes of the same kind (3.12), a '}' inside a nested string, format specs */
    assert_string_equal(
        scan("a.py", "s = f\"{x[\"k\"]}\" + f'{\"}\"}' + f\"{v:{w}}\"\ny = z.cuda()\n"),
        "2:7 warning PY-DEV-001;");
    /* code inside a plain string or an f-string's text is not code */
    assert_string_equal(
        scan("a.py", "s = f\"x.cuda() {{literal}}\"\nt = 'torch.cuda.synchronize()'\n"), "");
}

static void test_python_docstrings_comments(void **state)
{
    (void)state;
    assert_string_equal(
        scan("a.py", "def f():\n    \"\"\"\n    x.cuda()\n    import flash_attn\n    \"\"\"\n"
                     "    # x.cuda()\n    return 1\n"),
        "");
    assert_string_equal(scan("a.py", "r'''\n'''\nx = 1 # '''\ny.cuda()\n"),
                        "4:3 warning PY-DEV-001;");
}

static void test_python_continuations(void **state)
{
    (void)state;
    assert_string_equal(scan("a.py", "x = \\\n    y.cuda()\nz = (a,\n  b.cuda())\n"),
                        "2:7 warning PY-DEV-001;4:5 warning PY-DEV-001;");
}

static void test_python_guards(void **state)
{
    (void)state;
    /* try/except ImportError turns the import into PY-IMP-002; other excepts do not */
    assert_string_equal(scan("a.py", "try:\n    import xformers\nexcept ImportError:\n    pass\n"),
                        "2:12 note PY-IMP-002;");
    assert_string_equal(scan("a.py", "try:\n    import xformers\nexcept KeyError:\n    pass\n"),
                        "2:12 error PY-IMP-001;");
    /* an else branch of a CUDA check is still device-switch code; the guard ends with its block */
    assert_string_equal(scan("a.py",
                             "if not torch.cuda.is_available():\n    pass\nelse:\n    x.cuda()\n"
                             "y.cuda()\n"),
                        "4:7 note PY-DEV-001;5:3 warning PY-DEV-001;");
    /* an environment switch */
    assert_string_equal(
        scan("a.py", "import os\nif os.environ.get('USE_GPU'):\n    torch.cuda.synchronize()\n"),
        "3:5 note PY-DEV-003;");
    /* aliases resolve */
    assert_string_equal(scan("a.py", "import torch as th\nth.cuda.empty_cache()\n"),
                        "2:1 warning PY-DEV-003;");
}

static void test_c_lexer(void **state)
{
    (void)state;
    assert_string_equal(
        scan("a.cpp", "const char *s = R\"x(cudaMalloc \")\" cudaFree)x\"; cudaFree(0);\n"),
        "1:49 error C-RT-001;");
    assert_string_equal(scan("a.c",
                             "#if 0\ncudaMalloc(0);\n#elif defined(USE_CUDA)\ncudaFree(0);\n#else\n"
                             "cudaMemset(0);\n#endif\n"),
                        "4:1 note C-RT-001;6:1 error C-RT-001;");
    assert_string_equal(
        scan("a.c", "#ifndef USE_CUDA\nint a;\n#else\ncudaFree(0);\n#endif\ncudaFree(1);\n"),
        "4:1 note C-RT-001;6:1 error C-RT-001;");
    /* a character literal with a quote, a digit separator, a line-continued comment */
    assert_string_equal(
        scan("a.cpp", "char c = '\"'; int n = 1'000; // x \\\ncudaFree(0);\ncuInit(0);\n"),
        "3:1 error C-DRV-001;");
    /* unterminated comment and string: no crash, nothing after them */
    assert_string_equal(scan("a.c", "int x = \"open\ncudaFree(0); /* open\ncudaMalloc(0);\n"),
                        "2:1 error C-RT-001;");
}

static void test_cmake_and_make(void **state)
{
    (void)state;
    assert_string_equal(scan("CMakeLists.txt",
                             "set(X \"enable_language(CUDA)\")\n#[[\nenable_language(CUDA)\n]]\n"
                             "if(NOT USE_CUDA)\nelse()\n  enable_language(CUDA)\nendif()\n"),
                        "7:19 note CMK-001;");
    assert_string_equal(
        scan("Makefile", "ifndef NO_CUDA\nelse\nX = 1\nendif\nall:\n\tnvcc k.cu # nvcc\n"),
        "6:2 error MK-001;");
}

static void test_notebook(void **state)
{
    (void)state;
    assert_string_equal(
        scan("n.ipynb", "{\"cells\": [{\"cell_type\": \"markdown\", \"source\": \"x.cuda()\"},"
                        "{\"cell_type\": \"code\", \"source\": [\"%time\\n\", \"y.cuda()\\n\"]}]}"),
        "c2:2:3 warning PY-DEV-001;");
    /* nbformat 3: cells in worksheets, the code in "input" */
    assert_string_equal(
        scan("o.ipynb",
             "{\"nbformat\": 3, \"worksheets\": [{\"cells\": [{\"cell_type\": \"markdown\", "
             "\"source\": \"x\"}, {\"cell_type\": \"code\", \"input\": [\"y.cuda()\\n\"]}]}]}"),
        "c2:1:3 warning PY-DEV-001;");
    gp_audit_result r;
    gp_audit_result_init(&r);
    gp_audit_scan_bytes("n.ipynb", "{\"cells\": [", 11, &r);
    assert_non_null(r.problem);
    gp_audit_result_free(&r);
    gp_audit_result_init(
        &r); /* JSON, but no cells of either format: said, not passed off as clean */
    gp_audit_scan_bytes("e.ipynb", "{\"metadata\": {}}", 16, &r);
    assert_non_null(r.problem);
    gp_audit_result_free(&r);
}

static void test_rule_table(void **state)
{
    (void)state;
    assert_true(GP_R_COUNT >= 38);
    for (int i = 0; i < GP_R_COUNT; i++) {
        const gp_audit_rule *r = gp_audit_rule_get(i);
        assert_non_null(r->id);
        assert_true(strlen(r->name) > 0 && strlen(r->explanation) > 10 && strlen(r->fix) > 3);
        assert_true(r->langs != 0);
        assert_true(r->severity >= GP_SEV_NOTE);
        int idx = -1;
        assert_ptr_equal(gp_audit_rule_find(r->id, &idx), r);
        assert_int_equal(idx, i);
        if (r->guarded_as >= 0) assert_non_null(gp_audit_rule_get(r->guarded_as));
    }
}

/* Runs the audit of a fixture folder and parses the report. */
static cJSON *run_report(const char *fixture, gp_audit_format fmt)
{
    const char *src = getenv("GPUPORT_SOURCE_DIR");
    assert_non_null(src);
    char dir[1024], cwd[1024];
    snprintf(dir, sizeof dir, "%s/tests/audit/fixtures/%s", src, fixture);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gp_audit_options o;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.jobs = 2;
    o.fail_on = GP_SEV_ERROR;
    char msg[600];
    int rc = gp_audit_run(&o, f, msg, sizeof msg);
    if (rc > 1) fprintf(stderr, "%s\n", msg);
    fclose(f);
    assert_int_equal(chdir(cwd), 0);
    assert_true(rc == 0 || rc == 1);
    char err[256];
    cJSON *j = gp_json_parse("report", buf, len, err, sizeof err);
    if (!j) fprintf(stderr, "%s\n", err);
    assert_non_null(j);
    free(buf);
    return j;
}

static const char *str_of(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static bool is_level(const char *s)
{
    return strcmp(s, "note") == 0 || strcmp(s, "warning") == 0 || strcmp(s, "error") == 0;
}

static void test_sarif_shape(void **state)
{
    (void)state;
    cJSON *j = run_report("stops/custom_kernels", GP_AUDIT_SARIF);
    assert_string_equal(str_of(j, "version"), "2.1.0");
    assert_non_null(strstr(str_of(j, "$schema"), "sarif-2.1.0"));
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
    assert_int_equal(cJSON_GetArraySize(runs), 1);
    const cJSON *run = cJSON_GetArrayItem(runs, 0);
    const cJSON *driver =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "tool"), "driver");
    assert_string_equal(str_of(driver, "name"), "gpuport");
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(driver, "rules");
    assert_int_equal(cJSON_GetArraySize(rules), GP_R_COUNT);
    const cJSON *rule;
    cJSON_ArrayForEach(rule, rules)
    {
        assert_non_null(gp_audit_rule_find(str_of(rule, "id"), NULL));
        str_of(cJSON_GetObjectItemCaseSensitive(rule, "shortDescription"), "text");
        str_of(cJSON_GetObjectItemCaseSensitive(rule, "fullDescription"), "text");
        str_of(cJSON_GetObjectItemCaseSensitive(rule, "help"), "text");
        assert_true(is_level(
            str_of(cJSON_GetObjectItemCaseSensitive(rule, "defaultConfiguration"), "level")));
        assert_null(
            cJSON_GetObjectItemCaseSensitive(rule, "properties")); /* no security-severity */
    }
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(run, "results");
    assert_int_equal(cJSON_GetArraySize(results), 3); /* include, __global__, <<< */
    const cJSON *res;
    cJSON_ArrayForEach(res, results)
    {
        int idx = -1;
        assert_non_null(gp_audit_rule_find(str_of(res, "ruleId"), &idx));
        assert_int_equal(cJSON_GetObjectItemCaseSensitive(res, "ruleIndex")->valueint, idx);
        assert_true(is_level(str_of(res, "level")));
        assert_true(strlen(str_of(cJSON_GetObjectItemCaseSensitive(res, "message"), "text")) > 0);
        const cJSON *locs = cJSON_GetObjectItemCaseSensitive(res, "locations");
        assert_int_equal(cJSON_GetArraySize(locs), 1);
        const cJSON *phys =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(locs, 0), "physicalLocation");
        const char *uri = str_of(cJSON_GetObjectItemCaseSensitive(phys, "artifactLocation"), "uri");
        assert_string_equal(uri, "csrc/add.cu"); /* repository-relative */
        const cJSON *reg = cJSON_GetObjectItemCaseSensitive(phys, "region");
        assert_true(cJSON_GetObjectItemCaseSensitive(reg, "startLine")->valueint >= 1);
        const cJSON *pf = cJSON_GetObjectItemCaseSensitive(res, "partialFingerprints");
        assert_true(cJSON_IsObject(pf) && cJSON_GetArraySize(pf) == 1);
        assert_int_equal(strlen(pf->child->valuestring), 32);
    }
    cJSON_Delete(j);
}

static void test_json_shape(void **state)
{
    (void)state;
    cJSON *j = run_report("stops/stub_cpu", GP_AUDIT_JSON);
    assert_string_equal(str_of(j, "schema"), "gpuport.audit/1");
    assert_string_equal(str_of(j, "verdict"), "needs-rewrite");
    assert_string_equal(str_of(j, "effort"), "high");
    const cJSON *mods = cJSON_GetObjectItemCaseSensitive(j, "modules");
    assert_int_equal(cJSON_GetArraySize(mods), 1);
    assert_string_equal(str_of(cJSON_GetArrayItem(mods, 0), "path"), "csrc");
    assert_string_equal(str_of(cJSON_GetArrayItem(mods, 0), "kind"), "directory");
    const cJSON *stops = cJSON_GetObjectItemCaseSensitive(j, "stop_conditions");
    assert_int_equal(cJSON_GetArraySize(stops), 1);
    assert_string_equal(str_of(cJSON_GetArrayItem(stops, 0), "id"), "custom-cuda-kernels");
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(j, "findings");
    const cJSON *f0 = cJSON_GetArrayItem(fs, 0);
    assert_string_equal(str_of(f0, "rule"), "C-INC-001");
    assert_string_equal(str_of(f0, "file"), "csrc/add.cu");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(f0, "line")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(f0, "column")->valueint, 11);
    assert_string_equal(str_of(f0, "severity"), "error");
    str_of(f0, "message");
    str_of(f0, "fix");
    const cJSON *last = cJSON_GetArrayItem(fs, cJSON_GetArraySize(fs) - 1);
    assert_string_equal(str_of(last, "rule"), "PY-EXT-003");
    assert_string_equal(str_of(last, "file"), "csrc/add_cpu.cpp");
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_python_fstrings),
        cmocka_unit_test(test_python_docstrings_comments),
        cmocka_unit_test(test_python_continuations),
        cmocka_unit_test(test_python_guards),
        cmocka_unit_test(test_c_lexer),
        cmocka_unit_test(test_cmake_and_make),
        cmocka_unit_test(test_notebook),
        cmocka_unit_test(test_rule_table),
        cmocka_unit_test(test_sarif_shape),
        cmocka_unit_test(test_json_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
