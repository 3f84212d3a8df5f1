/* compiler.h — the few compiler attributes gpuport uses, spelled once. */
#ifndef GP_UTIL_COMPILER_H
#define GP_UTIL_COMPILER_H

#if defined(__MINGW32__)
/* MinGW-w64's own printf (__USE_MINGW_ANSI_STDIO) is C99's, %zu and all, not msvcrt's */
#define GP_PRINTF_LIKE(a, b) __attribute__((format(gnu_printf, a, b)))
#define GP_UNUSED            __attribute__((unused))
#elif defined(__GNUC__)
#define GP_PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#define GP_UNUSED            __attribute__((unused))
#else
#define GP_PRINTF_LIKE(a, b)
#define GP_UNUSED
#endif

#define GP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* GP_ASAN: 1 in a build with AddressSanitizer (GCC's and clang's spellings), else 0 */
#if defined(__SANITIZE_ADDRESS__)
#define GP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GP_ASAN 1
#endif
#endif
#ifndef GP_ASAN
#define GP_ASAN 0
#endif

#endif
