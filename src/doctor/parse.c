/* parse.c — see parse.h. Every reader works on (pointer, length) and never reads past it; the
 * inputs need not be NUL-terminated. Lines are at most a few hundred bytes in real files, but
 * nothing here depends on that. */
#include "doctor/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "doctor/sysroot.h"
#include "util/json.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads up to 6 digits at s[*i]; -1 when none. */
static int read_num(const char *s, size_t len, size_t *i)
{
    int v = 0, d = 0;
    while (*i < len && is_digit(s[*i])) {
        if (d < 6) v = v * 10 + (s[*i] - '0');
        d++;
        (*i)++;
    }
    return d == 0 || d > 6 ? -1 : v;
}

bool gp_version_find(const char *s, size_t len, gp_version *v)
{
    memset(v, 0, sizeof *v);
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(s[i]) || (i > 0 && (is_digit(s[i - 1]) || s[i - 1] == '.'))) continue;
        size_t j = i;
        gp_version t = {{0}, 0};
        int x = read_num(s, len, &j);
        if (x < 0) continue;
        t.part[t.n++] = x;
        while (t.n < 4 && j + 1 < len && s[j] == '.' && is_digit(s[j + 1])) {
            j++;
            x = read_num(s, len, &j);
            if (x < 0) break;
            t.part[t.n++] = x;
        }
        if (t.n >= 2) {
            *v = t;
            return true;
        }
    }
    return false;
}

int gp_version_cmp(const gp_version *a, const gp_version *b)
{
    for (int i = 0; i < 4; i++) {
        int x = i < a->n ? a->part[i] : 0, y = i < b->n ? b->part[i] : 0;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

void gp_version_format(const gp_version *v, bool driver_style, char *out, size_t n)
{
    if (n == 0) return;
    out[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < v->n && i < 4; i++) {
        const char *fmt = i == 0 ? "%d" : driver_style && i >= 1 ? ".%02d" : ".%d";
        int w = snprintf(out + used, n - used, fmt, v->part[i]);
        if (w < 0 || (size_t)w >= n - used) return;
        used += (size_t)w;
    }
}

gp_version gp_version_from_cuda_int(int v)
{
    gp_version r = {{0}, 0};
    if (v <= 0) return r;
    r.part[0] = v / 1000;
    r.part[1] = (v % 1000) / 10;
    r.n = 2;
    return r;
}

/* The line that starts at s[i], as [i, end). */
static size_t line_end(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] != '\n')
        i++;
    return i;
}

static bool span_contains(const char *s, size_t len, const char *needle)
{
    size_t nl = strlen(needle);
    for (size_t i = 0; i + nl <= len; i++)
        if (memcmp(s + i, needle, nl) == 0) return true;
    return false;
}

bool gp_parse_nvidia_version(const char *s, size_t len, char *ver, size_t vn, bool *open)
{
    /* Only the NVRM line: later lines carry the GCC version, also shaped like N.N.N. */
    size_t i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        if (e - i >= 4 && memcmp(s + i, "NVRM", 4) == 0) {
            gp_version v;
            /* skip "x86_64" and friends: the version follows "Module" */
            const char *line = s + i;
            size_t ll = e - i, from = 0;
            for (size_t k = 0; k + 6 <= ll; k++)
                if (memcmp(line + k, "Module", 6) == 0) from = k + 6;
            for (size_t k = 0; k + 6 <= ll; k++)
                if (memcmp(line + k, "x86_64", 6) == 0 || memcmp(line + k, "arm64 ", 6) == 0)
                    if (k + 6 > from) from = k + 6;
            if (!gp_version_find(line + from, ll - from, &v)) return false;
            gp_version_format(&v, true, ver, vn);
            *open = span_contains(line, ll, "Open Kernel");
            return true;
        }
        i = e + 1;
    }
    return false;
}

/* Copies a KEY=value value (quotes removed) into out. */
static void copy_value(const char *v, size_t vl, char *out, size_t n)
{
    while (vl > 0 && (v[vl - 1] == '\r' || v[vl - 1] == ' '))
        vl--;
    if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
        v++;
        vl -= 2;
    }
    if (n == 0) return;
    if (vl >= n) vl = n - 1;
    for (size_t i = 0; i < vl; i++)
        out[i] = (v[i] == '\0' || v[i] == '\t') ? ' ' : v[i];
    out[vl] = '\0';
}

bool gp_parse_os_release(const char *s, size_t len, gp_doctor_os *os)
{
    bool any = false;
    char name[64] = "";
    size_t i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        const char *l = s + i;
        size_t ll = e - i;
        const char *eq = memchr(l, '=', ll);
        if (eq) {
            size_t kl = (size_t)(eq - l), vl = ll - kl - 1;
            const char *v = eq + 1;
#define GP_KEY(k) (kl == strlen(k) && memcmp(l, k, kl) == 0)
            if (GP_KEY("ID"))
                copy_value(v, vl, os->id, sizeof os->id), any = true;
            else if (GP_KEY("ID_LIKE"))
                copy_value(v, vl, os->id_like, sizeof os->id_like);
            else if (GP_KEY("VERSION_ID"))
                copy_value(v, vl, os->version_id, sizeof os->version_id);
            else if (GP_KEY("PRETTY_NAME"))
                copy_value(v, vl, os->pretty, sizeof os->pretty);
            else if (GP_KEY("NAME"))
                copy_value(v, vl, name, sizeof name), any = true;
#undef GP_KEY
        }
        i = e + 1;
    }
    if (!os->pretty[0] && name[0]) gp_copy(os->pretty, sizeof os->pretty, name);
    if (!os->id[0] && name[0]) {
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof os->id; k++)
            os->id[k] = (char)tolower((unsigned char)name[k]);
        os->id[k] = '\0';
    }
    return any;
}

/* `key` [":" annotation] "=" value at the start of a line; the value span into *v. */
static bool py_assignment(const char *l, size_t ll, const char *key, const char **v, size_t *vl)
{
    size_t kl = strlen(key);
    if (ll <= kl || memcmp(l, key, kl) != 0) return false;
    size_t k = kl;
    if (l[k] != ' ' && l[k] != '=' && l[k] != ':') return false;
    const char *eq = memchr(l + k, '=', ll - k);
    if (!eq) return false;
    size_t off = (size_t)(eq - l) + 1;
    while (off < ll && (l[off] == ' ' || l[off] == '\t'))
        off++;
    *v = l + off;
    *vl = ll - off;
    while (*vl > 0 && (l[off + *vl - 1] == '\r' || l[off + *vl - 1] == ' '))
        (*vl)--;
    return true;
}

/* A Python string literal 'x' or "x" (no escapes needed for versions); false otherwise. */
static bool py_string(const char *v, size_t vl, char *out, size_t n)
{
    if (vl < 2 || (v[0] != '\'' && v[0] != '"')) return false;
    const char *close = memchr(v + 1, v[0], vl - 1);
    if (!close) return false;
    size_t l = (size_t)(close - v - 1);
    if (l == 0 || l >= n) return false;
    for (size_t i = 0; i < l; i++)
        if ((unsigned char)v[1 + i] < 0x20 || (unsigned char)v[1 + i] > 0x7e) return false;
    memcpy(out, v + 1, l);
    out[l] = '\0';
    return true;
}

bool gp_parse_torch_version(const char *s, size_t len, gp_doctor_torch *t)
{
    bool have_version = false, version_bad = false;
    size_t i = 0;
    t->cuda_build = t->hip_build = false;
    while (i < len) {
        size_t e = line_end(s, len, i);
        const char *v;
        size_t vl;
        if (py_assignment(s + i, e - i, "__version__", &v, &vl)) {
            if (py_string(v, vl, t->version, sizeof t->version))
                have_version = true;
            else
                version_bad = true;
        } else if (py_assignment(s + i, e - i, "cuda", &v, &vl)) {
            t->cuda_build = py_string(v, vl, t->cuda, sizeof t->cuda);
        } else if (py_assignment(s + i, e - i, "hip", &v, &vl)) {
            char tmp[32];
            t->hip_build = py_string(v, vl, tmp, sizeof tmp);
        }
        i = e + 1;
    }
    if (!have_version) {
        snprintf(t->reason, sizeof t->reason, "%s",
                 version_bad ? "__version__ is not a string literal" : "no __version__ assignment");
        return false;
    }
    if (t->cuda_build) {
        gp_version cv;
        if (!gp_version_find(t->cuda, strlen(t->cuda), &cv)) {
            snprintf(t->reason, sizeof t->reason, "cuda = '%.40s' is not a version", t->cuda);
            t->cuda_build = false;
            return false;
        }
    }
    return true;
}

bool gp_parse_keyed_line(const char *s, size_t len, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key), i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        if (e - i > kl && memcmp(s + i, key, kl) == 0) {
            size_t k = i + kl;
            while (k < e && (s[k] == ' ' || s[k] == '\t' || s[k] == ':' || s[k] == '='))
                k++;
            copy_value(s + k, e - k, out, n);
            return out[0] != '\0';
        }
        i = e + 1;
    }
    return false;
}

bool gp_parse_wheel_platform(const char *s, size_t len, char *out, size_t n)
{
    char tag[160];
    if (!gp_parse_keyed_line(s, len, "Tag:", tag, sizeof tag)) return false;
    /* python-abi-platform: the platform is everything after the second '-' */
    char *a = strchr(tag, '-');
    char *b = a ? strchr(a + 1, '-') : NULL;
    if (!b || !b[1]) return false;
    gp_copy(out, n, b + 1);
    return true;
}

bool gp_parse_cuda_version_json(const char *s, size_t len, gp_version *v, char *reason, size_t rn)
{
    char err[160];
    cJSON *j = gp_json_parse("version.json", s, len, err, sizeof err);
    if (!j) {
        snprintf(reason, rn, "%s", err);
        return false;
    }
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "cuda");
    const char *ver = gp_json_str(c, "version", NULL);
    bool ok = ver && gp_version_find(ver, strlen(ver), v);
    if (!ok) snprintf(reason, rn, "version.json has no cuda.version string");
    cJSON_Delete(j);
    return ok;
}

bool gp_parse_cuda_version_txt(const char *s, size_t len, gp_version *v)
{
    const char *key = "CUDA Version";
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= len; i++)
        if (memcmp(s + i, key, kl) == 0) return gp_version_find(s + i + kl, len - i - kl, v);
    return false;
}

bool gp_parse_cuda_h(const char *s, size_t len, gp_version *v)
{
    const char *key = "#define CUDA_VERSION";
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl < len; i++) {
        if (memcmp(s + i, key, kl) != 0 || (s[i + kl] != ' ' && s[i + kl] != '\t')) continue;
        size_t j = i + kl;
        while (j < len && (s[j] == ' ' || s[j] == '\t'))
            j++;
        int n = read_num(s, len, &j);
        if (n < 1000) return false;
        *v = gp_version_from_cuda_int(n);
        return true;
    }
    return false;
}

bool gp_parse_nvcc_version(const char *s, size_t len, gp_version *v)
{
    const char *key = "release ";
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= len; i++)
        if (memcmp(s + i, key, kl) == 0) return gp_version_find(s + i + kl, len - i - kl, v);
    return false;
}

bool gp_parse_gpu_information(const char *s, size_t len, gp_doctor_gpu *g)
{
    bool m = gp_parse_keyed_line(s, len, "Model:", g->name, sizeof g->name);
    gp_parse_keyed_line(s, len, "GPU UUID:", g->uuid, sizeof g->uuid);
    return m;
}

static unsigned rd32(const unsigned char *b, bool be)
{
    return be ? (unsigned)b[0] << 24 | (unsigned)b[1] << 16 | (unsigned)b[2] << 8 | b[3]
              : (unsigned)b[3] << 24 | (unsigned)b[2] << 16 | (unsigned)b[1] << 8 | b[0];
}

static void mach_cpu(unsigned cpu, bool *arm64, bool *x86_64)
{
    if (cpu == 0x0100000cu) *arm64 = true;
    if (cpu == 0x01000007u) *x86_64 = true;
}

bool gp_parse_exec_arch(const unsigned char *b, size_t len, char *arch, size_t n, bool *arm64,
                        bool *x86_64)
{
    *arm64 = *x86_64 = false;
    gp_copy(arch, n, "");
    if (len >= 20 && memcmp(b,
                            "\x7f"
                            "ELF",
                            4) == 0) {
        bool be = b[5] == 2;
        unsigned m = be ? (unsigned)b[18] << 8 | b[19] : (unsigned)b[19] << 8 | b[18];
        *x86_64 = m == 62;
        *arm64 = m == 183;
    } else if (len >= 8 && rd32(b, false) == 0xfeedfacfu) {
        mach_cpu(rd32(b + 4, false), arm64, x86_64);
    } else if (len >= 8 && rd32(b, true) == 0xcafebabeu) {
        /* universal binary: big-endian header, 20-byte entries */
        unsigned count = rd32(b + 4, true);
        if (count > 16) return false;
        for (unsigned i = 0; i < count && 8 + (size_t)(i + 1) * 20 <= len; i++)
            mach_cpu(rd32(b + 8 + (size_t)i * 20, true), arm64, x86_64);
    } else {
        return false;
    }
    gp_copy(arch, n,
            *arm64 && *x86_64 ? "universal (arm64, x86_64)"
            : *arm64          ? "arm64"
            : *x86_64         ? "x86_64"
                              : "other");
    return *arm64 || *x86_64;
}

int gp_parse_cpu_list(const char *s, size_t len)
{
    size_t i = 0;
    long total = 0;
    while (i < len && s[i] != '\n') {
        int a = read_num(s, len, &i), b = a;
        if (a < 0) return 0;
        if (i < len && s[i] == '-') {
            i++;
            b = read_num(s, len, &i);
            if (b < a) return 0;
        }
        total += b - a + 1;
        if (total > 1 << 20) return 0;
        if (i < len && s[i] == ',')
            i++;
        else if (i < len && s[i] != '\n')
            return 0;
    }
    return (int)total;
}

bool gp_parse_pyvenv_cfg(const char *s, size_t len, char *home, size_t hn, bool *system_site)
{
    char inc[16] = "";
    *system_site = false;
    gp_parse_keyed_line(s, len, "include-system-site-packages", inc, sizeof inc);
    *system_site = strcmp(inc, "true") == 0;
    return gp_parse_keyed_line(s, len, "home", home, hn);
}

/* The bytes of line [i, e) as a bounded C string in out. */
static void line_copy(const char *s, size_t i, size_t e, char *out, size_t n)
{
    size_t l = e - i;
    if (l >= n) l = n - 1;
    for (size_t k = 0; k < l; k++)
        out[k] = s[i + k] == '\0' ? ' ' : s[i + k];
    out[l] = '\0';
}

bool gp_parse_nv_tegra_release(const char *s, size_t len, int l4t[3], char *board, size_t bn)
{
    char line[256];
    size_t e = line_end(s, len, 0);
    line_copy(s, 0, e, line, sizeof line);
    const char *r = strstr(line, "# R");
    const char *rev = strstr(line, "REVISION:");
    if (!r || !rev) return false;
    size_t i = 0;
    const char *num = r + 3;
    int major = read_num(num, strlen(num), &i);
    if (major <= 0) return false;
    const char *rv = rev + 9;
    while (*rv == ' ')
        rv++;
    gp_version v;
    if (!gp_version_find(rv, strcspn(rv, ","), &v)) {
        /* "REVISION: 5" */
        size_t j = 0;
        int minor = read_num(rv, strlen(rv), &j);
        if (minor < 0) return false;
        v.part[0] = minor, v.part[1] = 0, v.n = 1;
    }
    l4t[0] = major;
    l4t[1] = v.part[0];
    l4t[2] = v.n > 1 ? v.part[1] : 0;
    if (board && bn) {
        board[0] = '\0';
        const char *b = strstr(line, "BOARD:");
        if (b) {
            b += 6;
            while (*b == ' ')
                b++;
            size_t l = strcspn(b, ", ");
            if (l >= bn) l = bn - 1;
            memcpy(board, b, l);
            board[l] = '\0';
        }
    }
    return true;
}

bool gp_parse_l4t_version(const char *s, size_t len, int l4t[3])
{
    gp_version v;
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= len || !is_digit(s[i]) || !gp_version_find(s + i, len - i, &v) || v.part[0] < 20)
        return false;
    l4t[0] = v.part[0];
    l4t[1] = v.part[1];
    l4t[2] = v.n > 2 ? v.part[2] : 0;
    return true;
}

/* The value of "field: value" inside the stanza [i, end) into out. */
static bool stanza_field(const char *s, size_t i, size_t end, const char *field, char *out,
                         size_t n)
{
    size_t fl = strlen(field);
    while (i < end) {
        size_t e = line_end(s, end, i);
        if (e - i > fl && memcmp(s + i, field, fl) == 0 && s[i + fl] == ':') {
            size_t k = i + fl + 1;
            while (k < e && (s[k] == ' ' || s[k] == '\t'))
                k++;
            copy_value(s + k, e - k, out, n);
            return out[0] != '\0';
        }
        i = e + 1;
    }
    return false;
}

bool gp_parse_dpkg_field(const char *s, size_t len, const char *package, const char *field,
                         char *out, size_t n)
{
    size_t pl = strlen(package), i = 0;
    if (n) out[0] = '\0';
    while (i < len) {
        /* a stanza runs to the next empty line */
        size_t start = i, end = i;
        while (end < len) {
            size_t e = line_end(s, len, end);
            if (e == end || (e == end + 1 && s[end] == '\r')) break;
            end = e + 1;
        }
        if (end > len) end = len;
        char name[128], status[128];
        if (stanza_field(s, start, end, "Package", name, sizeof name) && strlen(name) == pl &&
            memcmp(name, package, pl) == 0) {
            bool installed = !stanza_field(s, start, end, "Status", status, sizeof status) ||
                             strstr(status, "ok installed") != NULL;
            if (installed && stanza_field(s, start, end, field, out, n)) return true;
        }
        i = end + 1;
    }
    return false;
}

bool gp_parse_dt_strings(const char *s, size_t len, char *out, size_t n)
{
    size_t o = 0;
    bool any = false, sep = false;
    if (n == 0) return false;
    for (size_t i = 0; i < len && o + 1 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\0' || c == '\n') {
            sep = any;
            continue;
        }
        if (sep) {
            if (o + 3 >= n) break;
            out[o++] = ',';
            out[o++] = ' ';
            sep = false;
        }
        out[o++] = c < 0x20 || c > 0x7e ? '?' : (char)c;
        any = true;
    }
    out[o] = '\0';
    return any;
}

int gp_parse_cpuinfo_count(const char *s, size_t len)
{
    int count = 0;
    size_t i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        if (e - i > 9 && memcmp(s + i, "processor", 9) == 0) {
            size_t k = i + 9;
            while (k < e && (s[k] == ' ' || s[k] == '\t'))
                k++;
            if (k < e && s[k] == ':' && count < (1 << 20)) count++;
        }
        i = e + 1;
    }
    return count;
}

/* The value of the first line whose key (before ':', trimmed) is `key`. */
static bool cpuinfo_value(const char *s, size_t len, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key), i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        const char *colon = memchr(s + i, ':', e - i);
        if (colon) {
            size_t k = (size_t)(colon - (s + i));
            while (k > 0 && (s[i + k - 1] == ' ' || s[i + k - 1] == '\t'))
                k--;
            if (k == kl && memcmp(s + i, key, kl) == 0) {
                size_t v = (size_t)(colon - s) + 1;
                while (v < e && (s[v] == ' ' || s[v] == '\t'))
                    v++;
                copy_value(s + v, e - v, out, n);
                return true;
            }
        }
        i = e + 1;
    }
    return false;
}

/* True when `w` is one of the space-separated words of `list`. */
static bool has_word_list(const char *list, const char *w)
{
    size_t wl = strlen(w);
    for (const char *p = list; (p = strstr(p, w)); p++)
        if ((p == list || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\0')) return true;
    return false;
}

bool gp_parse_cpuinfo_arch(const char *s, size_t len, char *arch, size_t n)
{
    char v[256];
    const char *a = NULL;
    if (cpuinfo_value(s, len, "CPU architecture", v, sizeof v))
        a = (v[0] >= '8' && v[0] <= '9') || strstr(v, "AArch64") ? "aarch64" : "armv7l";
    else if (cpuinfo_value(s, len, "vendor_id", v, sizeof v) && strstr(v, "S390"))
        a = "s390x";
    else if (cpuinfo_value(s, len, "flags", v, sizeof v))
        a = has_word_list(v, "lm") ? "x86_64" : "i686";
    else if (cpuinfo_value(s, len, "isa", v, sizeof v) && strncmp(v, "rv64", 4) == 0)
        a = "riscv64";
    else if (cpuinfo_value(s, len, "cpu", v, sizeof v) && strstr(v, "POWER"))
        a = "ppc64le";
    if (!a) return false;
    gp_copy(arch, n, a);
    return true;
}

bool gp_parse_elf_machine(const unsigned char *b, size_t len, char *arch, size_t n)
{
    if (len < 20 || memcmp(b,
                           "\x7f"
                           "ELF",
                           4) != 0)
        return false;
    bool is64 = b[4] == 2, be = b[5] == 2;
    unsigned m = be ? (unsigned)b[18] << 8 | b[19] : (unsigned)b[19] << 8 | b[18];
    const char *a = NULL;
    switch (m) {
    case 62:
        a = "x86_64";
        break;
    case 3:
        a = "i686";
        break;
    case 183:
        a = "aarch64";
        break;
    case 40:
        a = "armv7l";
        break;
    case 21:
        a = be ? "ppc64" : "ppc64le";
        break;
    case 22:
        a = is64 ? "s390x" : "s390";
        break;
    case 243:
        a = is64 ? "riscv64" : "riscv32";
        break;
    default:
        return false;
    }
    gp_copy(arch, n, a);
    return true;
}

const char *gp_dpkg_arch_to_uname(const char *d)
{
    static const char *const map[][2] = {
        {"amd64", "x86_64"},    {"arm64", "aarch64"}, {"armhf", "armv7l"},   {"i386", "i686"},
        {"ppc64el", "ppc64le"}, {"s390x", "s390x"},   {"riscv64", "riscv64"}};
    for (size_t i = 0; d && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(d, map[i][0]) == 0) return map[i][1];
    return NULL;
}

bool gp_parse_wheel_metadata(const char *s, size_t len, char *version, size_t vn, char *cuda,
                             size_t cn)
{
    if (cn) cuda[0] = '\0';
    bool have = gp_parse_keyed_line(s, len, "Version:", version, vn);
    const char *key = "Requires-Dist: nvidia-cuda-runtime";
    size_t kl = strlen(key), i = 0;
    while (i < len) {
        size_t e = line_end(s, len, i);
        if (e - i > kl && memcmp(s + i, key, kl) == 0) {
            const char *eq = NULL;
            for (size_t k = i + kl; k + 1 < e; k++)
                if (s[k] == '=' && s[k + 1] == '=') {
                    eq = s + k + 2;
                    break;
                }
            gp_version v;
            if (eq && gp_version_find(eq, (size_t)(s + e - eq), &v) && cn)
                snprintf(cuda, cn, "%d.%d", v.part[0], v.part[1]);
            break;
        }
        i = e + 1;
    }
    return have;
}

bool gp_parse_record_has_cuda(const char *s, size_t len)
{
    return span_contains(s, len, "torch/lib/libtorch_cuda.so");
}
