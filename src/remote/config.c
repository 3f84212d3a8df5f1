/* config.c — see config.h. The file is read with a size cap and every field is checked with the
 * same rules `remote add` applies, so a hand-edited file cannot smuggle an ssh option (a target
 * starting with '-') or a control character into a command line. */
#include "remote/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "remote/proc.h"
#include "remote/shquote.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/userdirs.h"

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return true;
    return false;
}

/* "';'" or "a space" or "\x1b", for the messages that name a character. */
static const char *config_char_name(unsigned char c, char *buf, size_t len)
{
    if (c == ' ')
        snprintf(buf, len, "a space");
    else if (c < 0x20 || c >= 0x7f)
        snprintf(buf, len, "the byte \\x%02x", c);
    else
        snprintf(buf, len, "'%c'", c);
    return buf;
}

static bool config_plain(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

const char *gp_remote_name_check(const char *name, char *why, size_t len)
{
    size_t n = strlen(name);
    if (n == 0) return snprintf(why, len, "a name cannot be empty"), why;
    if (n > GP_REMOTE_NAME_MAX) return snprintf(why, len, "a name has at most 64 characters"), why;
    for (size_t i = 0; i < n; i++) {
        if (config_plain(name[i]) &&
            (i > 0 || (name[i] != '.' && name[i] != '_' && name[i] != '-')))
            continue;
        char c[32];
        snprintf(why, len,
                 "a name is letters, digits, '.', '_' and '-', starting with a letter or digit; "
                 "%s (character %zu) is not allowed",
                 config_char_name((unsigned char)name[i], c, sizeof c), i + 1);
        return why;
    }
    return NULL;
}

const char *gp_remote_target_check(const char *target, char *why, size_t len)
{
    if (!*target) return snprintf(why, len, "the ssh destination cannot be empty"), why;
    if (strlen(target) > 255)
        return snprintf(why, len, "the ssh destination is longer than 255 characters"), why;
    /* USER@HOST or HOST, where HOST is a host name, an address or a Host alias of ssh_config.
     * ':' and '%' are allowed for IPv6 addresses (fe80::1%eth0). Everything else — ports,
     * ssh:// addresses, options — belongs in ~/.ssh/config. */
    const char *at = strchr(target, '@');
    size_t host = at ? (size_t)(at - target) + 1 : 0; /* where the host part starts */
    for (size_t i = 0; target[i]; i++) {
        char ch = target[i], c[32];
        if ((i == 0 || i == host) && ch == '-') {
            snprintf(why, len,
                     "the ssh destination cannot have '-' at character %zu: it would be an ssh "
                     "option",
                     i + 1);
            return why;
        }
        bool ok = ch == '@'                  ? i > 0 && i + 1 == host
                  : (ch == ':' || ch == '%') ? i >= host
                                             : config_plain(ch);
        if (ok) continue;
        snprintf(why, len,
                 "the ssh destination holds %s (character %zu): it must be a host name, "
                 "user@host or a Host alias of ~/.ssh/config (letters, digits, '.', '_', '-'; one "
                 "'@'); ports, jump hosts and other settings go in ~/.ssh/config",
                 config_char_name((unsigned char)ch, c, sizeof c), i + 1);
        return why;
    }
    if (at && !target[host])
        return snprintf(why, len, "the ssh destination has no host after '@'"), why;
    /* ':' only in an IPv6 address (two of them at least): "host:22" is not a port here. */
    const char *colon = strchr(target + host, ':');
    if (colon && !strchr(colon + 1, ':')) {
        snprintf(why, len,
                 "the ssh destination holds ':' (character %zu): a port goes in ~/.ssh/config "
                 "(Host ALIAS, HostName, Port), and the alias here",
                 (size_t)(colon - target) + 1);
        return why;
    }
    return NULL;
}

const char *gp_remote_path_check(const char *path, char *why, size_t len)
{
    if (!*path) return snprintf(why, len, "the remote folder cannot be empty"), why;
    if (path[0] == '-') return snprintf(why, len, "the remote folder cannot start with '-'"), why;
    if (strlen(path) > 4096)
        return snprintf(why, len, "the remote folder is longer than 4096 characters"), why;
    if (has_control(path))
        return snprintf(why, len, "the remote folder cannot hold control characters"), why;
    return NULL;
}

char *gp_remote_config_file(char *err, size_t errlen)
{
    const char *dir = getenv("GPUPORT_CONFIG_DIR");
    if (dir && *dir) return gp_path_join(dir, "remotes.json");
    char why[128];
    char *base = gp_user_config_dir(why, sizeof why);
    if (!base) {
        snprintf(err, errlen, "%s: set GPUPORT_CONFIG_DIR to the config folder", why);
        return NULL;
    }
    char *s = gp_path_join(base, "gpuport/remotes.json");
    free(base);
    if (!s) snprintf(err, errlen, "out of memory");
    return s;
}

static void slurm_free(gp_remote_slurm *s)
{
    if (!s) return;
    free(s->partition);
    free(s->gpus);
    free(s->gres);
    free(s->time);
    free(s->account);
    for (size_t i = 0; i < s->n_args; i++)
        free(s->args[i]);
    free(s->args);
    free(s);
}

static void entry_free(gp_remote_entry *e)
{
    free(e->name);
    free(e->target);
    free(e->path);
    free(e->gpuport);
    slurm_free(e->slurm);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* A deep copy, or NULL (ENOMEM). */
static gp_remote_slurm *slurm_dup(const gp_remote_slurm *s)
{
    gp_remote_slurm *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->partition = dup_or_null(s->partition);
    c->gpus = dup_or_null(s->gpus);
    c->gres = dup_or_null(s->gres);
    c->time = dup_or_null(s->time);
    c->account = dup_or_null(s->account);
    bool ok = (!s->partition || c->partition) && (!s->gpus || c->gpus) && (!s->gres || c->gres) &&
              (!s->time || c->time) && (!s->account || c->account);
    if (ok && s->n_args) {
        c->args = calloc(s->n_args, sizeof *c->args);
        ok = c->args != NULL;
        for (size_t i = 0; ok && i < s->n_args; i++, c->n_args++)
            ok = (c->args[i] = strdup(s->args[i])) != NULL;
    }
    if (!ok) {
        slurm_free(c);
        return NULL;
    }
    return c;
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

int gp_remote_config_add(gp_remote_config *cfg, const gp_remote_entry *e)
{
    gp_remote_entry *n = realloc(cfg->items, (cfg->count + 1) * sizeof *n);
    if (!n) return -1;
    cfg->items = n;
    gp_remote_entry c = {strdup(e->name), strdup(e->target), dup_or_null(e->path),
                         dup_or_null(e->gpuport), e->slurm ? slurm_dup(e->slurm) : NULL};
    if (!c.name || !c.target || (e->path && !c.path) || (e->gpuport && !c.gpuport) ||
        (e->slurm && !c.slurm)) {
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

/* The "slurm" object of an entry into `sl` (pointing into the JSON, not copied); 0 or -1. */
static int parse_slurm(const cJSON *o, gp_remote_slurm *sl, const char **args_tmp[], size_t *n)
{
    if (!cJSON_IsObject(o) || member_str(o, "partition", false, (const char **)&sl->partition) ||
        member_str(o, "gpus", false, (const char **)&sl->gpus) ||
        member_str(o, "gres", false, (const char **)&sl->gres) ||
        member_str(o, "time", false, (const char **)&sl->time) ||
        member_str(o, "account", false, (const char **)&sl->account))
        return -1;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "args");
    if (!args) return 0;
    if (!cJSON_IsArray(args)) return -1;
    int count = cJSON_GetArraySize(args);
    *args_tmp = calloc((size_t)count + 1, sizeof **args_tmp);
    if (!*args_tmp) return -1;
    const cJSON *a;
    cJSON_ArrayForEach(a, args)
    {
        if (!cJSON_IsString(a) || !a->valuestring) return -1;
        (*args_tmp)[(*n)++] = a->valuestring;
    }
    sl->args = (char **)*args_tmp;
    sl->n_args = *n;
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
    const cJSON *so = cJSON_GetObjectItemCaseSensitive(o, "slurm");
    gp_remote_slurm sl = {0};
    const char **args = NULL;
    size_t n_args = 0;
    if (so && !cJSON_IsNull(so) && parse_slurm(so, &sl, &args, &n_args) != 0) {
        snprintf(err, errlen,
                 "%s: remotes[%zu].slurm must be an object of optional strings \"partition\", "
                 "\"gpus\", \"gres\", \"time\", \"account\" and an array of strings \"args\"",
                 name, idx);
        free(args);
        return -1;
    }
    bool is_slurm = so && !cJSON_IsNull(so);
    char whybuf[512];
    const char *why = gp_remote_name_check(n, whybuf, sizeof whybuf);
    if (!why) why = gp_remote_target_check(t, whybuf, sizeof whybuf);
    if (!why && p) why = gp_remote_path_check(p, whybuf, sizeof whybuf);
    if (!why && g) why = gp_remote_path_check(g, whybuf, sizeof whybuf);
    if (!why && is_slurm) why = gp_remote_slurm_check(&sl, whybuf, sizeof whybuf);
    int rc = -1;
    if (why) {
        snprintf(err, errlen, "%s: remotes[%zu]: %s", name, idx, why);
    } else if (gp_remote_config_find(cfg, n)) {
        snprintf(err, errlen, "%s: the name '%s' appears twice", name, n);
    } else {
        gp_remote_entry e = {(char *)n, (char *)t, (char *)p, (char *)g, is_slurm ? &sl : NULL};
        rc = gp_remote_config_add(cfg, &e);
        if (rc != 0) snprintf(err, errlen, "%s: out of memory", name);
    }
    free(args);
    return rc;
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

static void slurm_to_json(cJSON *o, const gp_remote_slurm *sl)
{
    cJSON *j = cJSON_AddObjectToObject(o, "slurm");
    if (!j) return;
    if (sl->partition) cJSON_AddStringToObject(j, "partition", sl->partition);
    if (sl->gpus) cJSON_AddStringToObject(j, "gpus", sl->gpus);
    if (sl->gres) cJSON_AddStringToObject(j, "gres", sl->gres);
    if (sl->time) cJSON_AddStringToObject(j, "time", sl->time);
    if (sl->account) cJSON_AddStringToObject(j, "account", sl->account);
    if (sl->n_args) {
        cJSON *a = cJSON_AddArrayToObject(j, "args");
        for (size_t i = 0; a && i < sl->n_args; i++)
            cJSON_AddItemToArray(a, cJSON_CreateString(sl->args[i]));
    }
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
        if (e->slurm) slurm_to_json(o, e->slurm);
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

/* The options of `remote add` that recreate an entry, as (option, value) pairs. */
static size_t add_options(const gp_remote_entry *e, const char *opts[][2], size_t max)
{
    size_t n = 0;
#define ADD_OPT(o, v)                                                                              \
    do {                                                                                           \
        if (n < max) opts[n][0] = (o), opts[n][1] = (v), n++;                                      \
    } while (0)
    if (e->path) ADD_OPT("--path", e->path);
    if (e->gpuport) ADD_OPT("--gpuport", e->gpuport);
    const gp_remote_slurm *s = e->slurm;
    if (s) {
        ADD_OPT("--slurm", NULL);
        if (s->partition) ADD_OPT("--partition", s->partition);
        if (s->gpus) ADD_OPT("--gpus", s->gpus);
        if (s->gres) ADD_OPT("--gres", s->gres);
        if (s->time) ADD_OPT("--time", s->time);
        if (s->account) ADD_OPT("--account", s->account);
        for (size_t i = 0; i < s->n_args; i++)
            ADD_OPT("--slurm-arg", s->args[i]);
    }
#undef ADD_OPT
    return n;
}

const char *gp_remote_add_command(const gp_remote_entry *e, const char *opt, const char *value,
                                  char *buf, size_t len)
{
    const char *opts[64][2];
    size_t n = add_options(e, opts, 60);
    bool replaced = false;
    /* --gpus and --gres exclude each other: setting one drops the other. */
    const char *drop = !opt                         ? NULL
                       : strcmp(opt, "--gpus") == 0 ? "--gres"
                       : strcmp(opt, "--gres") == 0 ? "--gpus"
                                                    : NULL;
    gp_argv words = {0};
    gp_argv_push(&words, "gpuport");
    gp_argv_push(&words, "remote");
    gp_argv_push(&words, "add");
    gp_argv_push(&words, e->name);
    gp_argv_push(&words, e->target);
    /* A --slurm-arg replaces the one of the same option ("--mem=8G" the "--mem=4G"). */
    size_t key_n = opt && value && strcmp(opt, "--slurm-arg") == 0 ? strcspn(value, "=") : 0;
    for (size_t i = 0; i < n; i++) {
        if (drop && strcmp(opts[i][0], drop) == 0) continue;
        const char *v = opts[i][1];
        bool same = opt && strcmp(opts[i][0], opt) == 0 &&
                    (key_n == 0 ||
                     (strncmp(v, value, key_n) == 0 && (v[key_n] == '=' || v[key_n] == '\0')));
        if (same && !replaced) {
            v = value;
            replaced = true;
        } else if (same) {
            continue;
        }
        gp_argv_push(&words, opts[i][0]);
        if (v) gp_argv_push(&words, v);
    }
    if (opt && !replaced) {
        if (strcmp(opt, "--path") != 0 && strcmp(opt, "--gpuport") != 0 && !e->slurm)
            gp_argv_push(&words, "--slurm");
        gp_argv_push(&words, opt);
        if (value) gp_argv_push(&words, value);
    }
    gp_argv_push(&words, "--replace");
    gp_strbuf sb = GP_STRBUF_INIT;
    if (!words.failed) gp_shquote_display_join(&sb, words.v);
    snprintf(buf, len, "%s",
             sb.failed || words.failed ? "gpuport remote add ..." : gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    gp_argv_free(&words);
    return buf;
}
