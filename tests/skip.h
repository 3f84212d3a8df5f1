/* skip.h — how a cmocka case skips: it says why on a line "SKIP: <reason>" (the suite's
 * convention; scripts/check-skips.py lists every skip with its reason at the end of
 * scripts/test.sh and fails on one that tests/expected-skips.txt does not expect), then calls
 * cmocka's skip(). Include after <cmocka.h>. */
#ifndef GP_TESTS_SKIP_H
#define GP_TESTS_SKIP_H

#include <stdio.h>

#define GP_TEST_SKIP(...)                                                                          \
    do {                                                                                           \
        printf("SKIP: " __VA_ARGS__);                                                              \
        printf("\n");                                                                              \
        fflush(stdout);                                                                            \
        skip();                                                                                    \
    } while (0)

#endif
