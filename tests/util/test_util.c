/* test_util.c — the shared pieces in src/util: string builder, file reads, JSON, hashing, spawn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/json.h"
#include "util/sha256.h"
#include "util/spawn.h"
#include "util/strbuf.h"

static void strbuf_grows_and_formats(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    assert_string_equal(gp_strbuf_cstr(&sb), "");
    for (int i = 0; i < 1000; i++)
        gp_strbuf_printf(&sb, "%d,", i);
    assert_int_equal(sb.len, strlen(sb.data));
    assert_true(strncmp(sb.data, "0,1,2,", 6) == 0);
    assert_non_null(strstr(sb.data, ",999,"));
    char *s = gp_strbuf_take(&sb);
    assert_null(sb.data);
    free(s);
}

static void strbuf_escapes_xml(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_put_xml(&sb, "a<b>&\"c'\td\ne\x01");
    assert_string_equal(gp_strbuf_cstr(&sb), "a&lt;b&gt;&amp;&quot;c&apos;\td\ne?");
    gp_strbuf_free(&sb);
}

static char tmpdir[64];

static void write_tmp(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void read_file_respects_cap(void **state)
{
    (void)state;
    char path[256], err[512];
    write_tmp("ten", "0123456789", path, sizeof path);
    size_t len = 0;
    char *s = gp_read_file(path, 100, false, &len, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(len, 10);
    free(s);
    assert_null(gp_read_file(path, 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "larger than 5 bytes"));
    assert_non_null(strstr(err, path));
    s = gp_read_file(path, 5, true, &len, err, sizeof err);
    assert_string_equal(s, "01234");
    free(s);
    assert_null(gp_read_file("/nonexistent/x", 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x: "));
    assert_null(gp_read_file(tmpdir, 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "is a directory"));
}

static void map_file_and_atomic_write(void **state)
{
    (void)state;
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/atomic", tmpdir);
    assert_int_equal(gp_write_file_atomic(path, "hello", 5, err, sizeof err), 0);
    gp_mapped_file m;
    assert_int_equal(gp_map_file(path, &m, err, sizeof err), 0);
    assert_int_equal(m.size, 5);
    assert_memory_equal(m.data, "hello", 5);
    gp_unmap_file(&m);
    assert_int_equal(gp_map_file(tmpdir, &m, err, sizeof err), -1);
    char *j = gp_path_join("/a/b/", "/c");
    assert_string_equal(j, "/a/b/c");
    free(j);
    char deep[300];
    snprintf(deep, sizeof deep, "%s/x/y/z", tmpdir);
    assert_int_equal(gp_mkdir_p(deep, 0700), 0);
    assert_true(gp_path_is_dir(deep));
}

static void dir_names_sorted(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-dirnames-XXXXXX", path[256], err[256];
    assert_non_null(mkdtemp(dir));
    const char *make[] = {"b", "a.txt", "C", "a"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, make[i]);
        if (i == 3)
            assert_int_equal(mkdir(path, 0700), 0);
        else
            fclose(fopen(path, "w"));
    }
    char **names;
    size_t n;
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);                        /* no "." or ".." */
    const char *want[] = {"C", "a", "a.txt", "b"}; /* byte order */
    for (size_t i = 0; i < n; i++)
        assert_string_equal(names[i], want[i]);
    gp_dir_names_free(names, n);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, make[i]);
        remove(path);
    }
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), 0);
    assert_int_equal(n, 0);
    gp_dir_names_free(names, n);
    rmdir(dir);
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, dir));
    assert_non_null(strstr(err, "No such file"));
}

static void json_parse_and_duplicates(void **state)
{
    (void)state;
    char err[256];
    const char *text = "{\"a\": 1, \"b\": {\"x\": 1, \"x\": 2}}";
    cJSON *j = gp_json_parse("t.json", text, strlen(text), err, sizeof err);
    assert_non_null(j);
    const char *key = NULL;
    assert_true(gp_json_find_duplicate_key(j, &key));
    assert_string_equal(key, "x");
    cJSON_Delete(j);
    assert_null(gp_json_parse("t.json", "{\"a\": ", 6, err, sizeof err));
    assert_non_null(strstr(err, "t.json: not valid JSON"));
    assert_null(gp_json_parse("t.json", "{} x", 4, err, sizeof err));
    assert_non_null(strstr(err, "unexpected data"));
}

static void sha256_known_answers(void **state)
{
    (void)state;
    char hex[65];
    gp_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    char path[256], err[256];
    write_tmp("abc", "abc", path, sizeof path);
    uint64_t size = 0;
    assert_int_equal(gp_sha256_file(path, hex, &size, err, sizeof err), 0);
    assert_int_equal(size, 3);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void spawn_captures_output_and_status(void **state)
{
    (void)state;
    char err[256];
    gp_spawn_result r;
    char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 7", NULL};
    assert_int_equal(gp_spawn_capture(argv, NULL, 10, 1 << 20, &r, err, sizeof err), 0);
    assert_int_equal(r.exit_code, 7);
    assert_string_equal(r.out, "out\n");
    assert_string_equal(r.err, "err\n");
    gp_spawn_result_free(&r);
    char *argv2[] = {"sh", "-c", "sleep 5", NULL};
    assert_int_equal(gp_spawn_capture(argv2, NULL, 0.2, 1024, &r, err, sizeof err), 0);
    assert_true(r.timed_out);
    gp_spawn_result_free(&r);
    char *argv3[] = {"gpuport-no-such-program", NULL};
    assert_int_equal(gp_spawn_capture(argv3, NULL, 1, 1024, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "gpuport-no-such-program"));
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gp-test-util-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strbuf_grows_and_formats),
        cmocka_unit_test(strbuf_escapes_xml),
        cmocka_unit_test(read_file_respects_cap),
        cmocka_unit_test(map_file_and_atomic_write),
        cmocka_unit_test(dir_names_sorted),
        cmocka_unit_test(json_parse_and_duplicates),
        cmocka_unit_test(sha256_known_answers),
        cmocka_unit_test(spawn_captures_output_and_status),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 1;
    return rc;
}
