/* scan_deps.c — dependency declarations: requirements/constraints files, pyproject.toml,
 * setup.cfg and conda environment files, read line by line. Every requirement specifier goes
 * through one checker (REQ-001/002/003); conda packages and channels through CONDA-001. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "audit/lines.h"
#include "audit/scanners.h"

static bool has_cu_digits(const char *p, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k < n; i++)
        if (memcmp(p + i, key, k) == 0 && isdigit((unsigned char)p[i + k])) return true;
    return false;
}

static bool ci_contains(const char *p, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(p + i, w, k) == 0) return true;
    return false;
}

/* Is the normalised (lowercase, '-') package name CUDA-only? */
static bool name_cuda_only(const char *nm, const char *extras, size_t exn)
{
    if (strncmp(nm, "nvidia-", 7) == 0 &&
        (strstr(nm, "-cu1") || strstr(nm, "-cu2") || strstr(nm, "-cu9") || strstr(nm, "-cuda")))
        return true;
    /* RAPIDS wheels carry their CUDA major in the name (cuml-cu11, cudf-cu12) */
    static const char *const pre[] = {
        "cupy-cuda",   "spconv-cu",      "faiss-gpu",          "tensorrt",
        "cuml-cu",     "cudf-cu",        "cugraph-cu",         "cuspatial-cu",
        "cucim-cu",    "rmm-cu",         "pylibraft-cu",       "raft-dask-cu",
        "nvidia-dali", "nvidia-cutlass", "transformer-engine", "flashinfer"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(nm, pre[i], strlen(pre[i])) == 0) return true;
    static const char *const ex[] = {
        "onnxruntime-gpu", "flash-attn", "xformers",   "pycuda", "mamba-ssm",
        "causal-conv1d",   "nvdiffrast", "tinycudann", "apex",   "cuda-python",
        "cuda-bindings",   "cuda-core",  "tilelang",   "triton", "bitsandbytes",
        "tensorflow-gpu"};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
        if (strcmp(nm, ex[i]) == 0) return true;
    if ((strcmp(nm, "jax") == 0 || strcmp(nm, "jaxlib") == 0) && exn > 0 &&
        ci_contains(extras, exn, "cuda"))
        return true;
    return false;
}

/* The comparison operator before a quoted platform name at p[at] ("==", "!=", or 0). */
static char marker_op(const char *p, size_t at)
{
    size_t i = at;
    while (i > 0 && (p[i - 1] == '"' || p[i - 1] == '\'' || p[i - 1] == ' '))
        i--;
    return i >= 2 && p[i - 1] == '=' && (p[i - 2] == '=' || p[i - 2] == '!') ? p[i - 2] : 0;
}

/* Does a pip environment marker keep the requirement off macOS? `sys_platform == "linux"` and
 * `platform_system != "Darwin"` do; a marker that also lets darwin in does not. */
static bool linux_marker(const char *p, size_t n)
{
    bool linux_only = false, off_mac = false, on_mac = false;
    for (size_t i = 0; i + 5 <= n; i++) {
        bool lx = strncasecmp(p + i, "linux", 5) == 0,
             dw = i + 6 <= n && strncasecmp(p + i, "darwin", 6) == 0;
        if (!lx && !dw) continue;
        char op = marker_op(p, i);
        if (lx && op == '=') linux_only = true;
        if (dw && op == '!') off_mac = true;
        if (dw && op == '=') on_mac = true;
    }
    return (linux_only || off_mac) && !on_mac;
}

/* Past blanks and line continuations (a backslash before the line end) from j. */
static size_t req_blanks(const char *p, size_t j, size_t len)
{
    for (;;) {
        while (j < len && (p[j] == ' ' || p[j] == '\t'))
            j++;
        size_t k = j < len && p[j] == '\\' ? j + 1 : j;
        if (k < len && p[k] == '\r') k++;
        if (k == j || k >= len || p[k] != '\n') return j;
        j = k + 1;
    }
}

/* Does a torch specifier p[0, n) ("==1.10.0", ">=1.7,<1.12", "<=1.11") keep torch below 1.12,
 * the first release with MPS? An exact version, an upper bound or a compatible release (~=1.9.0)
 * below it does. */
static bool torch_before_mps(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char op0 = p[i], op1 = i + 1 < n ? p[i + 1] : 0;
        size_t v;
        int kind; /* 0 exact or compatible within a minor, 1 below, 2 at most */
        if (op0 == '=' && op1 == '=') {
            v = i + 2;
            kind = 0;
        } else if (op0 == '~' && op1 == '=') {
            v = i + 2;
            kind = 3; /* ~=X.Y.Z: X.Y.*; ~=X.Y: X.* */
        } else if (op0 == '<' && op1 == '=') {
            v = i + 2;
            kind = 2;
        } else if (op0 == '<') {
            v = i + 1;
            kind = 1;
        } else {
            continue;
        }
        while (v < n && p[v] == ' ')
            v++;
        if (v >= n || !isdigit((unsigned char)p[v])) continue;
        long major = 0, minor = -1;
        int parts = 0;
        size_t q = v;
        while (q < n && isdigit((unsigned char)p[q]))
            major = major * 10 + (p[q++] - '0');
        parts = 1;
        if (q < n && p[q] == '.' && q + 1 < n && isdigit((unsigned char)p[q + 1])) {
            minor = 0;
            for (q++; q < n && isdigit((unsigned char)p[q]); q++)
                minor = minor * 10 + (p[q] - '0');
            parts = 2;
            if (q < n && p[q] == '.' && q + 1 < n && isdigit((unsigned char)p[q + 1])) parts = 3;
        }
        if (major > 1 || minor < 0) continue; /* 2.x, or no minor to judge by */
        long ver = major * 1000 + minor;      /* 1.12 -> 1012 */
        bool old = kind == 1 ? ver <= 1012 : ver < 1012;
        if (kind == 3 && parts == 2) old = major < 1; /* ~=1.9 allows any 1.x */
        if (major == 0) old = true;
        if (old) return true;
        i = q;
    }
    return false;
}

void gp_audit_check_requirement(gp_audit_source *s, gp_audit_result *r, uint32_t line,
                                size_t line_off, size_t off, size_t len)
{
    const char *p = s->data + off;
    size_t i = 0;
    while (i < len && isspace((unsigned char)p[i]))
        i++;
    if (i >= len) return;
    if (p[i] == '-') { /* pip options: an index or find-links URL */
        if (ci_contains(p + i, len - i, "index-url") || ci_contains(p + i, len - i, "find-links") ||
            (len - i > 2 && (p[i + 1] == 'i' || p[i + 1] == 'f') &&
             (i + 2 >= len || p[i + 2] == ' ' || p[i + 2] == '=')))
            if (has_cu_digits(p + i, len - i, "/whl/cu") || has_cu_digits(p + i, len - i, "/cu") ||
                ci_contains(p + i, len - i, "nvidia.com")) /* NVIDIA's own index of CUDA wheels */
                gp_audit_add(r, s, GP_R_REQ_001, false, line, line_off, off + i, len - i);
        return;
    }
    if (!isalnum((unsigned char)p[i])) return;
    if (has_cu_digits(p + i, len - i, "/whl/cu")) { /* a direct URL */
        gp_audit_add(r, s, GP_R_REQ_001, false, line, line_off, off + i, len - i);
        return;
    }
    size_t ns = i;
    char nm[80];
    size_t k = 0;
    while (i < len && (isalnum((unsigned char)p[i]) || p[i] == '-' || p[i] == '_' || p[i] == '.')) {
        if (k + 1 < sizeof nm)
            nm[k++] = p[i] == '_' || p[i] == '.' ? '-' : (char)tolower((unsigned char)p[i]);
        i++;
    }
    nm[k] = '\0';
    size_t ne = i;
    /* a requirement is a name followed by nothing, extras, a specifier, a marker, a URL, a
     * comment or (after a blank) pip's per-requirement options (--hash=...) */
    size_t j = req_blanks(p, i, len);
    if (j < len && !strchr("[=<>!~;@(,#", p[j]) &&
        !(j > i && j + 1 < len && p[j] == '-' && p[j + 1] == '-'))
        return;
    const char *extras = NULL;
    size_t exn = 0;
    if (j < len && p[j] == '[') {
        extras = p + j;
        const char *e = memchr(p + j, ']', len - j);
        exn = e ? (size_t)(e - (p + j)) : len - j;
    }
    const char *semi = memchr(p + i, ';', len - i);
    size_t spec_end = semi ? (size_t)(semi - p) : len;
    bool linux_only = semi && linux_marker(semi, len - (size_t)(semi - p));
    if (strcmp(nm, "torch") == 0 && torch_before_mps(p + i, spec_end - i))
        gp_audit_add(r, s, GP_R_REQ_004, linux_only, line, line_off, off + ns, spec_end - ns);
    if (has_cu_digits(p + i, spec_end - i, "+cu")) {
        gp_audit_add(r, s, GP_R_REQ_001, linux_only, line, line_off, off + ns, spec_end - ns);
        return;
    }
    if (name_cuda_only(nm, extras, exn))
        gp_audit_add(r, s, GP_R_REQ_002, linux_only, line, line_off, off + ns, ne - ns);
}

void gp_audit_scan_requirements(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, true);
    gp_line l;
    while (gp_line_next(&lr, &l)) {
        const char *p = s->data + l.off;
        size_t n = l.len;
        /* a comment starts at '#' at the line start or after whitespace */
        for (size_t i = 0; i < n; i++)
            if (p[i] == '#' && (i == 0 || isspace((unsigned char)p[i - 1]))) {
                gp_audit_note_comment(r, p + i, n - i, l.line, i == 0);
                n = i;
                break;
            }
        if (n > 4096) n = 4096;
        gp_audit_check_requirement(s, r, l.line, l.off, l.off, n);
    }
}

/* ---- pyproject.toml -------------------------------------------------------------------- */

static void toml_strings(gp_audit_source *s, gp_audit_result *r, const gp_line *l, size_t from,
                         bool reqs, const char *key, size_t keyn)
{
    const char *d = s->data;
    size_t e = l->off + l->len;
    for (size_t p = from; p < e; p++) {
        if (d[p] == '#') {
            gp_audit_note_comment(r, d + p, e - p, l->line, false);
            return;
        }
        if (d[p] != '"' && d[p] != '\'') continue;
        char q = d[p];
        size_t st = p + 1, q2 = st;
        while (q2 < e && d[q2] != q)
            q2 += (d[q2] == '\\' && q == '"') ? 2 : 1;
        if (q2 > e) q2 = e;
        size_t n = q2 - st;
        const char *v = d + st;
        if ((n > 3 && memcmp(v + n - 3, ".cu", 3) == 0) ||
            (n > 4 && memcmp(v + n - 4, ".cuh", 4) == 0))
            gp_audit_add(r, s, GP_R_PY_EXT_001, false, l->line, l->off, st, n);
        else if (has_cu_digits(v, n, "/whl/cu") ||
                 (n > 8 && memcmp(v, "http", 4) == 0 && ci_contains(v, n, "pypi.nvidia.com")))
            gp_audit_add(r, s, GP_R_REQ_001, false, l->line, l->off, st, n);
        else if (reqs && key) { /* poetry: name = "version" */
            if (has_cu_digits(v, n, "+cu"))
                gp_audit_add(r, s, GP_R_REQ_001, false, l->line, l->off, st, n);
        } else if (reqs) {
            gp_audit_check_requirement(s, r, l->line, l->off, st, n);
        }
        p = q2;
    }
    (void)keyn;
}

/* How many more '[' than ']' d[p, e) holds outside strings, up to a comment. */
static int toml_brackets(const char *d, size_t p, size_t e)
{
    int depth = 0;
    for (; p < e; p++) {
        char c = d[p];
        if (c == '#') break;
        if (c == '"' || c == '\'') {
            for (p++; p < e && d[p] != c; p++)
                if (d[p] == '\\' && c == '"') p++; /* an escape in a basic string */
            continue;
        }
        if (c == '[') depth++;
        if (c == ']') depth--;
    }
    return depth;
}

void gp_audit_scan_pyproject(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, false);
    gp_line l;
    char section[96] = "";
    bool in_req_array = false;
    int depth = 0; /* of the requirement array's brackets */
    const char *d = s->data;
    while (gp_line_next(&lr, &l)) {
        size_t p = l.off, e = l.off + l.len;
        while (p < e && isspace((unsigned char)d[p]))
            p++;
        if (p < e && d[p] == '[' && !in_req_array) {
            size_t q = p;
            while (q < e && d[q] == '[')
                q++;
            size_t k = 0;
            while (q < e && d[q] != ']' && k + 1 < sizeof section)
                section[k++] = d[q++];
            section[k] = '\0';
            continue;
        }
        bool dep_section = strstr(section, "dependencies") ||
                           strstr(section, "dependency-groups") ||
                           strstr(section, "optional-dependencies");
        bool poetry = strstr(section, "poetry") && strstr(section, "dependencies");
        /* key = value */
        size_t ks = p;
        while (p < e && (isalnum((unsigned char)d[p]) || d[p] == '-' || d[p] == '_' ||
                         d[p] == '.' || d[p] == '"'))
            p++;
        size_t kn = p - ks;
        size_t q = p;
        while (q < e && d[q] == ' ')
            q++;
        bool assign = kn > 0 && q < e && d[q] == '=';
        if (assign && !in_req_array) {
            bool reqkey = (kn == 12 && memcmp(d + ks, "dependencies", 12) == 0) ||
                          (kn == 8 && memcmp(d + ks, "requires", 8) == 0) || dep_section;
            if (poetry) {
                toml_strings(s, r, &l, q + 1, true, d + ks, kn);
                continue;
            }
            depth = toml_brackets(d, q + 1, e);
            if (reqkey && depth > 0) in_req_array = true;
            toml_strings(s, r, &l, q + 1, reqkey, NULL, 0);
            continue;
        }
        toml_strings(s, r, &l, l.off, in_req_array, NULL, 0);
        if (in_req_array && (depth += toml_brackets(d, l.off, e)) <= 0) in_req_array = false;
    }
}

/* ---- setup.cfg -------------------------------------------------------------------------- */

void gp_audit_scan_setup_cfg(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, false);
    gp_line l;
    const char *d = s->data;
    bool extras = false, reqs = false;
    while (gp_line_next(&lr, &l)) {
        size_t p = l.off, e = l.off + l.len;
        bool indented = p < e && (d[p] == ' ' || d[p] == '\t');
        while (p < e && isspace((unsigned char)d[p]))
            p++;
        if (p >= e) continue;
        if (d[p] == '#' || d[p] == ';') {
            gp_audit_note_comment(r, d + p, e - p, l.line, true);
            continue;
        }
        if (d[p] == '[') {
            extras = ci_contains(d + p, e - p, "extras_require");
            reqs = false;
            continue;
        }
        size_t vs = p;
        if (!indented) {
            const char *eq = memchr(d + p, '=', e - p);
            if (!eq) continue;
            size_t kn = (size_t)(eq - (d + p));
            reqs = extras || ci_contains(d + p, kn, "install_requires") ||
                   ci_contains(d + p, kn, "setup_requires") ||
                   ci_contains(d + p, kn, "tests_require");
            vs = (size_t)(eq - d) + 1;
        }
        if (!reqs) continue;
        gp_audit_check_requirement(s, r, l.line, l.off, vs, e - vs);
    }
}

/* ---- conda environment files ----------------------------------------------------------- */

static bool conda_pkg_cuda(const char *nm, size_t n, const char *spec, size_t sn)
{
    static const char *const ex[] = {"pytorch-cuda",    "cudatoolkit", "cuda-toolkit",
                                     "cudnn",           "nccl",        "cuda",
                                     "cudatoolkit-dev", "cupy",        "magma-cuda"};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
        if (strlen(ex[i]) == n && memcmp(ex[i], nm, n) == 0) return true;
    if (n > 5 && memcmp(nm, "cuda-", 5) == 0) return true;
    if (n > 10 && memcmp(nm, "magma-cuda", 10) == 0) return true;
    /* a CUDA build string: pytorch=2.1=*cuda*, py3.10_cuda11.8_* */
    return ci_contains(spec, sn, "cuda");
}

enum { K_OTHER, K_CHANNELS, K_DEPS };

/* One item of a conda file's channels or dependencies, at d[v, e) (quotes taken off). */
static void conda_item(gp_audit_source *s, gp_audit_result *r, int key, const gp_line *l, size_t v,
                       size_t e)
{
    const char *d = s->data;
    if (v < e && (d[v] == '"' || d[v] == '\'')) {
        v++;
        if (e > v && (d[e - 1] == '"' || d[e - 1] == '\'')) e--;
    }
    if (v >= e) return;
    uint32_t line;
    size_t lo;
    gp_line_locate(s, l, v, &line, &lo);
    if (key == K_CHANNELS) {
        if ((e - v == 6 && memcmp(d + v, "nvidia", 6) == 0) ||
            ci_contains(d + v, e - v, "/nvidia") ||
            (e - v == 8 && memcmp(d + v, "rapidsai", 8) == 0))
            gp_audit_add(r, s, GP_R_CONDA_001, false, line, lo, v, e - v);
        return;
    }
    /* [channel::]name[=version[=build]] or "name >=1.0" */
    size_t ns = v;
    const char *cc = NULL;
    for (size_t i = v; i + 1 < e; i++)
        if (d[i] == ':' && d[i + 1] == ':') cc = d + i;
    bool nvidia_channel = cc && (size_t)(cc - (d + v)) == 6 && memcmp(d + v, "nvidia", 6) == 0;
    if (cc) ns = (size_t)(cc - d) + 2;
    size_t ne = ns;
    while (ne < e &&
           (isalnum((unsigned char)d[ne]) || d[ne] == '-' || d[ne] == '_' || d[ne] == '.'))
        ne++;
    if (nvidia_channel || conda_pkg_cuda(d + ns, ne - ns, d + ne, e - ne)) {
        gp_audit_add(r, s, GP_R_CONDA_001, false, line, lo, v, e - v);
        return;
    }
    char nm[80]; /* a package without a macOS build, as in requirements (faiss-gpu, xformers) */
    size_t k = 0;
    for (size_t i = ns; i < ne && k + 1 < sizeof nm; i++)
        nm[k++] = d[i] == '_' || d[i] == '.' ? '-' : (char)tolower((unsigned char)d[i]);
    nm[k] = '\0';
    if (name_cuda_only(nm, NULL, 0)) gp_audit_add(r, s, GP_R_REQ_002, false, line, lo, ns, ne - ns);
}

void gp_audit_scan_conda(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, false);
    gp_line l;
    const char *d = s->data;
    int key = K_OTHER;
    int pip_indent = -1;
    while (gp_line_next(&lr, &l)) {
        size_t p = l.off, e = l.off + l.len;
        while (p < e && (d[p] == ' ' || d[p] == '\t'))
            p++;
        int indent = (int)(p - l.off);
        if (p >= e) continue;
        for (size_t i = p; i < e; i++)
            if (d[i] == '#' && (i == p || isspace((unsigned char)d[i - 1]))) {
                gp_audit_note_comment(r, d + i, e - i, l.line, i == p);
                e = i;
                break;
            }
        while (e > p && isspace((unsigned char)d[e - 1]))
            e--;
        if (p >= e) continue;
        if (indent == 0 && d[p] != '-') {
            size_t kl = e - p;
            key = kl >= 9 && memcmp(d + p, "channels:", 9) == 0         ? K_CHANNELS
                  : kl >= 13 && memcmp(d + p, "dependencies:", 13) == 0 ? K_DEPS
                                                                        : K_OTHER;
            pip_indent = -1;
            /* a flow list on the key's line: channels: [pytorch, nvidia] */
            const char *lb = key != K_OTHER ? memchr(d + p, '[', e - p) : NULL;
            if (lb) {
                size_t i = (size_t)(lb - d) + 1;
                while (i < e && d[i] != ']') {
                    while (i < e && (d[i] == ' ' || d[i] == ','))
                        i++;
                    size_t st = i;
                    while (i < e && d[i] != ',' && d[i] != ']')
                        i++;
                    size_t en = i;
                    while (en > st && d[en - 1] == ' ')
                        en--;
                    conda_item(s, r, key, &l, st, en);
                }
            }
            continue;
        }
        if (d[p] != '-') continue;
        if (pip_indent >= 0 && indent <= pip_indent) pip_indent = -1;
        size_t v = p + 1;
        while (v < e && d[v] == ' ')
            v++;
        if (v < e && (d[v] == '"' || d[v] == '\'')) {
            v++;
            if (e > v && (d[e - 1] == '"' || d[e - 1] == '\'')) e--;
        }
        if (v >= e || key == K_OTHER) continue;
        if (key == K_DEPS && pip_indent >= 0) {
            gp_audit_check_requirement(s, r, l.line, l.off, v, e - v);
            continue;
        }
        if (key == K_DEPS && e - v >= 4 && memcmp(d + v, "pip:", 4) == 0) {
            pip_indent = indent;
            continue;
        }
        conda_item(s, r, key, &l, v, e);
    }
}
