/*
 * program.c — OpenCL program builds for the backend: source (prelude + #line + user source),
 * binaries for the kernel cache, the build log mapped back to the user's file, and per-kernel
 * work-group limits. The build log is driver output, so it is read as untrusted text. What a
 * driver's compiler prints on the process's stderr during a build (PoCL's clang: "1 error
 * generated.") is caught: the log belongs in gpuport's message, not beside it.
 */
#include "runtime/opencl/program.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/error.h"
#include "runtime/opencl/errors.h"
#include "util/stderr_capture.h"
#include "util/strbuf.h"

#define GP_CL_PRELUDE_NAME "<gpuport OpenCL prelude>"
#define GP_CL_DEFINES_NAME "<gpuport build defines>"
/* The name the core's assembled source gives the dialect header with its #line. */
#define GP_CL_HEADER_NAME "gpuport/kernel.h"

/* Length of a severity prefix ("error: ") at the start of `s` (n bytes), or 0. */
static size_t gp_cl_severity_prefix(const char *s, size_t n)
{
    static const char *const words[] = {"error: ", "warning: ", "note: ", "fatal error: "};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t w = strlen(words[i]);
        if (n >= w && memcmp(s, words[i], w) == 0) return w;
    }
    return 0;
}

/* Parses ":DIGITS[:DIGITS]:" at s[i..n); returns the offset just past its last ':', or 0. */
static size_t gp_cl_location_end(const char *s, size_t n, size_t i)
{
    size_t end = 0;
    if (i >= n || s[i] != ':') return 0;
    i++;
    for (int part = 0; part < 2; part++) { /* LINE, then an optional COL */
        size_t start = i;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        if (i == start || i >= n || s[i] != ':') break;
        end = ++i;
    }
    return end;
}

/* Finds "NAME:DIGITS[:DIGITS]:" at the start of s[0..n). The known names are tried first, so
 * that a file name holding ':' is still recognised; any other name ends at its first ':'. On
 * success *name_len is NAME's length and *loc_end the offset just past the location. */
static bool gp_cl_find_location(const char *s, size_t n, const char *const *known, size_t nknown,
                                size_t *name_len, size_t *loc_end)
{
    for (size_t k = 0; k < nknown; k++) {
        size_t len = strlen(known[k]);
        if (len && len < n && memcmp(s, known[k], len) == 0 &&
            (*loc_end = gp_cl_location_end(s, n, len)) != 0) {
            *name_len = len;
            return true;
        }
    }
    const char *colon = memchr(s, ':', n);
    if (!colon || colon == s || (size_t)(colon - s) > 1024) return false;
    *name_len = (size_t)(colon - s);
    *loc_end = gp_cl_location_end(s, n, *name_len);
    return *loc_end != 0;
}

static bool gp_cl_name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

static void gp_cl_map_line(gp_strbuf *out, const char *s, size_t n, const char *file,
                           const char *other, const gp_cl_lines *lines)
{
    size_t sev = gp_cl_severity_prefix(s, n);
    size_t name_len = 0, loc_end = 0;
    const char *known[] = {file, GP_CL_HEADER_NAME};
    if (!gp_cl_find_location(s + sev, n - sev, known, 2, &name_len, &loc_end)) {
        gp_strbuf_append(out, s, n);
        return;
    }
    const char *name = s + sev;
    unsigned long line = strtoul(name + name_len + 1, NULL, 10);
    const char *after_line = name + name_len + 1;
    while (isdigit((unsigned char)*after_line))
        after_line++;
    if (gp_cl_name_is(name, name_len, file)) {
        gp_strbuf_puts(out, file);
        gp_strbuf_append(out, name + name_len, loc_end - name_len);
    } else if (gp_cl_name_is(name, name_len, GP_CL_HEADER_NAME)) {
        gp_strbuf_puts(out, GP_CL_HEADER_NAME);
        gp_strbuf_append(out, name + name_len, loc_end - name_len);
    } else if (lines && lines->user_first && line >= lines->user_first) {
        gp_strbuf_printf(out, "%s:%lu", file, line - lines->user_first + 1);
        gp_strbuf_append(out, after_line, (size_t)(name + loc_end - after_line));
    } else if (lines && lines->header_first && line >= lines->header_first) {
        gp_strbuf_printf(out, "%s:%lu", GP_CL_HEADER_NAME, line - lines->header_first + 1);
        gp_strbuf_append(out, after_line, (size_t)(name + loc_end - after_line));
    } else {
        gp_strbuf_puts(out, other);
        /* the ":LINE:COL:" part, unchanged */
        gp_strbuf_append(out, name + name_len, loc_end - name_len);
    }
    const char *rest = name + loc_end;
    size_t rest_len = n - sev - loc_end;
    while (rest_len && *rest == ' ') {
        rest++;
        rest_len--;
    }
    gp_strbuf_putc(out, ' ');
    if (sev) gp_strbuf_append(out, s, sev);
    gp_strbuf_append(out, rest, rest_len);
}

char *gp_cl_build_log_map_lines(const char *log, size_t len, const char *file, const char *other,
                                const gp_cl_lines *lines)
{
    if (!other) other = GP_CL_PRELUDE_NAME;
    gp_strbuf out = GP_STRBUF_INIT;
    const char *end = log ? memchr(log, '\0', len) : NULL;
    size_t n = log ? (end ? (size_t)(end - log) : len) : 0;
    size_t pos = 0;
    while (pos < n && out.len < GP_CL_LOG_CAP) {
        const char *nl = memchr(log + pos, '\n', n - pos);
        size_t line_len = nl ? (size_t)(nl - (log + pos)) : n - pos;
        gp_cl_map_line(&out, log + pos, line_len, file ? file : "", other, lines);
        if (nl) gp_strbuf_putc(&out, '\n');
        pos += line_len + (nl ? 1 : 0);
    }
    if (pos < n) gp_strbuf_printf(&out, "\n[build log cut at %u bytes]\n", GP_CL_LOG_CAP);
    if (!out.data && !out.failed) gp_strbuf_puts(&out, "");
    return gp_strbuf_take(&out);
}

char *gp_cl_build_log_map(const char *log, size_t len, const char *file, const char *other)
{
    return gp_cl_build_log_map_lines(log, len, file, other, NULL);
}

/* The raw build log (heap, NUL-terminated), or NULL. */
static char *gp_cl_raw_log(const gp_cl_api *api, cl_program program, cl_device_id dev)
{
    size_t size = 0;
    if (api->clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
        CL_SUCCESS)
        return NULL;
    char *raw = calloc(size + 1, 1);
    if (raw && api->clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, raw, NULL) !=
                   CL_SUCCESS) {
        free(raw);
        raw = NULL;
    }
    return raw;
}

/* The build log of `program` for `dev`, mapped; NULL when it cannot be read. */
static char *gp_cl_program_log(const gp_cl_api *api, cl_program program, cl_device_id dev,
                               const char *file, const char *other, const gp_cl_lines *lines)
{
    char *raw = gp_cl_raw_log(api, program, dev);
    char *mapped = raw ? gp_cl_build_log_map_lines(raw, strlen(raw), file, other, lines) : NULL;
    free(raw);
    return mapped;
}

static void gp_cl_device_name(const gp_cl_api *api, cl_device_id dev, char *buf, size_t cap)
{
    size_t got = 0;
    buf[0] = '\0';
    if (api->clGetDeviceInfo(dev, CL_DEVICE_NAME, cap - 1, buf, &got) != CL_SUCCESS)
        snprintf(buf, cap, "the OpenCL device");
    buf[cap - 1] = '\0';
}

/* Newlines in text[0, n). */
static unsigned gp_cl_count_lines(const char *text, size_t n)
{
    unsigned c = 0;
    for (const char *p = text; (p = memchr(p, '\n', n - (size_t)(p - text))) != NULL; p++)
        c++;
    return c;
}

/* The first `what` in text[from, len), or NULL. */
static const char *gp_cl_find_text(const char *text, size_t len, const char *what, size_t from)
{
    size_t w = strlen(what);
    for (size_t i = from; i + w <= len; i++)
        if (text[i] == what[0] && memcmp(text + i, what, w) == 0) return text + i;
    return NULL;
}

/* Copies `file` into a #line directive, replacing what a string literal cannot hold. */
static void gp_cl_line_directive(char *dst, size_t cap, const char *file)
{
    size_t o = (size_t)snprintf(dst, cap, "#line 1 \"");
    for (const char *p = file; *p && o + 4 < cap; p++)
        dst[o++] = (*p == '"' || *p == '\\' || *p == '\n' || *p == '\r') ? '_' : *p;
    snprintf(dst + o, cap - o, "\"\n");
}

static gp_status gp_cl_build_failed(const gp_cl_api *api, cl_program program, cl_device_id dev,
                                    const char *file, const char *other, const gp_cl_lines *lines,
                                    cl_int err)
{
    char devname[256];
    gp_cl_device_name(api, dev, devname, sizeof devname);
    char *log = gp_cl_program_log(api, program, dev, file, other, lines);
    gp_status st;
    if (err == CL_BUILD_PROGRAM_FAILURE && log)
        st = gp_error_set(GP_ERR_BUILD, "%s: OpenCL build failed on %s:\n%s", file, devname, log);
    else
        st = gp_cl_fail(err, "%s: clBuildProgram on %s%s%s", file, devname, log ? ":\n" : "",
                        log ? log : "");
    free(log);
    return st;
}

/* clang's summary: "1 error generated.", "2 warnings and 1 error generated." */
static bool gp_cl_summary_line(const char *line, size_t len)
{
    static const char tail[] = " generated.";
    size_t t = sizeof tail - 1;
    if (len <= t || !isdigit((unsigned char)line[0]) || memcmp(line + len - t, tail, t) != 0)
        return false;
    for (size_t i = 0; i < len - t; i++)
        if (!isalnum((unsigned char)line[i]) && line[i] != ' ') return false;
    return true;
}

/* A line the compiler printed on stderr that gpuport's message carries already: the summary,
 * whose diagnostics are in the build log, or a line of the log itself. */
static bool gp_cl_in_log(const char *line, size_t len, void *ctx)
{
    const char *log = ctx;
    if (len == 0 || gp_cl_summary_line(line, len)) return true;
    for (const char *p = log; p && (p = strchr(p, line[0])) != NULL; p++)
        if (strncmp(p, line, len) == 0 && (p[len] == '\n' || p[len] == '\0' || p[len] == '\r') &&
            (p == log || p[-1] == '\n'))
            return true;
    return false;
}

/* clBuildProgram with the driver's own stderr output caught (see the top of the file). */
static cl_int gp_cl_build_quietly(const gp_cl_api *api, cl_program p, cl_device_id dev,
                                  const char *options)
{
    gp_stderr_capture cap;
    gp_stderr_capture_begin(&cap);
    cl_int err = api->clBuildProgram(p, 1, &dev, options ? options : "", NULL, NULL);
    char *said = gp_stderr_capture_end(&cap, (size_t)1 << 20);
    if (said && *said) {
        char *log = gp_cl_raw_log(api, p, dev);
        gp_stderr_capture_replay(said, gp_cl_in_log, log);
        free(log);
    }
    free(said);
    return err;
}

/* Compiles `n` pieces of text as one program and builds it for `dev`. */
static gp_status gp_cl_build_parts(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                   cl_uint n, const char **parts, const size_t *lens,
                                   const char *file, const char *other, const gp_cl_lines *lines,
                                   const char *options, cl_program *out)
{
    cl_int err;
    cl_program p = api->clCreateProgramWithSource(ctx, n, parts, lens, &err);
    if (!p) return gp_cl_fail(err, "%s: clCreateProgramWithSource", file);
    err = gp_cl_build_quietly(api, p, dev, options);
    if (err != CL_SUCCESS) {
        gp_status st = gp_cl_build_failed(api, p, dev, file, other, lines, err);
        api->clReleaseProgram(p);
        return st;
    }
    *out = p;
    return GP_OK;
}

gp_status gp_cl_program_build_source(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                     const char *prelude, const char *source, size_t len,
                                     const char *file, const char *options, cl_program *out)
{
    *out = NULL;
    if (!file || !*file) file = "<kernel source>";
    char line[600];
    gp_cl_line_directive(line, sizeof line, file);
    const char *parts[3] = {prelude ? prelude : "", line, source};
    size_t lens[3] = {strlen(parts[0]), strlen(line), len};
    /* the prelude here has no #line of its own: only the user's part is placed by line */
    gp_cl_lines lines = {0, gp_cl_count_lines(parts[0], lens[0]) + 2};
    if (lens[0] && parts[0][lens[0] - 1] != '\n') lines.user_first--; /* #line on its last line */
    return gp_cl_build_parts(api, ctx, dev, 3, parts, lens, file, GP_CL_PRELUDE_NAME, &lines,
                             options, out);
}

gp_status gp_cl_program_build_assembled(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                        const char *text, size_t len, const char *file,
                                        const char *options, cl_program *out)
{
    *out = NULL;
    if (!file || !*file) file = "<kernel source>";
    const char *parts[1] = {text};
    size_t lens[1] = {len};
    /* the core's layout: defines, #line 1 "gpuport/kernel.h", the prelude, #line 1 "<file>",
     * the user's source; each part is placed by the line after its directive */
    gp_cl_lines lines = {0, 0};
    static const char header_dir[] = "#line 1 \"" GP_CL_HEADER_NAME "\"\n";
    const char *h = gp_cl_find_text(text, len, header_dir, 0);
    if (h) {
        size_t after = (size_t)(h - text) + sizeof header_dir - 1;
        lines.header_first = gp_cl_count_lines(text, after) + 1;
        const char *u = gp_cl_find_text(text, len, "\n#line 1 \"", after);
        if (u) {
            const char *eol = memchr(u + 1, '\n', len - (size_t)(u + 1 - text));
            if (eol) lines.user_first = gp_cl_count_lines(text, (size_t)(eol + 1 - text)) + 1;
        }
    }
    return gp_cl_build_parts(api, ctx, dev, 1, parts, lens, file, GP_CL_DEFINES_NAME, &lines,
                             options, out);
}

gp_status gp_cl_program_build_binary(const gp_cl_api *api, cl_context ctx, cl_device_id dev,
                                     const unsigned char *binary, size_t len, const char *options,
                                     cl_program *out)
{
    *out = NULL;
    cl_int status = CL_SUCCESS, err;
    cl_program p = api->clCreateProgramWithBinary(ctx, 1, &dev, &len, &binary, &status, &err);
    if (!p || err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p) api->clReleaseProgram(p);
        cl_int why = err != CL_SUCCESS ? err : status;
        gp_cl_fail(why, "clCreateProgramWithBinary (a cached binary of %zu bytes)", len);
        return GP_ERR_BUILD;
    }
    err = gp_cl_build_quietly(api, p, dev, options);
    if (err != CL_SUCCESS) {
        api->clReleaseProgram(p);
        gp_cl_fail(err, "clBuildProgram of a cached binary");
        return GP_ERR_BUILD;
    }
    *out = p;
    return GP_OK;
}

gp_status gp_cl_program_binary(const gp_cl_api *api, cl_program program, unsigned char **binary,
                               size_t *len)
{
    *binary = NULL;
    *len = 0;
    cl_uint ndev = 0;
    cl_int err = api->clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL);
    if (err != CL_SUCCESS) return gp_cl_fail(err, "clGetProgramInfo(CL_PROGRAM_NUM_DEVICES)");
    if (ndev != 1)
        return gp_error_set(GP_ERR_INTERNAL, "an OpenCL program of %u devices, expected one",
                            (unsigned)ndev);
    size_t size = 0;
    err = api->clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS) return gp_cl_fail(err, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
    if (size == 0)
        return gp_error_set(GP_ERR_UNSUPPORTED, "the OpenCL driver returned no program binary");
    unsigned char *bin = malloc(size);
    if (!bin)
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory for a %zu-byte binary", size);
    err = api->clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    if (err != CL_SUCCESS) {
        free(bin);
        return gp_cl_fail(err, "clGetProgramInfo(CL_PROGRAM_BINARIES)");
    }
    *binary = bin;
    *len = size;
    return GP_OK;
}

gp_status gp_cl_kernel_limits_query(const gp_cl_api *api, cl_kernel kernel, cl_device_id dev,
                                    gp_cl_kernel_limits *out)
{
    cl_ulong local = 0, priv = 0;
    memset(out, 0, sizeof *out);
    cl_int err =
        api->clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof out->max_group_size, &out->max_group_size, NULL);
    if (err == CL_SUCCESS)
        err = api->clGetKernelWorkGroupInfo(
            kernel, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
            sizeof out->preferred_multiple, &out->preferred_multiple, NULL);
    if (err == CL_SUCCESS)
        err = api->clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local,
                                            &local, NULL);
    if (err == CL_SUCCESS)
        err = api->clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv,
                                            &priv, NULL);
    if (err != CL_SUCCESS) return gp_cl_fail(err, "clGetKernelWorkGroupInfo");
    out->local_mem_bytes = local;
    out->private_mem_bytes = priv;
    if (out->preferred_multiple == 0) out->preferred_multiple = 1;
    return GP_OK;
}

bool gp_cl_pocl_conditional_barrier_bug(const char *platform_name, const char *driver_version)
{
    if (!strstr(platform_name, "Portable Computing Language")) return false;
    int major = atoi(driver_version); /* "3.1+debian" */
    return major >= 1 && major <= 3;
}

/* The scan of gp_cl_has_conditional_barrier: a token at a time. */
typedef struct cb_scan {
    const char *s;
    size_t n, i;
    bool line_start;
    char macros[8][64]; /* `#define SYNC gp_barrier()`: names that stand for a barrier */
    int nmacros;
} cb_scan;

/* A directive from..to: a #define whose body calls gp_barrier() names a barrier too. */
static void cb_directive(cb_scan *c, size_t from, size_t to)
{
    size_t i = from + 1;
    while (i < to && (c->s[i] == ' ' || c->s[i] == '\t'))
        i++;
    if (to - i < 7 || strncmp(c->s + i, "define", 6) || (c->s[i + 6] != ' ' && c->s[i + 6] != '\t'))
        return;
    i += 7;
    while (i < to && (c->s[i] == ' ' || c->s[i] == '\t'))
        i++;
    size_t b = i;
    while (i < to && (c->s[i] == '_' || isalnum((unsigned char)c->s[i])))
        i++;
    bool calls = false;
    for (size_t j = i; j + 10 <= to && !calls; j++)
        calls = !strncmp(c->s + j, "gp_barrier", 10);
    if (calls && i > b && i - b < sizeof c->macros[0] && c->nmacros < 8) {
        memcpy(c->macros[c->nmacros], c->s + b, i - b);
        c->macros[c->nmacros++][i - b] = '\0';
    }
}

/* Moves past blanks, comments, strings and preprocessor lines; false at the end. */
static bool cb_skip(cb_scan *c)
{
    while (c->i < c->n) {
        char ch = c->s[c->i];
        if (ch == '\n') {
            c->line_start = true, c->i++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            c->i++;
        } else if (ch == '#' && c->line_start) { /* a directive, with its continued lines */
            size_t from = c->i;
            while (c->i < c->n && c->s[c->i] != '\n')
                c->i += c->s[c->i] == '\\' && c->i + 1 < c->n ? 2 : 1;
            if (c->i > c->n) c->i = c->n;
            cb_directive(c, from, c->i);
        } else if (ch == '/' && c->i + 1 < c->n && c->s[c->i + 1] == '/') {
            while (c->i < c->n && c->s[c->i] != '\n')
                c->i++;
        } else if (ch == '/' && c->i + 1 < c->n && c->s[c->i + 1] == '*') {
            c->i += 2;
            while (c->i + 1 < c->n && !(c->s[c->i] == '*' && c->s[c->i + 1] == '/'))
                c->i++;
            c->i = c->i + 2 < c->n ? c->i + 2 : c->n;
        } else if (ch == '"' || ch == '\'') {
            c->i++;
            while (c->i < c->n && c->s[c->i] != ch && c->s[c->i] != '\n')
                c->i += c->s[c->i] == '\\' ? 2 : 1;
            c->i = c->i + 1 < c->n ? c->i + 1 : c->n;
            c->line_start = false;
        } else {
            return true;
        }
    }
    return false;
}

static bool cb_ident(char ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9');
}

enum { CB_MAX_DEPTH = 256 };

bool gp_cl_has_conditional_barrier(const char *src, size_t len)
{
    cb_scan c = {.s = src, .n = len, .line_start = true};
    /* per open brace: 1 under an if or else, 2 a kernel's body, 0 anything else */
    unsigned char kind[CB_MAX_DEPTH];
    int depth = 0, paren = 0;
    bool kernel_head = false; /* GP_KERNEL seen, its body not yet open */
    bool returned = false;    /* a `return` under an if in the current function */
    bool cond_stmt = false;   /* an if/else head whose statement is not braced: until ';' */
    char prev[64] = "";       /* the last identifier before the current parenthesis */
    char head[64] = "";       /* the identifier before the open top-level '(' */
    while (cb_skip(&c)) {
        char ch = src[c.i];
        c.line_start = false;
        if (cb_ident(ch)) {
            size_t b = c.i;
            while (c.i < len && cb_ident(src[c.i]))
                c.i++;
            size_t w = c.i - b;
            char word[64] = "";
            if (w < sizeof word) memcpy(word, src + b, w);
            if (!strcmp(word, "GP_KERNEL")) kernel_head = true;
            bool under_if = cond_stmt;
            for (int d = 0; d < depth && d < CB_MAX_DEPTH && !under_if; d++)
                under_if = kind[d] == 1;
            bool in_kernel = false;
            for (int d = 0; d < depth && d < CB_MAX_DEPTH; d++)
                in_kernel |= kind[d] == 2;
            if (!strcmp(word, "return") && under_if) returned = true;
            bool barrier = !strcmp(word, "gp_barrier");
            for (int m = 0; m < c.nmacros && !barrier; m++)
                barrier = !strcmp(word, c.macros[m]);
            if (barrier && depth > 0 && (under_if || returned || !in_kernel)) return true;
            if (!strcmp(word, "else")) cond_stmt = true; /* until its '{' or ';' */
            if (!paren) snprintf(prev, sizeof prev, "%s", word);
            continue;
        }
        c.i++;
        if (ch == '(') {
            if (!paren) snprintf(head, sizeof head, "%s", prev);
            paren++;
        } else if (ch == ')') {
            if (paren) paren--;
            /* `if (c) stmt;`: the statement is under the if */
            if (!paren && !strcmp(head, "if")) cond_stmt = true;
            if (!paren) head[0] = '\0';
            snprintf(prev, sizeof prev, ")");
        } else if (ch == '{') {
            unsigned char k = 0;
            if (cond_stmt)
                k = 1;
            else if (kernel_head && depth == 0)
                k = 2;
            if (depth == 0) returned = false, kernel_head = false;
            if (depth < CB_MAX_DEPTH) kind[depth] = k;
            depth++;
            cond_stmt = false;
            prev[0] = '\0';
        } else if (ch == '}') {
            if (depth) depth--;
            cond_stmt = false;
            prev[0] = '\0';
        } else if (ch == ';') {
            if (!paren) cond_stmt = false, prev[0] = '\0';
        } else if (!paren) {
            prev[0] = '\0';
        }
    }
    return false;
}
