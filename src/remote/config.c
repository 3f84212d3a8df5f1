/* config.c — see config.h. The file is read with a size cap and every field is checked with the
 * same rules `remote add` applies, so a hand-edited file cannot smuggle an ssh option (a target
 * starting with '-') or a control character into a command line. */
#include "remote/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/json.h"
#include "util/strbuf.h"

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return true;
    return false;
}

const char *gp_remote_name_check(const char *name)
{
    size_t n = strlen(name);
    if (n == 0) return "a name cannot be empty";
    if (n > GP_REMOTE_NAME_MAX) return "a name has at most 64 characters";
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  (i > 0 && (c == '.' || c == '_' || c == '-'));
        if (!ok)
            return "a name is letters, digits, '.', '_' and '-', starting with a letter or digit";
    }
    return NULL;
}

const char *gp_remote_target_check(const char *target)
{
    if (!*target) return "the ssh destination cannot be empty";
    if (target[0] == '-') return "the ssh destination cannot start with '-'";
    if (strlen(target) > 1024) return "the ssh destination is longer than 1024 characters";
    for (const unsigned char *p = (const unsigned char *)target; *p; p++)
        if (*p <= 0x20 || *p == 0x7f)
            return "the ssh destination cannot hold spaces or control characters";
    return NULL;
}

const char *gp_remote_path_check(const char *path)
{
    if (!*path) return "the remote folder cannot be empty";
    if (path[0] == '-') return "the remote folder cannot start with '-'";
    if (strlen(path) > 4096) return "the remote folder is longer than 4096 characters";
    if (has_control(path)) return "the remote folder cannot hold control characters";
    return NULL;
}

char *gp_remote_config_file(char *err, size_t errlen)
{
    const char *dir = getenv("GPUPORT_CONFIG_DIR");
    if (dir && *dir) return gp_path_join(dir, "remotes.json");
    gp_strbuf sb = GP_STRBUF_INIT;
#if defined(__APPLE__)
    const char *home = getenv("HOME");
    if (!home || !*home) {
        snprintf(err, errlen, "HOME is not set: set GPUPORT_CONFIG_DIR to the config folder");
        return NULL;
    }
    gp_strbuf_printf(&sb, "%s/Library/Application Support/gpuport/remotes.json", home);
#else
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/') {
        gp_strbuf_printf(&sb, "%s/gpuport/remotes.json", xdg);
    } else if (home && *home) {
        gp_strbuf_printf(&sb, "%s/.config/gpuport/remotes.json", home);
    } else {
        snprintf(err, errlen, "neither XDG_CONFIG_HOME nor HOME is set: set GPUPORT_CONFIG_DIR");
        return NULL;
    }
#endif
    char *s = gp_strbuf_take(&sb);
    if (!s) snprintf(err, errlen, "out of memory");
    return s;
}

static void entry_free(gp_remote_entry *e)
{
    free(e->name);
    free(e->target);
    free(e->path);
    free(e->gpuport);
}

void gp_remote_config_free(gp_remote_config *cfg)
{
    for (size_t i = 0; i < cfg->count; i++)
        entry_free(&cfg->items[i]);
    free(cfg->items);
    cfg->items = NULL;
    cfg->count = 0;
}

const gp_remote_entry *gp_remote_config_find(const gp_remote_config *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->count; i++)
        if (strcmp(cfg->items[i].name, name) == 0) return &cfg->items[i];
    return NULL;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

int gp_remote_config_add(gp_remote_config *cfg, const gp_remote_entry *e)
{
    gp_remote_entry *n = realloc(cfg->items, (cfg->count + 1) * sizeof *n);
    if (!n) return -1;
    cfg->items = n;
    gp_remote_entry c = {strdup(e->name), strdup(e->target), dup_or_null(e->path),
                         dup_or_null(e->gpuport)};
    if (!c.name || !c.target || (e->path && !c.path) || (e->gpuport && !c.gpuport)) {
        entry_free(&c);
        return -1;
    }
    cfg->items[cfg->count++] = c;
    return 0;
}

bool gp_remote_config_remove(gp_remote_config *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->count; i++) {
        if (strcmp(cfg->items[i].name, name) != 0) continue;
        entry_free(&cfg->items[i]);
        memmove(&cfg->items[i], &cfg->items[i + 1], (cfg->count - i - 1) * sizeof cfg->items[0]);
        cfg->count--;
        return true;
    }
    return false;
}

/* An optional string member: absent is fine, anything but a string is not. */
static int member_str(const cJSON *o, const char *key, bool required, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!v) return required ? -1 : 0;
    if (!cJSON_IsString(v) || !v->valuestring) return -1;
    *out = v->valuestring;
    return 0;
}

static int parse_entry(const char *name, size_t idx, const cJSON *o, gp_remote_config *cfg,
                       char *err, size_t errlen)
{
    const char *n, *t, *p, *g;
    if (!cJSON_IsObject(o) || member_str(o, "name", true, &n) ||
        member_str(o, "target", true, &t) || member_str(o, "path", false, &p) ||
        member_str(o, "gpuport", false, &g)) {
        snprintf(err, errlen,
                 "%s: remotes[%zu] must be an object with string \"name\" and \"target\" (and "
                 "optional string \"path\", \"gpuport\")",
                 name, idx);
        return -1;
    }
    const char *why = gp_remote_name_check(n);
    if (!why) why = gp_remote_target_check(t);
    if (!why && p) why = gp_remote_path_check(p);
    if (!why && g) why = gp_remote_path_check(g);
    if (why) {
        snprintf(err, errlen, "%s: remotes[%zu]: %s", name, idx, why);
        return -1;
    }
    if (gp_remote_config_find(cfg, n)) {
        snprintf(err, errlen, "%s: the name '%s' appears twice", name, n);
        return -1;
    }
    gp_remote_entry e = {(char *)n, (char *)t, (char *)p, (char *)g};
    if (gp_remote_config_add(cfg, &e) != 0) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    return 0;
}

int gp_remote_config_parse(const char *name, const char *text, size_t len, gp_remote_config *cfg,
                           char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    if (len > GP_REMOTE_CONFIG_CAP) {
        snprintf(err, errlen, "%s: larger than %u bytes", name, GP_REMOTE_CONFIG_CAP);
        return -1;
    }
    cJSON *j = gp_json_parse(name, text, len, err, errlen);
    if (!j) return -1;
    int rc = -1;
    const char *dup = NULL;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(j, "remotes");
    if (!cJSON_IsObject(j)) {
        snprintf(err, errlen, "%s: not a JSON object", name);
    } else if (gp_json_find_duplicate_key(j, &dup)) {
        snprintf(err, errlen, "%s: the key \"%s\" appears twice in one object", name, dup);
    } else if (!cJSON_IsString(schema) || strcmp(schema->valuestring, GP_REMOTE_CONFIG_SCHEMA)) {
        snprintf(err, errlen, "%s: \"schema\" must be \"%s\"", name, GP_REMOTE_CONFIG_SCHEMA);
    } else if (!cJSON_IsArray(list)) {
        snprintf(err, errlen, "%s: \"remotes\" must be an array", name);
    } else {
        rc = 0;
        size_t i = 0;
        for (const cJSON *o = list->child; o && rc == 0; o = o->next, i++)
            rc = parse_entry(name, i, o, cfg, err, errlen);
    }
    cJSON_Delete(j);
    if (rc != 0) gp_remote_config_free(cfg);
    return rc;
}

int gp_remote_config_load(const char *file, gp_remote_config *cfg, char *err, size_t errlen)
{
    memset(cfg, 0, sizeof *cfg);
    struct stat st;
    if (stat(file, &st) != 0 && errno == ENOENT) return 0;
    size_t len = 0;
    char *text = gp_read_file(file, GP_REMOTE_CONFIG_CAP, false, &len, err, errlen);
    if (!text) return -1;
    int rc = gp_remote_config_parse(file, text, len, cfg, err, errlen);
    free(text);
    return rc;
}

static cJSON *config_to_json(const gp_remote_config *cfg)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", GP_REMOTE_CONFIG_SCHEMA);
    cJSON *list = cJSON_AddArrayToObject(j, "remotes");
    for (size_t i = 0; list && i < cfg->count; i++) {
        const gp_remote_entry *e = &cfg->items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddStringToObject(o, "target", e->target);
        if (e->path) cJSON_AddStringToObject(o, "path", e->path);
        if (e->gpuport) cJSON_AddStringToObject(o, "gpuport", e->gpuport);
        cJSON_AddItemToArray(list, o);
    }
    return j;
}

int gp_remote_config_save(const char *file, const gp_remote_config *cfg, char *err, size_t errlen)
{
    char *dir = strdup(file);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash && slash != dir) {
        *slash = '\0';
        if (gp_mkdir_p(dir, 0700) != 0) {
            snprintf(err, errlen, "%s: cannot create the folder: %s", dir, strerror(errno));
            free(dir);
            return -1;
        }
    }
    free(dir);
    cJSON *j = config_to_json(cfg);
    char *text = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, text);
    gp_strbuf_putc(&sb, '\n');
    cJSON_free(text);
    int rc = sb.failed ? -1 : gp_write_file_atomic(file, sb.data, sb.len, err, errlen);
    if (sb.failed) snprintf(err, errlen, "%s: out of memory", file);
    gp_strbuf_free(&sb);
    return rc;
}
