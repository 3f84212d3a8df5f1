/* test_freeze.c — the freeze manifest: collectors on fixture trees, validation of hostile
 * manifests (as a cJSON tree and through the one-pass reader gp_freeze_load, which must agree),
 * and the diff of two runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "freeze/collect.h"
#include "freeze/freeze.h"
#include "util/json.h"
#include "util/sha256.h"
#include "skip.h"

static char fixtures[1024];
static char tmpdir[64];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void data_hashes_files_and_folders_in_order(void **state)
{
    (void)state;
    char a[256], sub[256], b[256], err[512];
    snprintf(a, sizeof a, "%s/a.bin", tmpdir);
    snprintf(sub, sizeof sub, "%s/sub", tmpdir);
    snprintf(b, sizeof b, "%s/sub/b.bin", tmpdir);
    write_text(a, "abc");
    assert_int_equal(mkdir(sub, 0700), 0);
    write_text(b, "");
    char link[256];
    snprintf(link, sizeof link, "%s/sub/link", tmpdir);
    assert_int_equal(symlink(a, link), 0); /* links inside folders are not followed */
    const char *paths[] = {sub, a};
    cJSON *d = gp_freeze_data(paths, 2, 2, err, sizeof err);
    assert_non_null(d);
    assert_int_equal(cJSON_GetArraySize(d), 2);
    cJSON *e0 = cJSON_GetArrayItem(d, 0), *e1 = cJSON_GetArrayItem(d, 1);
    assert_string_equal(gp_json_str(e0, "path", ""), b);
    assert_string_equal(gp_json_str(e0, "sha256", ""),
                        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_string_equal(gp_json_str(e1, "path", ""), a);
    assert_string_equal(gp_json_str(e1, "sha256", ""),
                        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal((int)cJSON_GetObjectItem(e1, "size")->valuedouble, 3);
    cJSON_Delete(d);

    const char *missing[] = {"/nonexistent/data.npy"};
    assert_null(gp_freeze_data(missing, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/data.npy: "));
}

static void python_distributions_from_metadata(void **state)
{
    (void)state;
    char site[1100];
    snprintf(site, sizeof site, "%s/site", fixtures);
    setenv("PYTHONPATH", site, 1);
    cJSON *py = gp_freeze_python(NULL);
    unsetenv("PYTHONPATH");
    if (cJSON_IsFalse(cJSON_GetObjectItem(py, "available"))) {
        cJSON_Delete(py);
        GP_TEST_SKIP("no python3 on this machine");
    }
    cJSON *d = cJSON_GetObjectItem(py, "distributions");
    assert_non_null(d);
    assert_string_equal(gp_json_str(d, "demo-pkg", ""), "1.2.3"); /* header, not the body */
    assert_string_equal(gp_json_str(d, "legacy", ""), "0.9");
    assert_string_equal(gp_json_str(d, "noversion", ""), "unknown");
    assert_non_null(gp_json_str(py, "version", NULL));
    cJSON_Delete(py);

    cJSON *bad = gp_freeze_python("/nonexistent/python3");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(bad, "available")));
    assert_non_null(strstr(gp_json_str(bad, "reason", ""), "/nonexistent/python3"));
    cJSON_Delete(bad);
}

static void conda_packages_from_conda_meta(void **state)
{
    (void)state;
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s/conda", fixtures);
    setenv("CONDA_PREFIX", prefix, 1);
    cJSON *c = gp_freeze_conda();
    unsetenv("CONDA_PREFIX");
    cJSON *p = cJSON_GetObjectItem(c, "packages");
    assert_non_null(p);
    assert_int_equal(cJSON_GetArraySize(p), 2);
    assert_string_equal(gp_json_str(p, "pytorch-cuda", ""), "12.1-ha16c6d3_5");
    assert_string_equal(gp_json_str(p, "numpy", ""), "1.26.4-py311h64a7726_0");
    cJSON_Delete(c);
    cJSON *none = gp_freeze_conda();
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(none, "available")));
    cJSON_Delete(none);
}

static void environment_records_only_result_changing_variables(void **state)
{
    (void)state;
    setenv("PYTORCH_ENABLE_MPS_FALLBACK", "1", 1);
    setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
    setenv("GPUPORT_TEST_ONLY_VAR", "x", 1);
    setenv("HOME_NOT_RECORDED_X", "y", 1);
    cJSON *env = gp_freeze_environment();
    assert_string_equal(gp_json_str(env, "PYTORCH_ENABLE_MPS_FALLBACK", ""), "1");
    assert_string_equal(gp_json_str(env, "CUDA_VISIBLE_DEVICES", ""), "0,1");
    assert_string_equal(gp_json_str(env, "GPUPORT_TEST_ONLY_VAR", ""), "x");
    assert_null(cJSON_GetObjectItem(env, "HOME_NOT_RECORDED_X"));
    assert_null(cJSON_GetObjectItem(env, "HOME"));
    /* sorted by name */
    const char *prev = "";
    cJSON *v;
    cJSON_ArrayForEach(v, env)
    {
        assert_true(strcmp(prev, v->string) < 0);
        prev = v->string;
    }
    cJSON_Delete(env);
    assert_true(gp_freeze_env_is_recorded("OMP_NUM_THREADS"));
    assert_false(gp_freeze_env_is_recorded("PATH"));
}

static const char base_manifest[] =
    "{\"schema\": \"gpuport.freeze/1\", \"created\": \"2026-01-01T00:00:00Z\","
    " \"host\": {\"hostname\": \"mac\", \"arch\": \"arm64\"},"
    " \"environment\": {\"PYTORCH_ENABLE_MPS_FALLBACK\": \"1\"},"
    " \"python\": {\"version\": \"3.11.7\", \"distributions\": {\"torch\": \"2.7.1\", \"numpy\": "
    "\"2.0.0\"}},"
    " \"data\": [{\"path\": \"in.npy\", \"size\": 3, \"sha256\": "
    "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"}],"
    " \"seeds\": {\"torch\": \"42\"}}";

static cJSON *parse(const char *text)
{
    char err[256];
    cJSON *j = gp_json_parse("test", text, strlen(text), err, sizeof err);
    assert_non_null(j);
    return j;
}

static const gp_freeze_change *find_change(const gp_freeze_diff *d, const char *area,
                                           const char *key)
{
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->changes[i].area, area) == 0 && strcmp(d->changes[i].key, key) == 0)
            return &d->changes[i];
    return NULL;
}

static void diff_finds_what_matters(void **state)
{
    (void)state;
    cJSON *a = parse(base_manifest);
    char err[256];
    assert_int_equal(gp_freeze_validate(a, err, sizeof err), 0);
    gp_freeze_diff d;
    assert_int_equal(gp_freeze_diff_compute(a, a, &d), 0);
    assert_int_equal(d.count, 0);
    gp_freeze_diff_free(&d);

    cJSON *b = cJSON_Duplicate(a, 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(b, "host"), "hostname",
                              cJSON_CreateString("gpu-box"));
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(b, "environment"),
                               "PYTORCH_ENABLE_MPS_FALLBACK");
    cJSON *dists = cJSON_GetObjectItem(cJSON_GetObjectItem(b, "python"), "distributions");
    cJSON_ReplaceItemInObject(dists, "torch", cJSON_CreateString("2.7.1+cu126"));
    cJSON_AddStringToObject(dists, "nvidia-cudnn-cu12", "9.1.0");
    cJSON *d0 = cJSON_GetArrayItem(cJSON_GetObjectItem(b, "data"), 0);
    cJSON_ReplaceItemInObject(
        d0, "sha256",
        cJSON_CreateString("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    /* when the manifest was made never counts as a difference */
    cJSON_ReplaceItemInObject(b, "created", cJSON_CreateString("2027-01-01T00:00:00Z"));
    assert_int_equal(gp_freeze_diff_compute(a, b, &d), 0);
    assert_int_equal(d.count, 5);
    const gp_freeze_change *c = find_change(&d, "host", "hostname");
    assert_non_null(c);
    assert_false(c->matters);
    c = find_change(&d, "environment", "PYTORCH_ENABLE_MPS_FALLBACK");
    assert_non_null(c);
    assert_true(c->matters);
    assert_string_equal(c->a, "1");
    assert_null(c->b);
    c = find_change(&d, "python", "distributions.torch");
    assert_non_null(c);
    assert_string_equal(c->b, "2.7.1+cu126");
    c = find_change(&d, "python", "distributions.nvidia-cudnn-cu12");
    assert_non_null(c);
    assert_null(c->a);
    c = find_change(&d, "data", "in.npy");
    assert_non_null(c);
    assert_true(c->matters);
    assert_non_null(strstr(c->b, "e3b0c442"));
    cJSON *j = gp_freeze_diff_json(&d, "a.json", "b.json");
    assert_int_equal((int)cJSON_GetObjectItem(j, "differences_that_matter")->valuedouble, 4);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(j, "same")));
    cJSON_Delete(j);
    gp_freeze_diff_free(&d);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Two runs of one job script in two Slurm jobs: the job's id, name and nodes are where it ran,
 * not what it computed; the partition (other hardware) still counts. */
static void slurm_job_identity_is_informational(void **state)
{
    (void)state;
    cJSON *a = parse("{\"schema\": \"gpuport.freeze/1\", \"slurm\": {\"job_id\": \"101\","
                     " \"step_id\": \"0\", \"job_name\": \"train\", \"node\": \"gpu01\","
                     " \"nodelist\": \"gpu[01-02]\", \"partition\": \"h100\"}}");
    cJSON *b = parse("{\"schema\": \"gpuport.freeze/1\", \"slurm\": {\"job_id\": \"202\","
                     " \"step_id\": \"1\", \"job_name\": \"train-2\", \"node\": \"gpu07\","
                     " \"nodelist\": \"gpu07\", \"partition\": \"a100\"}}");
    gp_freeze_diff d;
    assert_int_equal(gp_freeze_diff_compute(a, b, &d), 0);
    assert_int_equal(d.count, 6);
    const char *info[] = {"job_id", "step_id", "job_name", "node", "nodelist"};
    for (size_t i = 0; i < 5; i++) {
        const gp_freeze_change *c = find_change(&d, "slurm", info[i]);
        assert_non_null(c);
        assert_false(c->matters);
    }
    const gp_freeze_change *c = find_change(&d, "slurm", "partition");
    assert_non_null(c);
    assert_true(c->matters);
    gp_freeze_diff_free(&d);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void validate_rejects_hostile_manifests(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"[]", "not a JSON object"},
        {"{\"host\": {}}", "no \"schema\""},
        {"{\"schema\": \"gpuport.freeze/9\"}", "unsupported schema"},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": {}, \"seeds\": {}}",
         "\"data\" is missing"},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": 1, \"environment\": {}, \"seeds\": {},"
         " \"data\": []}",
         "\"host\" is missing or not an object"},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": {}, \"seeds\": {\"s\": "
         "1},"
         " \"data\": []}",
         "seed \"s\" is not a string"},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": {}, \"seeds\": {},"
         " \"data\": [{\"path\": \"x\", \"size\": 1, \"sha256\": \"zz\"}]}",
         "data[0] needs"},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": {}, \"seeds\": {},"
         " \"data\": [], \"data\": []}",
         "duplicate key \"data\""},
        {"{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": {}, \"seeds\": {},"
         " \"data\": [], \"python\": [1]}",
         "\"python\" is not an object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *j = parse(cases[i].text);
        char err[256] = "";
        assert_int_equal(gp_freeze_validate(j, err, sizeof err), -1);
        if (!strstr(err, cases[i].why))
            fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].why);
        cJSON_Delete(j);
        /* the one-pass reader refuses it for the same reason, naming the source */
        gp_freeze_manifest m;
        assert_int_equal(gp_freeze_load_text("m.json", cases[i].text, strlen(cases[i].text), &m,
                                             err, sizeof err),
                         -1);
        if (!strstr(err, cases[i].why) || strncmp(err, "m.json: ", 8) != 0)
            fail_msg("case %zu (load): got '%s', want '%s'", i, err, cases[i].why);
    }
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/truncated.json", tmpdir);
    write_text(path, "{\"schema\": \"gpuport.freeze/1\", \"host\": {");
    assert_null(gp_freeze_read(path, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "not valid JSON"));
}

/* JSON the one-pass reader must refuse as JSON, wherever it stands (in the data list too). */
static void load_refuses_what_is_not_json(void **state)
{
    (void)state;
    static const char head[] = "{\"schema\": \"gpuport.freeze/1\", \"host\": {}, \"environment\": "
                               "{}, \"seeds\": {}, \"data\": [";
    static const char sha[] = "\"sha256\": \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb41"
                              "0ff61f20015ad\"";
    static const struct {
        const char *entry, *why;
    } cases[] = {
        {"{\"path\": \"a\", \"size\": 1, %s,}", "not valid JSON"}, /* trailing comma */
        {"{\"path\": \"a\\q\", \"size\": 1, %s}", "bad escape in a string"},
        {"{\"path\": \"a\tb\", \"size\": 1, %s}", "control character in a string"},
        {"{\"path\": \"\\ud800\", \"size\": 1, %s}", "high surrogate without its low half"},
        {"{\"path\": \"\\udc00\", \"size\": 1, %s}", "lone low surrogate"},
        {"{\"path\": \"a\\u0000b\", \"size\": 1, %s}", "data[0]: \"path\" holds a NUL"},
        {"{\"path\": \"a\", \"size\": 01, %s}", "not valid JSON"},
        {"{\"path\": \"a\", \"size\": -1, %s}", "data[0] needs"},
        {"{\"path\": \"a\", \"size\": 1, \"path\": \"b\", %s}", "duplicate key \"path\""},
        {"{\"path\": \"a\", \"size\": 1, \"x\": [1, {\"y\": tru}], %s}", "not valid JSON"},
        {"{\"path\": \"a\", \"size\": 1}", "data[0] needs"},
        {"{\"path\": \"a\", \"size\": 1, %s} {", "not valid JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char entry[512], doc[1024], err[512];
        snprintf(entry, sizeof entry, cases[i].entry, sha);
        snprintf(doc, sizeof doc, "%s%s]}", head, entry);
        gp_freeze_manifest m;
        if (gp_freeze_load_text("m.json", doc, strlen(doc), &m, err, sizeof err) != -1)
            fail_msg("case %zu accepted: %s", i, doc);
        if (!strstr(err, cases[i].why))
            fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].why);
    }
    /* nesting deeper than the reader's limit, outside the data list */
    static char deep[4096];
    size_t n = (size_t)snprintf(deep, sizeof deep, "{\"schema\": \"gpuport.freeze/1\", \"x\": ");
    for (int i = 0; i < 600; i++)
        deep[n++] = '[';
    deep[n] = '\0';
    char err[512];
    gp_freeze_manifest m;
    assert_int_equal(gp_freeze_load_text("d.json", deep, n, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "nested too deeply"));
    /* trailing data after the document */
    char doc[1024];
    snprintf(doc, sizeof doc, "%s]}x", head);
    assert_int_equal(gp_freeze_load_text("t.json", doc, strlen(doc), &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "unexpected data after the JSON value"));
}

/* The one-pass reader and the tree agree on every change, escapes in paths included, and a
 * manifest over the size cap is refused from its size. */
static void load_and_tree_diff_alike(void **state)
{
    (void)state;
    static const char a_text[] =
        "{\"schema\": \"gpuport.freeze/1\", \"created\": \"x\", \"host\": {\"hostname\": \"a\"},"
        " \"environment\": {}, \"seeds\": {}, \"zeta\": {\"k\": 1},"
        " \"data\": [{\"path\": \"caf\\u00e9\\n.npy\", \"size\": 3, \"extra\": [1, 2], \"sha256\": "
        "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"},"
        " {\"path\": \"b.npy\", \"size\": 1e3, \"sha256\": "
        "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"},"
        " {\"path\": \"a.npy\", \"size\": 0, \"sha256\": "
        "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}]}";
    static const char b_text[] =
        "{\"schema\": \"gpuport.freeze/1\", \"created\": \"y\", \"host\": {\"hostname\": \"b\"},"
        " \"environment\": {\"CUDA_VISIBLE_DEVICES\": \"1\"}, \"seeds\": {}, \"zeta\": {\"k\": 2},"
        " \"data\": [{\"path\": \"b.npy\", \"size\": 1000, \"sha256\": "
        "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"},"
        " {\"path\": \"c.npy\", \"size\": 2, \"sha256\": "
        "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"},"
        " {\"path\": \"a.npy\", \"size\": 0, \"sha256\": "
        "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}]}";
    char err[512];
    gp_freeze_manifest ma, mb;
    assert_int_equal(gp_freeze_load_text("a", a_text, strlen(a_text), &ma, err, sizeof err), 0);
    assert_int_equal(gp_freeze_load_text("b", b_text, strlen(b_text), &mb, err, sizeof err), 0);
    assert_int_equal(ma.nfiles, 3);
    assert_string_equal(ma.paths + ma.files[0].path, "caf\xc3\xa9\n.npy");
    gp_freeze_diff d1, d2;
    assert_int_equal(gp_freeze_diff_manifests(&ma, &mb, &d1), 0);
    cJSON *ta = parse(a_text), *tb = parse(b_text);
    assert_int_equal(gp_freeze_diff_compute(ta, tb, &d2), 0);
    assert_int_equal(d1.count, d2.count);
    /* host.hostname, environment, b.npy, c.npy, café, zeta: in area order, data among them */
    assert_int_equal(d1.count, 6);
    static const char *const areas[] = {"data", "data", "data", "environment", "host", "zeta"};
    for (size_t i = 0; i < d1.count; i++) {
        assert_string_equal(d1.changes[i].area, areas[i]);
        assert_string_equal(d1.changes[i].area, d2.changes[i].area);
        assert_string_equal(d1.changes[i].key, d2.changes[i].key);
        assert_true((!d1.changes[i].a && !d2.changes[i].a) ||
                    strcmp(d1.changes[i].a, d2.changes[i].a) == 0);
        assert_true((!d1.changes[i].b && !d2.changes[i].b) ||
                    strcmp(d1.changes[i].b, d2.changes[i].b) == 0);
    }
    assert_string_equal(d1.changes[0].key, "b.npy"); /* sorted: b, c, then the UTF-8 name */
    assert_non_null(strstr(d1.changes[0].a, "e3b0c442"));
    assert_non_null(strstr(d1.changes[0].b, "ba7816bf"));
    assert_null(d1.changes[1].a); /* c.npy: only in B */
    assert_string_equal(d1.changes[2].key, "caf\xc3\xa9\n.npy");
    assert_null(d1.changes[2].b);
    gp_freeze_diff_free(&d1);
    gp_freeze_diff_free(&d2);
    cJSON_Delete(ta);
    cJSON_Delete(tb);
    gp_freeze_manifest_free(&ma);
    gp_freeze_manifest_free(&mb);

    char path[256];
    snprintf(path, sizeof path, "%s/huge.json", tmpdir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), (off_t)70 << 20), 0); /* sparse: nothing to read */
    fclose(f);
    assert_int_equal(gp_freeze_load(path, &ma, err, sizeof err), -1);
    assert_non_null(
        strstr(err, "huge.json: is 73400320 bytes, over the 64 MiB a manifest may have"));
    unlink(path);
}

static void collect_produces_a_valid_manifest(void **state)
{
    (void)state;
    char a[256], err[512];
    snprintf(a, sizeof a, "%s/a.bin", tmpdir);
    const char *paths[] = {a};
    gp_freeze_seed seeds[] = {{"numpy", "7"}};
    gp_freeze_options o = {.data_paths = paths,
                           .data_count = 1,
                           .seeds = seeds,
                           .seed_count = 1,
                           .no_python = true,
                           .git_dir = tmpdir};
    cJSON *m = gp_freeze_collect(&o, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(gp_freeze_validate(m, err, sizeof err), 0);
    assert_string_equal(gp_json_str(cJSON_GetObjectItem(m, "seeds"), "numpy", ""), "7");
    assert_non_null(gp_json_str(cJSON_GetObjectItem(m, "host"), "arch", NULL));
    /* the device auto picks here (the CPU backend always exists), with every backend's outcome */
    cJSON *dev = cJSON_GetObjectItem(m, "device");
    assert_non_null(gp_json_str(dev, "backend", NULL));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(dev, "selection")), 4);
    assert_string_equal(
        gp_json_str(cJSON_GetObjectItem(dev, "selection"), gp_json_str(dev, "backend", ""), ""),
        "chosen");
    /* tmpdir is not a git work tree: the section says so instead of failing the run */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "git"), "available")));
    cJSON_Delete(m);
}

int main(void)
{
    const char *src = getenv("GPUPORT_SOURCE_DIR");
    snprintf(fixtures, sizeof fixtures, "%s/tests/freeze/fixtures", src ? src : ".");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gp-test-freeze-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(data_hashes_files_and_folders_in_order),
        cmocka_unit_test(python_distributions_from_metadata),
        cmocka_unit_test(conda_packages_from_conda_meta),
        cmocka_unit_test(environment_records_only_result_changing_variables),
        cmocka_unit_test(diff_finds_what_matters),
        cmocka_unit_test(slurm_job_identity_is_informational),
        cmocka_unit_test(validate_rejects_hostile_manifests),
        cmocka_unit_test(load_refuses_what_is_not_json),
        cmocka_unit_test(load_and_tree_diff_alike),
        cmocka_unit_test(collect_produces_a_valid_manifest),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 1;
    return rc;
}
