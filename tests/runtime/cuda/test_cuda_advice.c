/* test_cuda_advice.c — the CUDA error advice that depends on the platform speaks its words: a
 * missing device points at a container's --gpus on Linux, at Device Manager on Windows (this test
 * also runs under Wine, where test_cuda_status.c, which needs the Linux stand-ins, does not). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cuda/status.h"

static void test_no_device_words(void **state)
{
    (void)state;
    char buf[1024];
    unsetenv("CUDA_VISIBLE_DEVICES");
    gp_cuda_result_explain(100, 0, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "CUDA_ERROR_NO_DEVICE (100)"));
    assert_non_null(strstr(buf, "that nvidia-smi lists the GPU"));
#if defined(_WIN32)
    assert_non_null(strstr(buf, "Device Manager"));
    assert_null(strstr(buf, "--gpus"));
    assert_null(strstr(buf, "container"));
#else
    assert_non_null(strstr(buf, "--gpus all"));
    assert_null(strstr(buf, "Device Manager"));
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_device_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
