/* test_report.c — the report's text cleaning (src/doctor/report.c): what reaches the JSON and
 * the terminal is printable UTF-8 whatever the machine's files held. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/report.h"

static void test_text_clean(void **state)
{
    (void)state;
    char a[] = "caf\xc3\xa9 \xe2\x82\xac ok";
    gp_text_clean(a);
    assert_string_equal(a, "caf\xc3\xa9 \xe2\x82\xac ok"); /* valid UTF-8 stays */
    char b[] = "\xff\xfe";
    gp_text_clean(b);
    assert_string_equal(b, "??");
    char c[] = "cut \xe2\x82";
    gp_text_clean(c);
    assert_string_equal(c, "cut ??");
    char d[] = "tab\tnl\n\x7f \xc0\xaf \xed\xa0\x80";
    gp_text_clean(d);
    assert_string_equal(d, "tab?nl?? ?? ???"); /* controls, overlong form, surrogate */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
