/* load.c — reading a manifest of any size (gp_freeze_load): one pass over the text with the JSON
 * scanner (util/jscan.h). The data list goes straight into a compact table (path, size, hash);
 * every other top-level member is small and is parsed by cJSON from its span, so that the rest of
 * freeze works on the tree it knows. A mapped file's pages are dropped once the scan is past
 * them, so the resident set is the table, not the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "freeze/collect.h"
#include "util/fs.h"
#include "util/jscan.h"
#include "util/json.h"

/* The data list's pages are handed back this often. */
#define LOAD_RELEASE_CHUNK ((size_t)4 << 20)
/* An entry with more keys than this is refused (duplicates are looked for among them). */
#define LOAD_MAX_ENTRY_KEYS 64

typedef struct loader {
    gp_jscan s;
    gp_freeze_manifest *m;
    bool mapped;     /* s.text is a private file mapping whose pages may be dropped */
    size_t released; /* pages before this offset have been dropped */
    gp_strbuf key, val;
    char *why; /* the reason of a failure, without the name */
    size_t whylen;
} loader;

static int load_fail(loader *l, const char *fmt, const char *arg)
{
    snprintf(l->why, l->whylen, fmt, arg);
    return -1;
}

static int load_syntax(loader *l)
{
    char e[160];
    gp_jscan_error(&l->s, e, sizeof e);
    snprintf(l->why, l->whylen, "not valid JSON (%s)", e);
    return -1;
}

static void load_release(loader *l)
{
    if (!l->mapped || l->s.pos - l->released < LOAD_RELEASE_CHUNK) return;
    gp_map_advise(l->s.text + l->released, l->s.pos - l->released, GP_MAP_DONTNEED);
    l->released = l->s.pos;
}

/* A table lookup: this runs once per data entry. */
bool gp_freeze_sha256_from_hex(const char *hex, size_t len, unsigned char out[32])
{
    static const signed char v[256] = {
        ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
        ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
        ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, /* digit + 1; 0 = not a digit */
    };
    if (len != 64) return false;
    unsigned bad = 0;
    for (size_t i = 0; i < 32; i++) {
        int hi = v[(unsigned char)hex[2 * i]], lo = v[(unsigned char)hex[2 * i + 1]];
        bad |= (unsigned)(hi == 0) | (unsigned)(lo == 0);
        out[i] = (unsigned char)((hi - 1) << 4 | (lo - 1));
    }
    return bad == 0;
}

int gp_freeze_add_file(gp_freeze_manifest *m, const char *path, size_t plen, double size,
                       const unsigned char sha256[32])
{
    if (m->nfiles == m->files_cap) {
        size_t cap = m->files_cap ? m->files_cap * 2 : 1024;
        gp_freeze_file *f = realloc(m->files, cap * sizeof *f);
        if (!f) return -1;
        m->files = f;
        m->files_cap = cap;
    }
    if (m->paths_cap - m->paths_len < plen + 1) {
        size_t cap = m->paths_cap ? m->paths_cap : 64 << 10;
        while (cap - m->paths_len < plen + 1)
            cap *= 2;
        char *p = realloc(m->paths, cap);
        if (!p) return -1;
        m->paths = p;
        m->paths_cap = cap;
    }
    gp_freeze_file *f = &m->files[m->nfiles++];
    f->path = m->paths_len;
    f->size = size;
    memcpy(f->sha256, sha256, 32);
    memcpy(m->paths + m->paths_len, path, plen);
    m->paths[m->paths_len + plen] = '\0';
    m->paths_len += plen + 1;
    return 0;
}

/* Whether key k (n bytes) is among the first `count` keys of the entry, which start at the
 * offsets in `at` of the text (each a whole string token, quotes included). */
static bool key_seen(const loader *l, const size_t *at, const size_t *len, size_t count, size_t k,
                     size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (len[i] == n && memcmp(l->s.text + at[i], l->s.text + k, n) == 0) return true;
    return false;
}

/* One element of "data": {"path": "...", "size": N, "sha256": "..."} (other keys allowed). */
static int load_bad_entry(loader *l, size_t index)
{
    snprintf(l->why, l->whylen,
             "data[%zu] needs \"path\" (string), \"size\" (number >= 0) and \"sha256\" (64 "
             "lowercase hex digits)",
             index);
    return -1;
}

static int load_entry(loader *l, size_t index)
{
    if (gp_jscan_peek(&l->s) != '{') return load_bad_entry(l, index);
    l->s.pos++;
    size_t at[LOAD_MAX_ENTRY_KEYS], len[LOAD_MAX_ENTRY_KEYS], nkeys = 0;
    bool have_path = false, have_size = false, have_sha = false;
    double size = 0;
    unsigned char sha[32];
    gp_strbuf path = GP_STRBUF_INIT;
    int rc = -1;
    if (!gp_jscan_accept(&l->s, '}')) {
        do {
            gp_jscan_peek(&l->s);
            size_t k = l->s.pos;
            if (!gp_jscan_string(&l->s, &l->key, NULL)) goto syntax;
            size_t kn = l->s.pos - k;
            const char *name = gp_strbuf_cstr(&l->key);
            if (key_seen(l, at, len, nkeys, k, kn)) {
                load_fail(l, "duplicate key \"%.100s\"", name);
                goto out;
            }
            if (nkeys == LOAD_MAX_ENTRY_KEYS) {
                load_fail(l, "%s", "a data entry with more than 64 keys");
                goto out;
            }
            at[nkeys] = k, len[nkeys++] = kn;
            if (!gp_jscan_expect(&l->s, ':')) goto syntax;
            char next = gp_jscan_peek(&l->s);
            bool ok = true;
            if (strcmp(name, "path") == 0) {
                bool nul = false;
                if (next != '"') goto wrong;
                if (!gp_jscan_string(&l->s, &path, &nul)) goto syntax;
                if (nul) {
                    snprintf(l->why, l->whylen, "data[%zu]: \"path\" holds a NUL character", index);
                    goto out;
                }
                have_path = true;
            } else if (strcmp(name, "size") == 0) {
                if (next != '-' && !(next >= '0' && next <= '9')) goto wrong;
                if (!gp_jscan_number(&l->s, &size)) goto syntax;
                have_size = ok = size >= 0;
            } else if (strcmp(name, "sha256") == 0) {
                if (next != '"') goto wrong;
                if (!gp_jscan_string(&l->s, &l->val, NULL)) goto syntax;
                have_sha = ok = gp_freeze_sha256_from_hex(gp_strbuf_cstr(&l->val), l->val.len, sha);
            } else if (!gp_jscan_skip_value(&l->s)) {
                goto syntax;
            }
            if (!ok) goto wrong;
        } while (gp_jscan_accept(&l->s, ','));
        if (!gp_jscan_expect(&l->s, '}')) goto syntax;
    }
    if (!have_path || !have_size || !have_sha) goto wrong;
    if (path.failed || gp_freeze_add_file(l->m, gp_strbuf_cstr(&path), path.len, size, sha) != 0)
        load_fail(l, "%s", "out of memory");
    else
        rc = 0;
    goto out;
syntax:
    load_syntax(l);
    goto out;
wrong:
    load_bad_entry(l, index);
out:
    gp_strbuf_free(&path);
    return rc;
}

static int load_data(loader *l)
{
    if (gp_jscan_peek(&l->s) != '[')
        return load_fail(l, "%s", "\"data\" is missing or not an array");
    l->s.pos++;
    if (gp_jscan_accept(&l->s, ']')) return 0;
    size_t i = 0;
    do {
        if (load_entry(l, i++) != 0) return -1;
        load_release(l);
    } while (gp_jscan_accept(&l->s, ','));
    return gp_jscan_expect(&l->s, ']') ? 0 : load_syntax(l);
}

static int load_document(loader *l)
{
    bool have_data = false;
    if (!gp_jscan_expect(&l->s, '{'))
        return gp_jscan_peek(&l->s) ? load_fail(l, "%s",
                                                "not a gpuport freeze manifest (not a "
                                                "JSON object)")
                                    : load_syntax(l);
    if (!(l->m->rest = cJSON_CreateObject())) return load_fail(l, "%s", "out of memory");
    if (!gp_jscan_accept(&l->s, '}')) {
        do {
            if (!gp_jscan_string(&l->s, &l->key, NULL) || !gp_jscan_expect(&l->s, ':'))
                return load_syntax(l);
            const char *key = gp_strbuf_cstr(&l->key);
            if ((strcmp(key, "data") == 0 && have_data) ||
                cJSON_GetObjectItemCaseSensitive(l->m->rest, key))
                return load_fail(l, "duplicate key \"%.100s\"", key);
            if (strcmp(key, "data") == 0) {
                have_data = true;
                if (load_data(l) != 0) return -1;
                continue;
            }
            size_t start = (gp_jscan_peek(&l->s), l->s.pos);
            if (!gp_jscan_skip_value(&l->s)) return load_syntax(l);
            cJSON *item = cJSON_ParseWithLength(l->s.text + start, l->s.pos - start);
            if (!item) return load_fail(l, "the value of \"%.100s\" is not valid JSON", key);
            cJSON_AddItemToObject(l->m->rest, key, item);
        } while (gp_jscan_accept(&l->s, ','));
        if (!gp_jscan_expect(&l->s, '}')) return load_syntax(l);
    }
    if (gp_jscan_peek(&l->s) || l->s.pos < l->s.len)
        return load_fail(l, "%s", "unexpected data after the JSON value");
    if (gp_freeze_validate_rest(l->m->rest, l->why, l->whylen) != 0) return -1;
    if (!have_data) return load_fail(l, "%s", "\"data\" is missing or not an array");
    return 0;
}

static int load(const char *name, const char *text, size_t len, bool mapped, gp_freeze_manifest *m,
                char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char why[512] = "";
    loader l = {.m = m, .mapped = mapped, .why = why, .whylen = sizeof why};
    gp_jscan_init(&l.s, text, len);
    l.key = (gp_strbuf)GP_STRBUF_INIT;
    l.val = (gp_strbuf)GP_STRBUF_INIT;
    int rc = load_document(&l);
    gp_strbuf_free(&l.key);
    gp_strbuf_free(&l.val);
    if (rc != 0) {
        gp_freeze_manifest_free(m);
        snprintf(err, errlen, "%s: %s", name, why);
    }
    return rc;
}

int gp_freeze_load_text(const char *name, const char *text, size_t len, gp_freeze_manifest *m,
                        char *err, size_t errlen)
{
    return load(name, text, len, false, m, err, errlen);
}

int gp_freeze_load(const char *path, gp_freeze_manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    struct stat st;
    int fd = gp_open_regular(path, 0, &st, err, errlen);
    if (fd < 0) return -1;
    if ((uint64_t)st.st_size > GP_FREEZE_MANIFEST_CAP) {
        snprintf(err, errlen, "%s: is %lld bytes, over the %zu MiB a manifest may have", path,
                 (long long)st.st_size, GP_FREEZE_MANIFEST_CAP >> 20);
        close(fd);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    void *p = len ? gp_map_fd(fd, len) : NULL;
    close(fd);
    if (len && !p) {
        snprintf(err, errlen, "%s: cannot be mapped", path);
        return -1;
    }
    if (p) gp_map_advise(p, len, GP_MAP_SEQUENTIAL);
    int rc = load(path, p ? p : "", len, p != NULL, m, err, errlen);
    gp_unmap(p, len);
    return rc;
}

void gp_freeze_manifest_free(gp_freeze_manifest *m)
{
    cJSON_Delete(m->rest);
    free(m->files);
    free(m->paths);
    memset(m, 0, sizeof *m);
}
