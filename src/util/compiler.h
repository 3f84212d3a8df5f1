/* compiler.h — the few compiler attributes gpuport uses, spelled once. */
#ifndef GP_UTIL_COMPILER_H
#define GP_UTIL_COMPILER_H

#if defined(__GNUC__)
#define GP_PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#define GP_UNUSED __attribute__((unused))
#else
#define GP_PRINTF_LIKE(a, b)
#define GP_UNUSED
#endif

#define GP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
