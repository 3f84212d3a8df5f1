/* gpu_identity.c — see gpu_identity.h. The id table is exact; the chip blocks cover ids NVIDIA
 * added after the table was generated; the name rules cover names the driver's list spells
 * differently, by the product families of NVIDIA's CUDA GPU pages. */
#include "doctor/gpu_identity.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gp_gpu_cc_for_pci(unsigned devid, const char **name, char *from, size_t fn)
{
    if (name) *name = NULL;
    size_t lo = 0, hi = gp_gpu_id_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gp_gpu_ids[mid].devid < devid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < gp_gpu_id_count && gp_gpu_ids[lo].devid == devid) {
        if (name) *name = gp_gpu_ids[lo].name;
        if (from) snprintf(from, fn, "PCI id table (10de:%04x)", devid);
        return gp_gpu_ids[lo].cc;
    }
    for (unsigned i = 0; i < gp_gpu_block_count; i++) {
        const gp_gpu_block *b = &gp_gpu_blocks[i];
        if (devid < b->lo || devid > b->hi) continue;
        if (from) snprintf(from, fn, "PCI id range 10de:%04x-%04x (%s)", b->lo, b->hi, b->family);
        return b->cc;
    }
    return 0;
}

/* Lower case, words of letters and digits separated by one space, "nvidia " dropped. */
static void name_key(const char *s, char *out, size_t n)
{
    size_t o = 0;
    bool space = false;
    for (; *s && o + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (space && o > 0) out[o++] = ' ';
            space = false;
            if (o + 1 < n) out[o++] = (char)tolower(c);
        } else {
            space = true;
        }
    }
    out[o] = '\0';
    if (strncmp(out, "nvidia ", 7) == 0) memmove(out, out + 7, strlen(out + 7) + 1);
}

/* True when `w` is one of the words of `key`. */
static bool has_word(const char *key, const char *w)
{
    size_t wl = strlen(w);
    for (const char *p = key; (p = strstr(p, w)); p++)
        if ((p == key || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\0')) return true;
    return false;
}

/* The word after word `w` in `key` into out; false when there is none. */
static bool word_after(const char *key, const char *w, char *out, size_t n)
{
    size_t wl = strlen(w);
    for (const char *p = key; (p = strstr(p, w)); p++) {
        if ((p != key && p[-1] != ' ') || p[wl] != ' ') continue;
        const char *q = p + wl + 1;
        size_t l = strcspn(q, " ");
        if (l == 0 || l >= n) return false;
        memcpy(out, q, l);
        out[l] = '\0';
        return true;
    }
    return false;
}

static bool any_word(const char *key, const char *const *words)
{
    for (; *words; words++)
        if (has_word(key, *words)) return true;
    return false;
}

/* The families of NVIDIA's CUDA GPU pages, for names the driver's list does not hold. */
static int family_cc(const char *key)
{
    static const char *const w121[] = {"gb10", NULL};
    static const char *const w110[] = {"thor", "t5000", "t4000", NULL};
    static const char *const w103[] = {"b300", "gb300", NULL};
    static const char *const w100[] = {"b200", "gb200", "b100", NULL};
    static const char *const w90[] = {"h100", "h200", "h800", "h20", "gh200", NULL};
    static const char *const w89[] = {"l40", "l40s", "l4", "l20", "l2", "ada", NULL};
    static const char *const w87[] = {"orin", NULL};
    static const char *const w86[] = {"a40", "a10", "a10g", "a10m", "a16", "a2", NULL};
    static const char *const w80[] = {"a100", "a800", "a30", "ax800", NULL};
    static const char *const w75[] = {"t4",    "t400",  "t500",  "t550", "t600",
                                      "t1000", "t1200", "t2000", NULL};
    static const char *const w72[] = {"xavier", NULL};
    static const char *const w70[] = {"v100", "v100s", "gv100", NULL};
    static const char *const w62[] = {"tx2", NULL};
    static const char *const w61[] = {"p40", "p4", "p6", "p10", "xp", NULL};
    static const char *const w60[] = {"p100", "gp100", NULL};
    static const char *const w52[] = {"m60", "m40", "m4", "m6", "m10", NULL};
    static const char *const w53[] = {"tx1", NULL};
    char w[32];
    if (any_word(key, w121)) return 121;
    if (any_word(key, w110)) return 110;
    if (has_word(key, "blackwell")) return 120; /* RTX PRO ... Blackwell (GB20x) */
    if (any_word(key, w103)) return 103;
    if (any_word(key, w100)) return 100;
    if (any_word(key, w90)) return 90;
    if (word_after(key, "rtx", w, sizeof w) && strlen(w) == 4 && isdigit((unsigned char)w[0])) {
        if (strncmp(w, "50", 2) == 0) return 120;
        if (strncmp(w, "40", 2) == 0) return 89;
        if (strncmp(w, "30", 2) == 0) return 86;
        if (strncmp(w, "20", 2) == 0) return 75;
    }
    if (any_word(key, w89)) return 89;
    if (any_word(key, w87)) return 87;
    if (word_after(key, "rtx", w, sizeof w) && w[0] == 'a' && isdigit((unsigned char)w[1]))
        return 86; /* RTX A6000 */
    if (any_word(key, w86)) return 86;
    if (any_word(key, w80)) return 80;
    if (has_word(key, "quadro") && has_word(key, "rtx")) return 75;
    if (has_word(key, "titan") && has_word(key, "rtx")) return 75;
    if (word_after(key, "gtx", w, sizeof w) && strncmp(w, "16", 2) == 0) return 75;
    if (any_word(key, w75)) return 75;
    if (any_word(key, w72)) return 72;
    if (has_word(key, "titan") && has_word(key, "v")) return 70;
    if (any_word(key, w70)) return 70;
    if (any_word(key, w62)) return 62;
    if (any_word(key, w60)) return 60;
    if (word_after(key, "gtx", w, sizeof w) && strncmp(w, "10", 2) == 0 && strlen(w) >= 4)
        return 61;
    if (has_word(key, "titan") && (has_word(key, "pascal") || has_word(key, "xp"))) return 61;
    if (word_after(key, "quadro", w, sizeof w) && w[0] == 'p' && isdigit((unsigned char)w[1]))
        return 61;
    if (any_word(key, w61)) return 61;
    if (has_word(key, "jetson") && has_word(key, "nano")) return 53;
    if (any_word(key, w53)) return 53;
    if (word_after(key, "gtx", w, sizeof w) && w[0] == '9' && isdigit((unsigned char)w[1]))
        return 52;                                               /* GTX 960, 980M */
    if (has_word(key, "titan") && has_word(key, "x")) return 52; /* GeForce GTX TITAN X */
    if (any_word(key, w52)) return 52;
    if (word_after(key, "gtx", w, sizeof w) && (strcmp(w, "750") == 0 || strcmp(w, "745") == 0))
        return 50;
    return 0;
}

int gp_gpu_cc_for_name(const char *name, char *from, size_t fn)
{
    char key[128], row[128];
    if (!name || !*name) return 0;
    name_key(name, key, sizeof key);
    if (!key[0]) return 0;
    const gp_gpu_id *prefix = NULL;
    size_t prefix_len = 0;
    for (unsigned i = 0; i < gp_gpu_id_count; i++) {
        const gp_gpu_id *g = &gp_gpu_ids[i];
        if (!g->name_unique) continue;
        name_key(g->name, row, sizeof row);
        size_t rl = strlen(row);
        if (strcmp(row, key) == 0) {
            if (from) snprintf(from, fn, "name table (\"%.40s\")", g->name);
            return g->cc;
        }
        if (rl > prefix_len && strncmp(key, row, rl) == 0 && key[rl] == ' ') {
            prefix = g;
            prefix_len = rl;
        }
    }
    if (prefix) {
        if (from) snprintf(from, fn, "name table (\"%.40s\")", prefix->name);
        return prefix->cc;
    }
    int cc = family_cc(key);
    if (cc && from) snprintf(from, fn, "name table (product family)");
    return cc;
}
