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

#endif
