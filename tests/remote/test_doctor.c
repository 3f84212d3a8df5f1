/* test_doctor.c — the side-by-side doctor of `remote doctor` (src/remote/doctor.c): which
 * differences between two gpuport.doctor/1 reports count, and the shape check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/doctor.h"

static const char mac[] =
    "{\"schema\":\"gpuport.doctor/1\",\"capabilities\":{"
    "\"cuda\":{\"compile\":true,\"run\":false,\"reason\":\"no NVIDIA driver\","
    "\"toolkit\":\"13.0\",\"driver\":\"\"},"
    "\"metal\":{\"available\":true},"
    "\"opencl\":{\"available\":true},\"cpu\":{\"summary\":\"10 cores\"}},"
    "\"checks\":[{\"id\":\"torch\",\"status\":\"ok\",\"observed\":\"2.5.1\"},"
    "{\"id\":\"os\",\"status\":\"info\",\"observed\":\"macOS 15\"},"
    "{\"id\":\"libcuda\",\"status\":\"skip\",\"observed\":\"no GPU\"},"
    "{\"id\":\"python\",\"status\":\"ok\",\"observed\":\"3.12\"},"
    "{\"id\":\"metal-only\",\"status\":\"ok\",\"observed\":\"x\"}]}";
static const char linux_gpu[] =
    "{\"schema\":\"gpuport.doctor/1\",\"capabilities\":{"
    "\"cuda\":{\"compile\":true,\"run\":true,\"toolkit\":\"12.4\",\"driver\":\"550.54\"},"
    "\"metal\":{\"available\":false,\"reason\":\"not a Mac\"},"
    "\"opencl\":{\"available\":true},\"cpu\":{\"summary\":\"64 cores\"}},"
    "\"checks\":[{\"id\":\"torch\",\"status\":\"ok\",\"observed\":\"2.4.0\"},"
    "{\"id\":\"os\",\"status\":\"info\",\"observed\":\"Ubuntu 22.04\"},"
    "{\"id\":\"libcuda\",\"status\":\"pass\",\"observed\":\"libcuda.so.1 550.54\"},"
    "{\"id\":\"python\",\"status\":\"ok\",\"observed\":\"3.12\"},"
    "{\"id\":\"driver\",\"status\":\"ok\",\"observed\":\"550\"}]}";

static bool diff_has(const cJSON *diff, const char *what)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, diff) if (strcmp(cJSON_GetObjectItem(d, "what")->valuestring, what) ==
                                    0) return true;
    return false;
}

static void differences_that_matter(void **state)
{
    (void)state;
    cJSON *a = cJSON_Parse(mac), *b = cJSON_Parse(linux_gpu);
    assert_null(gp_remote_doctor_check(a));
    assert_null(gp_remote_doctor_check(b));
    cJSON *diff = gp_remote_doctor_diff(a, b);
    assert_true(diff_has(diff, "cuda"));
    assert_true(diff_has(diff, "metal"));
    assert_true(diff_has(diff, "torch"));
    assert_true(diff_has(diff, "cuda toolkit")); /* 13.0 here, 12.4 there */
    assert_false(diff_has(diff, "cuda driver")); /* empty here: unknown, not different */
    assert_true(diff_has(diff, "libcuda"));      /* skipped here, passed there */
    assert_false(diff_has(diff, "os"));          /* a note, not an outcome */
    assert_false(diff_has(diff, "cpu"));         /* present on both; sizes differ, fine */
    assert_false(diff_has(diff, "opencl"));
    assert_true(diff_has(diff, "device auto picks")); /* metal here, cuda there */
    assert_false(diff_has(diff, "python"));
    assert_false(diff_has(diff, "metal-only")); /* run on one side only: not a difference */
    assert_int_equal(cJSON_GetArraySize(diff), 6);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gp_remote_doctor_print(f, "gpu1", a, b, diff);
    fclose(f);
    assert_non_null(strstr(text, "6 differences that matter"));
    assert_non_null(strstr(text, "torch: here ok 2.5.1; on gpu1 ok 2.4.0"));
    assert_non_null(strstr(text, "device auto picks: here metal; on gpu1 cuda"));
    free(text);
    cJSON_Delete(diff);
    diff = gp_remote_doctor_diff(a, a);
    assert_int_equal(cJSON_GetArraySize(diff), 0);
    cJSON_Delete(diff);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Long names and values wrap onto more lines instead of being cut. */
static void long_values_wrap(void **state)
{
    (void)state;
    static const char longer[] =
        "{\"schema\":\"gpuport.doctor/1\",\"capabilities\":{\"cpu\":{\"summary\":\"1 core\"}},"
        "\"checks\":[{\"id\":\"a.check.with.a.rather.long.identifier\",\"status\":\"info\","
        "\"observed\":\"the first part of a value that goes on well past the column and "
        "ends with the word FINALWORD\"}]}";
    cJSON *a = cJSON_Parse(longer);
    assert_null(gp_remote_doctor_check(a));
    cJSON *diff = gp_remote_doctor_diff(a, a);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gp_remote_doctor_print(f, "gpu1", a, a, diff);
    fclose(f);
    /* the identifier's first 22 columns start a line and the rest starts the next one */
    const char *row = strstr(text, "\na.check.with.a.rather. ");
    assert_non_null(row);
    const char *next = strchr(row + 1, '\n');
    assert_non_null(next);
    assert_true(strncmp(next + 1, "long.identifier ", 16) == 0);
    /* the value's last word is in both columns: this machine's, wrapped, and the other's */
    int finals = 0;
    for (const char *p = text; (p = strstr(p, "FINALWORD")) != NULL; p++)
        finals++;
    assert_int_equal(finals, 2);
    /* and no line is longer than the three columns need */
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        assert_true(n <= 22 + 1 + 38 + 1 + 100);
        l += n + (e != NULL);
    }
    free(text);
    cJSON_Delete(diff);
    cJSON_Delete(a);
}

static void shape_check(void **state)
{
    (void)state;
    const char *bad[] = {"[]", "{\"checks\":[]}", "{\"capabilities\":{}}",
                         "{\"schema\":\"gpuport.audit/1\",\"capabilities\":{},\"checks\":[]}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cJSON *j = cJSON_Parse(bad[i]);
        assert_non_null(gp_remote_doctor_check(j));
        cJSON_Delete(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(differences_that_matter),
        cmocka_unit_test(long_values_wrap),
        cmocka_unit_test(shape_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
