/* compiler.h — the CPU backend's run-time C compiler: found once ($CC, else cc, clang, gcc on
 * PATH; Windows: cl, clang-cl, clang, gcc), started without a shell, building one dialect program
 * into a shared object (a DLL on Windows). */
#ifndef GP_RUNTIME_CPU_COMPILER_H
#define GP_RUNTIME_CPU_COMPILER_H

#include <stddef.h>

#include "runtime/backend.h"

/* Identifies the compiler for the cache key: its path, size and modification time (no process
 * is started). "none" when there is no compiler. */
void gp_cpu_compiler_id(char *buf, size_t cap);
/* Compiles `text` into the shared object `out_so`. GP_ERR_BUILD with the compiler's messages;
 * GP_ERR_UNSUPPORTED when no compiler exists (the message says how to get one). */
gp_status gp_cpu_compile(const char *text, size_t len, const char *source_name, int fast_math,
                         const char *out_so);

#endif
