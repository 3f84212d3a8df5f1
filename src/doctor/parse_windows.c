/* parse_windows.c — see parse_windows.h. The tools' outputs are line-oriented "Key : value"
 * texts; each reader walks the lines once and keeps only what fits its fixed-size fields. */
#include "doctor/parse_windows.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "doctor/gpu_identity.h"
#include "doctor/parse.h"
#include "doctor/sysroot.h"

typedef struct line_iter {
    const char *s;
    size_t len, pos;
} line_iter;

/* The next line (without CR/LF) as a NUL-terminated copy in buf, truncated to fit. */
static bool next_line(line_iter *it, char *buf, size_t n)
{
    if (it->pos >= it->len) return false;
    const char *p = it->s + it->pos;
    const char *nl = memchr(p, '\n', it->len - it->pos);
    size_t k = nl ? (size_t)(nl - p) : it->len - it->pos;
    it->pos += k + (nl ? 1 : 0);
    while (k > 0 && p[k - 1] == '\r')
        k--;
    if (k >= n) k = n - 1;
    memcpy(buf, p, k);
    buf[k] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == '\t') *c = ' ';
    return true;
}

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = '\0';
    return s;
}

static int indent_of(const char *s)
{
    int i = 0;
    while (s[i] == ' ')
        i++;
    return i;
}

static void smi_gpu_value(gp_doctor_win *w, int g, const char *section, const char *key,
                          const char *val)
{
    gp_doctor_gpu *gpu = &w->gpus[g];
    if (strcmp(key, "Product Name") == 0) {
        gp_copy(gpu->name, sizeof gpu->name, val);
    } else if (strcmp(key, "Product Brand") == 0) {
        gp_copy(w->brand[g], sizeof w->brand[g], val);
    } else if (strcmp(key, "GPU UUID") == 0) {
        gp_copy(gpu->uuid, sizeof gpu->uuid, val);
    } else if (strcmp(key, "Bus Id") == 0) {
        gp_copy(gpu->bdf, sizeof gpu->bdf, val);
    } else if (strcmp(section, "Driver Model") == 0 && strcmp(key, "Current") == 0) {
        gp_copy(w->model_current[g], sizeof w->model_current[g], val);
    } else if (strcmp(section, "Driver Model") == 0 && strcmp(key, "Pending") == 0) {
        gp_copy(w->model_pending[g], sizeof w->model_pending[g], val);
    } else if (strcmp(section, "FB Memory Usage") == 0 && strcmp(key, "Total") == 0) {
        char *end;
        unsigned long long mib = strtoull(val, &end, 10);
        if (end != val && strstr(end, "MiB") && mib < (1ull << 40))
            gpu->memory_bytes = (uint64_t)mib * 1024 * 1024;
    } else if (strcmp(key, "Device Id") == 0 && strncasecmp(val, "0x", 2) == 0) {
        unsigned long id = strtoul(val + 2, NULL, 16);
        if ((id & 0xffff) == 0x10de) {
            int cc =
                gp_gpu_cc_for_pci((unsigned)(id >> 16), NULL, gpu->cc_from, sizeof gpu->cc_from);
            gpu->cc_major = cc / 10;
            gpu->cc_minor = cc % 10;
        }
    }
}

bool gp_parse_smi_query(const char *s, size_t len, gp_doctor_win *w)
{
    line_iter it = {s, len, 0};
    char line[512], section[64] = "";
    int g = -1, sections = 0;
    bool driver = false;
    w->gpu_count = w->gpu_total = 0;
    while (next_line(&it, line, sizeof line)) {
        int ind = indent_of(line);
        char *colon = strchr(line, ':');
        if (ind == 0 && strncmp(line, "GPU ", 4) == 0 && !strstr(line, " : ")) {
            sections++;
            if (w->gpu_count < GP_DOCTOR_MAX_GPUS) {
                g = w->gpu_count++;
                memset(&w->gpus[g], 0, sizeof w->gpus[g]);
                gp_copy(w->gpus[g].bdf, sizeof w->gpus[g].bdf, trim(line + 4));
            } else {
                g = -1;
            }
            section[0] = '\0';
            continue;
        }
        /* "    Driver Model" (no " : "): a section whose keys follow, indented deeper */
        char *sep = strstr(line, " : ");
        if (!sep && colon && colon[1] == '\0') sep = colon; /* "Key :" with an empty value */
        if (!sep) {
            char *t = trim(line);
            if (*t && ind > 0 && ind <= 4) gp_copy(section, sizeof section, t);
            continue;
        }
        size_t skip = sep[0] == ' ' ? 3 : 1;
        *sep = '\0';
        char *key = trim(line), *val = trim(sep + skip);
        if (ind <= 4 && g >= 0 && ind > 0) section[0] = '\0';
        if (ind == 0) {
            if (strcmp(key, "Driver Version") == 0 && *val) {
                gp_copy(w->driver, sizeof w->driver, val);
                driver = true;
            } else if (strcmp(key, "CUDA Version") == 0) {
                gp_version v;
                if (gp_version_find(val, strlen(val), &v) && v.n >= 2 && v.part[0] < 100)
                    w->cuda = v.part[0] * 1000 + v.part[1] * 10;
            } else if (strcmp(key, "Attached GPUs") == 0) {
                int n = atoi(val);
                if (n > 0 && n < 4096) w->gpu_total = n;
            }
            continue;
        }
        if (g >= 0) smi_gpu_value(w, g, ind > 4 ? section : "", key, val);
    }
    for (int i = 0; i < w->gpu_count; i++) {
        gp_doctor_gpu *gpu = &w->gpus[i];
        if (!gpu->cc_major && gpu->name[0]) {
            int cc = gp_gpu_cc_for_name(gpu->name, gpu->cc_from, sizeof gpu->cc_from);
            gpu->cc_major = cc / 10;
            gpu->cc_minor = cc % 10;
        }
    }
    if (w->gpu_total < sections) w->gpu_total = sections;
    return driver;
}

bool gp_parse_wsl_list(const char *s, size_t len, gp_doctor_win *w)
{
    line_iter it = {s, len, 0};
    char line[512];
    bool header = false;
    size_t used = 0;
    w->wsl_distros = w->wsl2_distros = 0;
    w->wsl_names[0] = '\0';
    while (next_line(&it, line, sizeof line)) {
        char *t = trim(line);
        if (!header) {
            if (strstr(t, "NAME") && strstr(t, "STATE") && strstr(t, "VERSION"))
                header = true;
            else if (strstr(t, "no installed distributions"))
                return w->wsl = true;
            continue;
        }
        if (*t == '*') t = trim(t + 1);
        char name[128], state[64];
        int version;
        if (sscanf(t, "%127s %63s %d", name, state, &version) != 3) continue;
        w->wsl_distros++;
        if (version == 2) w->wsl2_distros++;
        int k = snprintf(w->wsl_names + used, sizeof w->wsl_names - used, "%s%s (WSL %d)",
                         used ? ", " : "", name, version);
        if (k > 0 && (size_t)k < sizeof w->wsl_names - used) used += (size_t)k;
    }
    if (header) w->wsl = true;
    return header;
}

bool gp_parse_vswhere(const char *s, size_t len, gp_doctor_win *w)
{
    line_iter it = {s, len, 0};
    char line[GP_DOCTOR_PATH + 64];
    bool path = false;
    while (next_line(&it, line, sizeof line)) {
        char *colon = strstr(line, ": ");
        if (!colon) continue;
        *colon = '\0';
        char *key = trim(line), *val = trim(colon + 2);
        /* a second instance starts with its instanceId again: keep the first */
        if (strcmp(key, "instanceId") == 0 && path) break;
        if (strcmp(key, "installationPath") == 0 && *val) {
            gp_copy(w->vs_path, sizeof w->vs_path, val);
            path = true;
        } else if (strcmp(key, "displayName") == 0) {
            gp_copy(w->vs_name, sizeof w->vs_name, val);
        } else if (strcmp(key, "installationVersion") == 0) {
            gp_copy(w->vs_version, sizeof w->vs_version, val);
        }
    }
    return path;
}

bool gp_parse_env_get(const char *s, size_t len, const char *name, char *out, size_t n)
{
    line_iter it = {s, len, 0};
    char line[32768]; /* Windows' limit for one variable */
    size_t nl = strlen(name);
    while (next_line(&it, line, sizeof line)) {
        if (strncasecmp(line, name, nl) != 0 || line[nl] != '=') continue;
        gp_copy(out, n, line + nl + 1);
        return true;
    }
    return false;
}

bool gp_win_driver_version(const char *fv, char *out, size_t n)
{
    const char *f[4];
    size_t fl[4];
    int k = 0;
    const char *p = fv;
    while (k < 4) {
        f[k] = p;
        fl[k] = strspn(p, "0123456789");
        if (fl[k] == 0 || fl[k] > 5) return false;
        p += fl[k];
        k++;
        if (*p != '.') break;
        p++;
    }
    if (k != 4 || *p != '\0' || fl[3] > 4) return false;
    char digits[16];
    snprintf(digits, sizeof digits, "%.*s%0*d", (int)fl[2], f[2], 4, atoi(f[3]));
    size_t dl = strlen(digits);
    if (dl < 5) return false;
    const char *d = digits + dl - 5;
    snprintf(out, n, "%.3s.%.2s", d, d + 3);
    return true;
}
