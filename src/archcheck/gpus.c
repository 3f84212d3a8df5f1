/* gpus.c — NVIDIA GPUs and their compute capabilities, so that `--gpu "RTX 4090"` needs no
 * device: consumer, workstation, datacenter and Jetson parts. Names match case-insensitively,
 * with or without the "NVIDIA"/"GeForce"/"Tesla" prefixes, and the names drivers report
 * ("NVIDIA A100-SXM4-80GB", "NVIDIA GeForce RTX 4090 Laptop GPU") by their longest known prefix. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "archcheck/archcheck.h"

#define DC true  /* datacenter or Jetson: cuda-compat works there */
#define GF false /* consumer and workstation */

static const gp_ac_gpu ac_gpus[] = {
    /* Maxwell, Pascal, Volta (CUDA 12 is their last toolkit) */
    {"GTX 750", 50, GF},
    {"GTX 750 Ti", 50, GF},
    {"GTX 950", 52, GF},
    {"GTX 960", 52, GF},
    {"GTX 970", 52, GF},
    {"GTX 980", 52, GF},
    {"GTX 980 Ti", 52, GF},
    {"GTX Titan X", 52, GF},
    {"Tesla M40", 52, DC},
    {"Tesla M60", 52, DC},
    {"Jetson Nano", 53, DC},
    {"Jetson TX1", 53, DC},
    {"Tesla P100", 60, DC},
    {"P100", 60, DC},
    {"GTX 1050", 61, GF},
    {"GTX 1050 Ti", 61, GF},
    {"GTX 1060", 61, GF},
    {"GTX 1070", 61, GF},
    {"GTX 1070 Ti", 61, GF},
    {"GTX 1080", 61, GF},
    {"GTX 1080 Ti", 61, GF},
    {"Titan Xp", 61, GF},
    {"Tesla P40", 61, DC},
    {"P40", 61, DC},
    {"Tesla P4", 61, DC},
    {"P4", 61, DC},
    {"Jetson TX2", 62, DC},
    {"Titan V", 70, GF},
    {"Tesla V100", 70, DC},
    {"V100", 70, DC},
    {"Quadro GV100", 70, GF},
    {"Jetson AGX Xavier", 72, DC},
    {"Jetson Xavier NX", 72, DC},
    /* the names Jetson boards report through the driver */
    {"Tegra X1", 53, DC},
    {"Tegra X2", 62, DC},
    {"Xavier", 72, DC},
    {"Orin", 87, DC},
    {"Thor", 110, DC},
    /* Turing */
    {"GTX 1650", 75, GF},
    {"GTX 1650 Super", 75, GF},
    {"GTX 1660", 75, GF},
    {"GTX 1660 Super", 75, GF},
    {"GTX 1660 Ti", 75, GF},
    {"RTX 2060", 75, GF},
    {"RTX 2060 Super", 75, GF},
    {"RTX 2070", 75, GF},
    {"RTX 2070 Super", 75, GF},
    {"RTX 2080", 75, GF},
    {"RTX 2080 Super", 75, GF},
    {"RTX 2080 Ti", 75, GF},
    {"Titan RTX", 75, GF},
    {"Quadro RTX 4000", 75, GF},
    {"Quadro RTX 5000", 75, GF},
    {"Quadro RTX 6000", 75, GF},
    {"Quadro RTX 8000", 75, GF},
    {"T400", 75, GF},
    {"T600", 75, GF},
    {"T1000", 75, GF},
    {"Tesla T4", 75, DC},
    {"T4", 75, DC},
    /* Ampere */
    {"A100", 80, DC},
    {"A800", 80, DC},
    {"A30", 80, DC},
    {"A10", 86, DC},
    {"A10G", 86, DC},
    {"A16", 86, DC},
    {"A2", 86, DC},
    {"A40", 86, DC},
    {"RTX 3050", 86, GF},
    {"RTX 3060", 86, GF},
    {"RTX 3060 Ti", 86, GF},
    {"RTX 3070", 86, GF},
    {"RTX 3070 Ti", 86, GF},
    {"RTX 3080", 86, GF},
    {"RTX 3080 Ti", 86, GF},
    {"RTX 3090", 86, GF},
    {"RTX 3090 Ti", 86, GF},
    {"RTX A2000", 86, GF},
    {"RTX A4000", 86, GF},
    {"RTX A4500", 86, GF},
    {"RTX A5000", 86, GF},
    {"RTX A5500", 86, GF},
    {"RTX A6000", 86, GF},
    {"Jetson AGX Orin", 87, DC},
    {"Jetson Orin NX", 87, DC},
    {"Jetson Orin Nano", 87, DC},
    /* Ada */
    {"RTX 4060", 89, GF},
    {"RTX 4060 Ti", 89, GF},
    {"RTX 4070", 89, GF},
    {"RTX 4070 Super", 89, GF},
    {"RTX 4070 Ti", 89, GF},
    {"RTX 4070 Ti Super", 89, GF},
    {"RTX 4080", 89, GF},
    {"RTX 4080 Super", 89, GF},
    {"RTX 4090", 89, GF},
    {"RTX 4090 D", 89, GF},
    {"RTX 2000 Ada Generation", 89, GF},
    {"RTX 4000 Ada Generation", 89, GF},
    {"RTX 4500 Ada Generation", 89, GF},
    {"RTX 5000 Ada Generation", 89, GF},
    {"RTX 6000 Ada Generation", 89, GF},
    {"L4", 89, DC},
    {"L40", 89, DC},
    {"L40S", 89, DC},
    {"L20", 89, DC},
    /* Hopper */
    {"H100", 90, DC},
    {"H200", 90, DC},
    {"H800", 90, DC},
    {"H20", 90, DC},
    {"GH200", 90, DC},
    /* Blackwell */
    {"B100", 100, DC},
    {"B200", 100, DC},
    {"GB200", 100, DC},
    {"B300", 103, DC},
    {"GB300", 103, DC},
    {"Jetson Thor", 110, DC},
    {"Jetson AGX Thor", 110, DC},
    {"RTX 5050", 120, GF},
    {"RTX 5060", 120, GF},
    {"RTX 5060 Ti", 120, GF},
    {"RTX 5070", 120, GF},
    {"RTX 5070 Ti", 120, GF},
    {"RTX 5080", 120, GF},
    {"RTX 5090", 120, GF},
    {"RTX 5090 D", 120, GF},
    {"RTX PRO 6000 Blackwell", 120, GF},
    {"RTX PRO 5000 Blackwell", 120, GF},
    {"RTX PRO 4000 Blackwell", 120, GF},
    {"RTX PRO 6000 Blackwell Server Edition", 120, DC},
    {"GB10", 121, DC},
    {"DGX Spark", 121, DC},
};

const gp_ac_gpu *gp_ac_gpu_table(size_t *count)
{
    *count = sizeof ac_gpus / sizeof ac_gpus[0];
    return ac_gpus;
}

/* Lower case, single spaces, vendor and brand words dropped. */
static void ac_norm_name(const char *in, char *out, size_t outlen)
{
    static const char *const drop[] = {"nvidia ", "geforce ", "tesla "};
    size_t o = 0;
    bool space = true;
    for (const char *p = in; *p && o + 1 < outlen; p++) {
        char c = (char)tolower((unsigned char)*p);
        if (c == '_') c = ' ';
        if (isspace((unsigned char)c)) {
            if (!space) out[o++] = ' ';
            space = true;
            continue;
        }
        out[o++] = c;
        space = false;
        for (size_t d = 0; d < sizeof drop / sizeof drop[0]; d++) {
            size_t n = strlen(drop[d]) - 1;
            if (o == n && memcmp(out, drop[d], n) == 0 && (p[1] == ' ' || p[1] == '\0')) {
                o = 0;
                space = true;
            }
        }
    }
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
}

/* Edit distance counting a swap of two neighbours as one edit ("4900" vs "4090"). */
static size_t ac_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 64;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const gp_ac_gpu *gp_ac_gpu_find(const char *name, const gp_ac_gpu **suggest, size_t nsuggest,
                                size_t *nsuggested)
{
    char q[128], t[128];
    ac_norm_name(name, q, sizeof q);
    size_t count = sizeof ac_gpus / sizeof ac_gpus[0];
    const gp_ac_gpu *best = NULL;
    size_t best_len = 0;
    if (nsuggested) *nsuggested = 0;
    if (!q[0]) return NULL;
    for (size_t i = 0; i < count; i++) {
        ac_norm_name(ac_gpus[i].name, t, sizeof t);
        size_t n = strlen(t);
        if (strcmp(q, t) == 0) return &ac_gpus[i];
        /* A longer name the driver reports: "a100-sxm4-80gb", "rtx 4090 laptop gpu". */
        if (strncmp(q, t, n) == 0 && (q[n] == ' ' || q[n] == '-') && n > best_len) {
            best = &ac_gpus[i];
            best_len = n;
        }
    }
    if (best) return best;
    /* Close names: by edit distance, and those that contain the query. */
    size_t dist[16];
    size_t k = 0;
    if (nsuggest > 16) nsuggest = 16;
    for (size_t i = 0; i < count && suggest; i++) {
        ac_norm_name(ac_gpus[i].name, t, sizeof t);
        size_t d = ac_edit_distance(q, t);
        if (strstr(t, q)) d = d < 2 ? d : 2;
        if (d > 3 && d * 3 > strlen(t)) continue;
        size_t pos = k;
        while (pos > 0 && dist[pos - 1] > d)
            pos--;
        if (pos >= nsuggest) continue;
        size_t last = k < nsuggest ? k : nsuggest - 1;
        for (size_t j = last; j > pos; j--) {
            dist[j] = dist[j - 1];
            suggest[j] = suggest[j - 1];
        }
        dist[pos] = d;
        suggest[pos] = &ac_gpus[i];
        if (k < nsuggest) k++;
    }
    if (nsuggested) *nsuggested = k;
    return NULL;
}

size_t gp_ac_gpu_matches(const char *name, const gp_ac_gpu **out, size_t max)
{
    char q[128], t[128];
    ac_norm_name(name, q, sizeof q);
    size_t n = 0, ql = strlen(q);
    if (!ql) return 0;
    for (size_t i = 0; i < sizeof ac_gpus / sizeof ac_gpus[0]; i++) {
        ac_norm_name(ac_gpus[i].name, t, sizeof t);
        for (const char *p = strstr(t, q); p; p = strstr(p + 1, q))
            if ((p == t || p[-1] == ' ') && (p[ql] == '\0' || p[ql] == ' ')) {
                if (n < max) out[n] = &ac_gpus[i];
                n++;
                break;
            }
    }
    return n;
}

gp_cc gp_ac_cc_parse(const char *s)
{
    if (strncmp(s, "sm_", 3) == 0)
        s += 3;
    else if (strncmp(s, "compute_", 8) == 0)
        s += 8;
    int major = 0, minor = 0, digits = 0;
    const char *p = s;
    while (isdigit((unsigned char)*p) && digits < 4)
        major = major * 10 + (*p++ - '0'), digits++;
    if (!digits) return -1;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) return -1;
        minor = *p++ - '0';
        if (*p) return -1;
    } else {
        if (*p || digits < 2) return -1;
        minor = major % 10;
        major /= 10;
    }
    if (major < 1 || major > 15) return -1;
    return GP_CC(major, minor);
}
