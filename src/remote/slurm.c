/* slurm.c — see slurm.h. Everything read back from Slurm is outside data: each parser takes
 * bounded fields, never trusts a length, and a line it does not understand is "unknown", not a
 * guess. Every word reaches srun and sbatch as an argument of its own (the scripts pass "$@"
 * through), so no value is ever parsed by a shell. */
#include "remote/slurm.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "remote/shquote.h"

/* --- the request ----------------------------------------------------------------------- */

static bool slurm_word_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* A non-empty run of [A-Za-z0-9._-] of at most `max` characters, from s to end. */
static bool slurm_word(const char *s, const char *end, size_t max)
{
    if (s >= end || (size_t)(end - s) > max) return false;
    for (const char *p = s; p < end; p++)
        if (!slurm_word_char(*p)) return false;
    return true;
}

static bool slurm_count(const char *s, const char *end)
{
    if (s >= end || end - s > 6) return false;
    for (const char *p = s; p < end; p++)
        if (!isdigit((unsigned char)*p)) return false;
    return atoi(s) > 0;
}

static bool slurm_word_list(const char *v)
{
    for (const char *p = v;;) {
        const char *c = strchr(p, ',');
        const char *e = c ? c : p + strlen(p);
        if (!slurm_word(p, e, 64)) return false;
        if (!c) return true;
        p = c + 1;
    }
}

/* One GRES item "name[:type][:count]" into its parts (pointers into `item`, lengths). */
typedef struct slurm_gres {
    char name[64], type[64];
    long count;
} slurm_gres;

static bool slurm_gres_item(const char *s, const char *end, slurm_gres *g)
{
    memset(g, 0, sizeof *g);
    g->count = 1;
    const char *parts[4];
    size_t lens[4], n = 0;
    for (const char *p = s; n < 4;) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        const char *e = c ? c : end;
        parts[n] = p;
        lens[n++] = (size_t)(e - p);
        if (!c) break;
        p = c + 1;
        if (n == 3) return false;
    }
    if (n == 0 || lens[0] == 0 || lens[0] >= sizeof g->name) return false;
    for (size_t i = 0; i < lens[0]; i++)
        if (!isalnum((unsigned char)parts[0][i]) && parts[0][i] != '_') return false;
    memcpy(g->name, parts[0], lens[0]);
    const char *type = NULL, *count = NULL;
    size_t tl = 0, cl = 0;
    if (n == 2 && slurm_count(parts[1], parts[1] + lens[1]))
        count = parts[1], cl = lens[1];
    else if (n >= 2)
        type = parts[1], tl = lens[1];
    if (n == 3) count = parts[2], cl = lens[2];
    if (type && (!slurm_word(type, type + tl, sizeof g->type - 1))) return false;
    if (count && !slurm_count(count, count + cl)) return false;
    if (type) memcpy(g->type, type, tl);
    if (count) g->count = strtol(count, NULL, 10);
    return true;
}

static bool slurm_gres_list(const char *v)
{
    for (const char *p = v;;) {
        const char *c = strchr(p, ',');
        const char *e = c ? c : p + strlen(p);
        slurm_gres g;
        if (!slurm_gres_item(p, e, &g)) return false;
        if (!c) return true;
        p = c + 1;
    }
}

/* Options gpuport sets itself or that have an option of their own in `remote add`. */
static const char *slurm_reserved(const char *arg)
{
    static const char *const longs[] = {
        "--job-name", "--output",    "--error", "--input", "--chdir", "--wrap",   "--parsable",
        "--pty",      "--partition", "--gres",  "--gpus",  "--time",  "--account"};
    for (size_t i = 0; i < sizeof longs / sizeof *longs; i++) {
        size_t n = strlen(longs[i]);
        if (strncmp(arg, longs[i], n) == 0 && (arg[n] == '\0' || arg[n] == '=')) return longs[i];
    }
    static const char *const shorts[] = {"-J", "-o", "-e", "-i", "-D", "-p", "-G", "-t", "-A"};
    for (size_t i = 0; i < sizeof shorts / sizeof *shorts; i++)
        if (arg[0] == '-' && arg[1] == shorts[i][1]) return shorts[i];
    return NULL;
}

const char *gp_remote_slurm_check(const gp_remote_slurm *s, char *why, size_t len)
{
    if (s->partition && !slurm_word_list(s->partition))
        return snprintf(why, len,
                        "--partition '%.100s': a partition name is letters, digits, '.', '_' "
                        "and '-' (several: separated by ',')",
                        s->partition),
               why;
    if (s->gpus && s->gres) return snprintf(why, len, "--gpus and --gres: give one of them"), why;
    if (s->gpus) {
        const char *c = strrchr(s->gpus, ':');
        bool ok = c ? slurm_word(s->gpus, c, 63) && slurm_count(c + 1, c + strlen(c))
                    : slurm_count(s->gpus, s->gpus + strlen(s->gpus));
        if (!ok)
            return snprintf(why, len,
                            "--gpus '%.100s': give a count N or TYPE:N (such as 2 or a100:2)",
                            s->gpus),
                   why;
    }
    if (s->gres && !slurm_gres_list(s->gres))
        return snprintf(why, len,
                        "--gres '%.100s': give gpu:N or gpu:TYPE:N (several: separated by ',')",
                        s->gres),
               why;
    if (s->time && gp_slurm_time_seconds(s->time) <= 0)
        return snprintf(why, len,
                        "--time '%.100s': give minutes (30), H:MM:SS (1:30:00) or D-HH:MM:SS "
                        "(1-00:00:00), as Slurm takes it",
                        s->time),
               why;
    if (s->account && !slurm_word(s->account, s->account + strlen(s->account), 128))
        return snprintf(why, len,
                        "--account '%.100s': an account name is letters, digits, '.', '_' and "
                        "'-'",
                        s->account),
               why;
    for (size_t i = 0; i < s->n_args; i++) {
        const char *a = s->args[i], *r;
        bool ctl = false;
        for (const unsigned char *p = (const unsigned char *)a; *p; p++)
            ctl = ctl || *p < 0x20 || *p == 0x7f;
        if (a[0] != '-' || strlen(a) < 2)
            snprintf(why, len,
                     "--slurm-arg '%.100s': each is one option of srun and sbatch, as one word "
                     "(--qos=high, --mem=16G)",
                     a);
        else if (ctl || strlen(a) > 1024)
            snprintf(why, len,
                     "--slurm-arg: an option holds control characters or is longer than 1024 "
                     "characters");
        else if ((r = slurm_reserved(a)))
            snprintf(why, len,
                     "--slurm-arg '%.100s': %s is set by gpuport itself or has an option of its "
                     "own in 'gpuport remote add'",
                     a, r);
        else
            continue;
        return why;
    }
    return NULL;
}

/* Digits only, at most 9 of them; -1 otherwise. */
static long slurm_num(const char *s, size_t n)
{
    if (n == 0 || n > 9) return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

long gp_slurm_time_seconds(const char *t)
{
    if (strcasecmp(t, "infinite") == 0 || strcasecmp(t, "unlimited") == 0)
        return GP_SLURM_TIME_INFINITE;
    long days = 0;
    const char *rest = t, *dash = strchr(t, '-');
    if (dash) {
        days = slurm_num(t, (size_t)(dash - t));
        if (days < 0) return -1;
        rest = dash + 1;
    }
    long f[3];
    size_t n = 0;
    for (const char *p = rest;;) {
        const char *c = strchr(p, ':');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (n == 3 || (f[n++] = slurm_num(p, l)) < 0) return -1;
        if (!c) break;
        p = c + 1;
    }
    long s;
    if (dash) /* D-H, D-H:M, D-H:M:S */
        s = f[0] * 3600 + (n > 1 ? f[1] * 60 : 0) + (n > 2 ? f[2] : 0);
    else if (n == 1) /* M */
        s = f[0] * 60;
    else if (n == 2) /* M:S */
        s = f[0] * 60 + f[1];
    else /* H:M:S */
        s = f[0] * 3600 + f[1] * 60 + f[2];
    return days * 86400 + s;
}

static void slurm_time_text(long s, char *buf, size_t len)
{
    if (s >= GP_SLURM_TIME_INFINITE)
        snprintf(buf, len, "UNLIMITED");
    else if (s >= 86400)
        snprintf(buf, len, "%ld-%02ld:%02ld:%02ld", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

void gp_slurm_options(const gp_remote_slurm *s, gp_argv *a)
{
    if (s->partition) gp_argv_pushf(a, "--partition=%s", s->partition);
    if (s->gpus) gp_argv_pushf(a, "--gpus=%s", s->gpus);
    if (s->gres) gp_argv_pushf(a, "--gres=%s", s->gres);
    if (s->time) gp_argv_pushf(a, "--time=%s", s->time);
    if (s->account) gp_argv_pushf(a, "--account=%s", s->account);
    for (size_t i = 0; i < s->n_args; i++)
        gp_argv_push(a, s->args[i]);
}

void gp_slurm_job_name(char *buf, size_t len)
{
    unsigned char r[8] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool got = fd >= 0 && read(fd, r, sizeof r) == (ssize_t)sizeof r;
    if (fd >= 0) close(fd);
    if (!got) { /* no random source: time and process id still differ between runs */
        unsigned long long v = (unsigned long long)time(NULL) * 1000003u ^ (unsigned)getpid();
        memcpy(r, &v, sizeof r < sizeof v ? sizeof r : sizeof v);
    }
    snprintf(buf, len, "gpuport-%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3], r[4],
             r[5], r[6], r[7]);
}

/* --- partitions -------------------------------------------------------------------------- */

/* Copies field `i` (0-based) of a '|'-separated line [s, end) into out; false when missing. */
static bool slurm_field(const char *s, const char *end, int i, char *out, size_t outlen)
{
    for (; i > 0; i--) {
        const char *bar = memchr(s, '|', (size_t)(end - s));
        if (!bar) return false;
        s = bar + 1;
    }
    const char *bar = memchr(s, '|', (size_t)(end - s));
    size_t n = (size_t)((bar ? bar : end) - s);
    if (n >= outlen) n = outlen - 1;
    memcpy(out, s, n);
    out[n] = '\0';
    for (char *c = out; *c; c++)
        if ((unsigned char)*c < 0x20) *c = '?';
    return true;
}

long gp_slurm_partitions_parse(const char *text, size_t len, gp_slurm_partition **out)
{
    *out = NULL;
    size_t n = 0, cap = 0;
    for (size_t off = 0; off < len;) {
        const char *s = text + off;
        const char *nl = memchr(s, '\n', len - off);
        const char *end = nl ? nl : text + len;
        off = (size_t)(end - text) + 1;
        if (end > s && end[-1] == '\r') end--;
        if (end == s) continue;
        gp_slurm_partition p;
        memset(&p, 0, sizeof p);
        char avail[32], limit[32], extra[8];
        if (!slurm_field(s, end, 0, p.name, sizeof p.name) ||
            !slurm_field(s, end, 1, avail, sizeof avail) ||
            !slurm_field(s, end, 2, limit, sizeof limit) ||
            !slurm_field(s, end, 3, p.gres, sizeof p.gres) ||
            slurm_field(s, end, 4, extra, sizeof extra)) {
            free(*out);
            *out = NULL;
            return -1;
        }
        size_t nl2 = strlen(p.name);
        if (nl2 && p.name[nl2 - 1] == '*') p.name[--nl2] = '\0', p.is_default = true;
        if (!slurm_word(p.name, p.name + nl2, 63)) {
            free(*out);
            *out = NULL;
            return -1;
        }
        p.up = strcmp(avail, "up") == 0;
        p.max_time = gp_slurm_time_seconds(limit);
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            gp_slurm_partition *q = cap < 100000 ? realloc(*out, cap * sizeof *q) : NULL;
            if (!q) {
                free(*out);
                *out = NULL;
                return -1;
            }
            *out = q;
        }
        (*out)[n++] = p;
    }
    return (long)n;
}

/* Does a node group's GRES text ("gpu:a100:4(S:0-1),shard:8") hold `want`? With
 * `check_count` false only the name and type must match. */
static bool slurm_gres_has(const char *have, const slurm_gres *want, bool check_count)
{
    char buf[256];
    size_t k = 0;
    for (int depth = 0; *have && k + 1 < sizeof buf; have++) { /* drop "(S:0-1)" parts */
        if (*have == '(')
            depth++;
        else if (*have == ')')
            depth--;
        else if (depth == 0)
            buf[k++] = *have;
    }
    buf[k] = '\0';
    for (char *p = buf;;) {
        char *c = strchr(p, ',');
        if (c) *c = '\0';
        slurm_gres g;
        if (slurm_gres_item(p, p + strlen(p), &g) && strcmp(g.name, want->name) == 0 &&
            (!want->type[0] || strcmp(g.type, want->type) == 0) &&
            (!check_count || g.count >= want->count))
            return true;
        if (!c) return false;
        p = c + 1;
    }
}

/* The GRES of the partition's node groups, for messages ("gpu:tesla:1; none"). */
static void slurm_gres_of(const gp_slurm_partition *p, size_t n, const char *part, char *buf,
                          size_t len)
{
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(p[i].name, part) != 0) continue;
        const char *g = strcmp(p[i].gres, "(null)") == 0 ? "none" : p[i].gres;
        int w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", g);
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
}

/* Checks one requested partition; 0 or 2 with msg. */
static int slurm_check_partition(const gp_remote_entry *e, const char *part,
                                 const gp_slurm_partition *p, size_t n, char *msg, size_t msglen)
{
    const gp_remote_slurm *s = e->slurm;
    char fix[2048], have[512];
    bool found = false, up = false, gres_ok = !s->gres && !s->gpus, time_ok = !s->time;
    long req_time = s->time ? gp_slurm_time_seconds(s->time) : 0, max_time = -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(p[i].name, part) != 0) continue;
        found = true;
        up = up || p[i].up;
        if (p[i].max_time > max_time) max_time = p[i].max_time;
        if (s->gres) {
            bool all = true;
            for (const char *q = s->gres;;) {
                const char *c = strchr(q, ',');
                const char *end = c ? c : q + strlen(q);
                slurm_gres g;
                all = all && slurm_gres_item(q, end, &g) && slurm_gres_has(p[i].gres, &g, true);
                if (!c) break;
                q = c + 1;
            }
            gres_ok = gres_ok || all;
        } else if (s->gpus) {
            slurm_gres g = {"gpu", "", 1};
            const char *c = strrchr(s->gpus, ':');
            if (c && (size_t)(c - s->gpus) < sizeof g.type)
                memcpy(g.type, s->gpus, (size_t)(c - s->gpus));
            gres_ok = gres_ok || slurm_gres_has(p[i].gres, &g, false);
        }
    }
    if (!found) {
        gp_strbuf names = GP_STRBUF_INIT;
        const char *dflt = NULL;
        for (size_t i = 0; i < n; i++) {
            bool seen = false;
            for (size_t k = 0; k < i && !seen; k++)
                seen = strcmp(p[k].name, p[i].name) == 0;
            if (seen) continue;
            gp_strbuf_printf(&names, "%s%s%s", names.len ? ", " : "", p[i].name,
                             p[i].is_default ? " (the default)" : "");
            if (p[i].is_default || !dflt) dflt = p[i].name;
        }
        snprintf(msg, msglen,
                 "partition '%s' does not exist on %s (its partitions: %s); choose one: %s", part,
                 e->name, names.len ? gp_strbuf_cstr(&names) : "none",
                 gp_remote_add_command(e, "--partition", dflt ? dflt : "NAME", fix, sizeof fix));
        gp_strbuf_free(&names);
        return 2;
    }
    slurm_gres_of(p, n, part, have, sizeof have);
    if (!up) {
        snprintf(msg, msglen,
                 "partition '%s' on %s is not up (sinfo says so): jobs would wait there until "
                 "an administrator brings it up; choose another: %s",
                 part, e->name, gp_remote_add_command(e, "--partition", "NAME", fix, sizeof fix));
        return 2;
    }
    if (!gres_ok) {
        /* Suggest what the partition does have, when it has GPUs at all. */
        char sugg[128] = "";
        const char *g = strstr(have, "gpu");
        if (g) {
            size_t k = 0;
            while (g[k] && g[k] != '(' && g[k] != ',' && g[k] != ';' && k + 1 < sizeof sugg)
                sugg[k] = g[k], k++;
            sugg[k] = '\0';
        }
        snprintf(msg, msglen,
                 "partition '%s' on %s has no nodes with %s %s (its nodes' GRES: %s); %s%s", part,
                 e->name, s->gres ? "--gres" : "--gpus", s->gres ? s->gres : s->gpus, have,
                 sugg[0] ? "ask for what it has: " : "choose a partition with GPUs: ",
                 gp_remote_add_command(e, sugg[0] ? "--gres" : "--partition",
                                       sugg[0] ? sugg : "NAME", fix, sizeof fix));
        return 2;
    }
    time_ok = time_ok || (req_time > 0 && max_time >= 0 && req_time <= max_time) || max_time < 0;
    if (!time_ok) {
        char lim[32];
        slurm_time_text(max_time, lim, sizeof lim);
        snprintf(msg, msglen,
                 "--time %s is more than partition '%s' on %s allows (%s): the job would wait "
                 "for ever; ask for at most that: %s",
                 s->time, part, e->name, lim,
                 gp_remote_add_command(e, "--time", lim, fix, sizeof fix));
        return 2;
    }
    return 0;
}

int gp_slurm_preflight_check(const gp_remote_entry *e, int code, const char *out, size_t out_len,
                             const char *err_text, char *msg, size_t msglen)
{
    char c1[256];
    if (code == 4 && out && strncmp(out, "missing ", 8) == 0) {
        char what[64];
        snprintf(what, sizeof what, "%.*s", (int)strcspn(out + 8, "\r\n"), out + 8);
        snprintf(msg, msglen,
                 "no %s on the login node of %s (%s): Slurm's commands are not on the PATH of a "
                 "non-interactive ssh shell there; if %s is a login node of a Slurm cluster, make "
                 "them found without a terminal (a 'module load slurm' in ~/.bashrc before its "
                 "non-interactive return, or the folder in PATH), then check with: %s",
                 what, e->name, e->target, e->target,
                 gp_shquote_cmd(c1, sizeof c1, "ssh", e->target, "command", "-v", what, NULL));
        return 2;
    }
    if (code != 0) {
        char last[256] = "";
        if (err_text) {
            const char *p = err_text, *best = err_text;
            for (; *p; p++)
                if (*p == '\n' && p[1]) best = p + 1;
            snprintf(last, sizeof last, "%.*s", (int)strcspn(best, "\r\n"), best);
        }
        snprintf(msg, msglen,
                 "sinfo failed on %s (exit %d: %s): the cluster's controller cannot be reached "
                 "from there, or SLURM_CONF is not set for non-interactive shells; check with: %s",
                 e->name, code, last[0] ? last : "no message",
                 gp_shquote_cmd(c1, sizeof c1, "ssh", e->target, "sinfo", NULL));
        return 2;
    }
    gp_slurm_partition *p = NULL;
    long n = gp_slurm_partitions_parse(out ? out : "", out_len, &p);
    if (n < 0) {
        snprintf(msg, msglen, "sinfo on %s answered lines gpuport cannot read; update gpuport",
                 e->name);
        return 2;
    }
    int rc = 0;
    const char *req = e->slurm->partition;
    if (!req) {
        const char *dflt = NULL;
        for (long i = 0; i < n && !dflt; i++)
            if (p[i].is_default) dflt = p[i].name;
        char fix[2048];
        if (!dflt) {
            snprintf(
                msg, msglen, "the cluster behind %s has no default partition: name one with: %s",
                e->name,
                gp_remote_add_command(e, "--partition", n ? p[0].name : "NAME", fix, sizeof fix));
            rc = 2;
        } else {
            rc = slurm_check_partition(e, dflt, p, (size_t)n, msg, msglen);
        }
    } else {
        char part[64];
        for (const char *q = req; rc == 0;) {
            const char *c = strchr(q, ',');
            size_t l = c ? (size_t)(c - q) : strlen(q);
            snprintf(part, sizeof part, "%.*s", (int)l, q);
            rc = slurm_check_partition(e, part, p, (size_t)n, msg, msglen);
            if (!c) break;
            q = c + 1;
        }
    }
    free(p);
    return rc;
}

/* --- job records ------------------------------------------------------------------------ */

/* The value of KEY= in scontrol's one-line record: up to the next space. */
static bool slurm_kv(const char *line, const char *key, char *out, size_t outlen)
{
    size_t kl = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += kl) {
        if ((p != line && p[-1] != ' ') || p[kl] != '=') continue;
        const char *v = p + kl + 1;
        size_t n = strcspn(v, " \r\n");
        if (n >= outlen) n = outlen - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        for (char *c = out; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f) *c = '?';
        return true;
    }
    out[0] = '\0';
    return false;
}

static void slurm_exit(const char *v, gp_slurm_job *j)
{
    j->exit_code = j->exit_signal = 0;
    const char *c = strchr(v, ':');
    j->exit_code = (int)slurm_num(v, c ? (size_t)(c - v) : strlen(v));
    if (c) j->exit_signal = (int)slurm_num(c + 1, strlen(c + 1));
    if (j->exit_code < 0) j->exit_code = 0;
    if (j->exit_signal < 0) j->exit_signal = 0;
}

static bool slurm_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)id[i]) && id[i] != '_' && id[i] != '+') return false;
    return true;
}

int gp_slurm_job_parse_scontrol(const char *line, gp_slurm_job *j)
{
    memset(j, 0, sizeof *j);
    char exit[32];
    if (!slurm_kv(line, "JobId", j->id, sizeof j->id) || !slurm_id_ok(j->id) ||
        !slurm_kv(line, "JobState", j->state, sizeof j->state) || !j->state[0])
        return -1;
    slurm_kv(line, "Reason", j->reason, sizeof j->reason);
    slurm_kv(line, "NodeList", j->node, sizeof j->node);
    if (strcmp(j->node, "(null)") == 0) j->node[0] = '\0';
    slurm_kv(line, "Partition", j->partition, sizeof j->partition);
    slurm_kv(line, "TimeLimit", j->time_limit, sizeof j->time_limit);
    slurm_kv(line, "RunTime", j->run_time, sizeof j->run_time);
    if (!slurm_kv(line, "MinMemoryNode", j->memory, sizeof j->memory))
        slurm_kv(line, "MinMemoryCPU", j->memory, sizeof j->memory);
    if (strcmp(j->memory, "0") == 0) j->memory[0] = '\0';
    if (slurm_kv(line, "ExitCode", exit, sizeof exit)) slurm_exit(exit, j);
    j->known = true;
    return 0;
}

int gp_slurm_job_parse_sacct(const char *line, gp_slurm_job *j)
{
    memset(j, 0, sizeof *j);
    const char *end = line + strcspn(line, "\r\n");
    char exit[32];
    if (!slurm_field(line, end, 0, j->id, sizeof j->id) || !slurm_id_ok(j->id) ||
        !slurm_field(line, end, 1, j->state, sizeof j->state) ||
        !slurm_field(line, end, 2, exit, sizeof exit) ||
        !slurm_field(line, end, 3, j->node, sizeof j->node) ||
        !slurm_field(line, end, 4, j->partition, sizeof j->partition) ||
        !slurm_field(line, end, 5, j->time_limit, sizeof j->time_limit) ||
        !slurm_field(line, end, 6, j->run_time, sizeof j->run_time) ||
        !slurm_field(line, end, 7, j->memory, sizeof j->memory))
        return -1;
    j->state[strcspn(j->state, " ")] = '\0'; /* "CANCELLED by 1000" */
    if (!j->state[0]) return -1;
    if (strcmp(j->node, "None assigned") == 0) j->node[0] = '\0';
    slurm_exit(exit, j);
    j->known = true;
    return 0;
}

int gp_slurm_job_parse(const char *text, gp_slurm_job *j)
{
    memset(j, 0, sizeof *j);
    if (!text) return -1;
    if (strncmp(text, "scontrol ", 9) == 0) return gp_slurm_job_parse_scontrol(text + 9, j);
    if (strncmp(text, "sacct ", 6) == 0) return gp_slurm_job_parse_sacct(text + 6, j);
    return -1;
}

bool gp_slurm_job_active(const gp_slurm_job *j)
{
    static const char *const active[] = {"PENDING",   "RUNNING",      "CONFIGURING", "COMPLETING",
                                         "SUSPENDED", "REQUEUED",     "RESIZING",    "SIGNALING",
                                         "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED"};
    for (size_t i = 0; i < sizeof active / sizeof *active; i++)
        if (strcmp(j->state, active[i]) == 0) return true;
    return false;
}

/* "500M" -> twice as much, as Slurm writes sizes ("1000M", "2G"). */
static void slurm_double_memory(const char *m, char *buf, size_t len)
{
    char *end;
    double v = strtod(m, &end);
    char unit = *end ? (char)toupper((unsigned char)*end) : 'M';
    if (v <= 0 || !strchr("KMGT", unit)) {
        snprintf(buf, len, "16G");
        return;
    }
    v *= 2;
    if (unit == 'M' && v >= 1024) v /= 1024, unit = 'G';
    snprintf(buf, len, "%.0f%c", v, unit);
}

bool gp_slurm_job_explain(const gp_remote_entry *e, const gp_slurm_job *j, char *msg, size_t msglen)
{
    char fix[2048], val[64];
    const char *node = j->node[0] ? j->node : "its node";
    const char *why = j->reason[0] && strcmp(j->reason, "None") ? j->reason : NULL;
    if (strcmp(j->state, "TIMEOUT") == 0) {
        long lim = gp_slurm_time_seconds(j->time_limit);
        slurm_time_text(lim > 0 && lim < GP_SLURM_TIME_INFINITE / 2 ? lim * 2 : 3600, val,
                        sizeof val);
        snprintf(msg, msglen,
                 "job %s on %s hit its time limit (Slurm: state TIMEOUT%s%s, ran %s of %s) and "
                 "was stopped; ask for more time (within the partition's limit): %s",
                 j->id, node, why ? ", reason " : "", why ? why : "",
                 j->run_time[0] ? j->run_time : "?", j->time_limit[0] ? j->time_limit : "?",
                 gp_remote_add_command(e, "--time", val, fix, sizeof fix));
        return true;
    }
    bool oom = strcmp(j->state, "OUT_OF_MEMORY") == 0 || (why && strstr(why, "OutOfMemory"));
    if (oom || (j->exit_signal == 9 && j->memory[0] && strcmp(j->state, "CANCELLED") != 0)) {
        char mem[80];
        slurm_double_memory(j->memory[0] ? j->memory : "8G", val, sizeof val);
        snprintf(mem, sizeof mem, "--mem=%s", val);
        snprintf(msg, msglen,
                 "job %s on %s was killed %s (Slurm: state %s%s%s, exit %d:%d; it was given "
                 "%s of memory per node); ask for more memory: %s",
                 j->id, node,
                 oom ? "for using more memory than it was given"
                     : "with SIGKILL, which is how Slurm stops a step that uses more memory "
                       "than it was given",
                 j->state, why ? ", reason " : "", why ? why : "", j->exit_code, j->exit_signal,
                 j->memory[0] ? j->memory : "the default",
                 gp_remote_add_command(e, "--slurm-arg", mem, fix, sizeof fix));
        return true;
    }
    if (strcmp(j->state, "NODE_FAIL") == 0) {
        char ex[300];
        snprintf(ex, sizeof ex, "--exclude=%s", j->node[0] ? j->node : "NODE");
        snprintf(msg, msglen,
                 "job %s failed because its node %s failed (Slurm: state NODE_FAIL%s%s); the "
                 "command's outcome is unknown: run it again; to keep off that node: %s",
                 j->id, node, why ? ", reason " : "", why ? why : "",
                 gp_remote_add_command(e, "--slurm-arg", ex, fix, sizeof fix));
        return true;
    }
    if (strcmp(j->state, "CANCELLED") == 0) {
        snprintf(msg, msglen,
                 "job %s was cancelled on the cluster (Slurm: state CANCELLED%s%s), by scancel "
                 "or an administrator; run it again",
                 j->id, why ? ", reason " : "", why ? why : "");
        return true;
    }
    if (strcmp(j->state, "PREEMPTED") == 0) {
        snprintf(msg, msglen,
                 "job %s was preempted by a job of higher priority (Slurm: state PREEMPTED%s%s); "
                 "run it again, or let Slurm requeue it: %s",
                 j->id, why ? ", reason " : "", why ? why : "",
                 gp_remote_add_command(e, "--slurm-arg", "--requeue", fix, sizeof fix));
        return true;
    }
    if (strcmp(j->state, "COMPLETED") == 0 || strcmp(j->state, "FAILED") == 0) return false;
    if (gp_slurm_job_active(j)) return false;
    snprintf(msg, msglen, "job %s ended as %s%s%s on %s; run it again", j->id, j->state,
             why ? " (reason " : "", why ? why : "", node);
    return true;
}

/* --- the scripts -------------------------------------------------------------------------- */

const char GP_SLURM_PREFLIGHT_SH[] =
    "for c in srun sbatch squeue scancel scontrol sinfo; do command -v \"$c\" >/dev/null 2>&1 || "
    "{ echo \"missing $c\"; exit 4; }; done; exec sinfo -h -o '%P|%a|%l|%G'";

const char GP_SLURM_JOB_SH[] =
    "k=$1; shift; f=JobID,State,ExitCode,NodeList,Partition,Timelimit,Elapsed,ReqMem; "
    "for j in \"$@\"; do i=$j; if [ \"$k\" = name ]; then "
    "i=$(squeue -h -t all -n \"$j\" -o %i 2>/dev/null | tail -n 1); fi; l=; "
    "if [ -n \"$i\" ]; then l=$(scontrol show job -o \"$i\" 2>/dev/null | head -n 1); fi; "
    "if [ -n \"$l\" ]; then echo \"scontrol $l\"; continue; fi; "
    "if [ \"$k\" = name ]; then l=$(sacct -n -P -X --name=\"$j\" -o $f 2>/dev/null | tail -n 1); "
    "else l=$(sacct -n -P -X -j \"$j\" -o $f 2>/dev/null | head -n 1); fi; "
    "if [ -n \"$l\" ]; then echo \"sacct $l\"; else echo \"unknown $j\"; fi; done";

static const char slurm_step_sh[] =
    "g=$1; u=$2; f=$3; shift 3; \"$@\"; rc=$?; if [ -n \"$g\" ]; then cd -- \"$u\" && { "
    "\"$g\" freeze --json >\"$f.json.tmp\" 2>\"$f.err\"; echo $? >\"$f.rc\"; "
    "mv -f -- \"$f.json.tmp\" \"$f.json\"; }; fi; exit $rc";

void gp_slurm_step_argv(gp_argv *a, const char *gpuport, const char *up, const char *job_name,
                        char *const cmd[])
{
    gp_argv_push(a, "sh");
    gp_argv_push(a, "-c");
    gp_argv_push(a, slurm_step_sh);
    gp_argv_push(a, "gpuport-step");
    gp_argv_push(a, gpuport ? gpuport : "");
    gp_argv_push(a, up);
    gp_argv_pushf(a, ".gpuport-remote/runs/%s.freeze", job_name);
    for (size_t i = 0; cmd[i]; i++)
        gp_argv_push(a, cmd[i]);
}
