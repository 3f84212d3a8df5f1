/* instrument.h — the checked CPU build's source pass: a parsed dialect unit printed back as C in
 * which every memory access of its kernels and helpers goes through the hooks of prelude.h, with
 * the tables (sites, shared arrays, constant tables, kernels) the runtime's checker reads from the
 * compiled program. */
#ifndef GP_RUNTIME_CPU_CHECK_INSTRUMENT_H
#define GP_RUNTIME_CPU_CHECK_INSTRUMENT_H

#include <stddef.h>

#include "runtime/cpu/gpk/gpk.h"
#include "util/strbuf.h"

/* Appends the instrumented program to `out` (to be compiled after the two preludes). 0, or -1 with
 * "file:line:col: reason" in err for what the checker cannot instrument (over 32 shared arrays in
 * a kernel, ...). */
int gp_ck_instrument(const gk_unit *u, gp_strbuf *out, char *err, size_t errlen);

#endif
