/* core.h — what the files of the runtime core share with each other (not with backends): the
 * registry of backends and opened devices, reference counting, the signature parser, the
 * prelude text. Backends see only backend.h. */
#ifndef GP_RUNTIME_CORE_H
#define GP_RUNTIME_CORE_H

#include "runtime/backend.h"
#include "util/strbuf.h"

/* The dialect prelude (include/gpuport/kernel.h), embedded at build time, NUL-terminated. */
extern const char gp_prelude_text[];
extern const size_t gp_prelude_text_len;

/* Probes backend `b` once per process (thread-safe) and copies the result. */
void gp_registry_probe(gp_backend b, gp_selection_entry *out);
/* Opens (or shares) the state of device `index` of backend `b`; a new reference. */
gp_status gp_registry_acquire(gp_backend b, uint32_t index, gp_device_state **out);
/* Adds / drops a reference; the last one closes the device. */
void gp_device_state_ref(gp_device_state *dev);
void gp_device_state_unref(gp_device_state *dev);

/* Hands the text of sb to a caller's buffer as the API's *_text functions do (NUL-terminated,
 * truncated to cap; *needed, optional, gets the full length + 1) and frees sb. */
gp_status gp_strbuf_out(gp_strbuf *sb, char *buf, size_t cap, size_t *needed);

/* True when GPUPORT_LOG asks for info (or debug) lines. */
int gp_log_level(void);

/* Parses every GP_KERNEL declaration of `src` (comments and strings skipped). Returns GP_OK with
 * a heap array (free() it), or GP_ERR_BUILD naming source_name and the line of a malformed
 * declaration or requirement. `defines` ("NAME=VALUE") resolve macro type names to sizes.
 * *needs (may be NULL) says what the source requires: GP_REQUIRES_FP64, GP_REQUIRES_SIMD_WIDTH
 * and its first SIMD-group operation. */
gp_status gp_signature_parse(const char *src, size_t len, const char *source_name,
                             const char *const *defines, uint32_t num_defines, gp_kernel_sig **out,
                             uint32_t *count, gp_source_needs *needs);
/* The kernels `gpuport translate --partial` left out of src as comments ("// GP_TODO: kernel K
 * is not translated", or "kernel K is not translated: REASON" in a comment), each as
 * "NAME\tREASON\n" (the first GP_TODO("...") marker of its body when the header gives none);
 * NULL when there are none (free() it). Names and reasons are bounded; any text is accepted. */
char *gp_untranslated_scan(const char *src, size_t len);
/* sizeof a type name of the dialect ("float" 4, "gp_half" 2, "uint64_t" 8); 0 if unknown. */
uint32_t gp_signature_type_size(const char *type_name);

/* Reads every gp_printf call of a source (printf_format.c): the format must be a string literal
 * of the portable conversions (%d %u %ld %lu %x %f %e %g %c %s %%, with flags, width and
 * precision), one argument per conversion, %s only of string literals. GP_ERR_BUILD naming
 * source_name, the line and the reason; *uses gets the number of times gp_printf appears (in
 * macro definitions too, which are left to the compiler). */
gp_status gp_printf_scan(const char *src, size_t len, const char *source_name, uint32_t *uses);
/* The record path (a device with print_records): checks src as gp_printf_scan does, and also
 * refuses a call outside a GP_KERNEL body (only a kernel holds the print buffer), a call in a
 * #define whose format is not a literal, and a %s argument that is not a literal alone. On
 * success *table holds each call by id (its format and %s literals, decoded) and *out the
 * source with each call `gp_printf(FMT, args)` written `GP__PRINTF_REC(ID, LINES, args)` (each
 * %s literal argument written 0), every line where it was (free() it). `typed` (OpenCL C, which
 * has no overloads): `GP__PRINTF_REC(ID, LINES, N, GP__PF_I(a), GP__PF_F(b), ..., GP__PF_END)`,
 * each argument wrapped by the class of its conversion (I: %d %c %s, U: %u %x, F: %f %e %g). */
gp_status gp_printf_records_source(const char *src, size_t len, const char *source_name, bool typed,
                                   gp_printf_table **table, char **out, size_t *out_len);
uint32_t gp_printf_table_count(const gp_printf_table *t);
/* What gp_printf_records_emit hands on, for a given line limit (free() it; *len its length). */
char *gp_printf_records_format(const gp_printf_table *t, const char *kernel, const uint32_t *buf,
                               size_t nwords, uint32_t limit, size_t *len);

/* Builds the source for the device as gp_program_create would (`checks` when options gives
 * none), keeping the result only in the device's in-process cache: whether it can be built. */
gp_status gp_program_build_probe(gp_device_state *dev, const char *source, size_t len,
                                 const gp_build_options *options, uint32_t checks);

/* Closes and frees programs kept in a device's in-process cache (device close). */
void gp_program_cache_drop(gp_device_state *dev);

#endif
