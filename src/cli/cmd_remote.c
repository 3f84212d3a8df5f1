/* cmd_remote.c — `gpuport remote`: named targets (add/list/remove) — machines reached over
 * SSH, or the login node of a Slurm cluster —, a side-by-side doctor, and `run`, the
 * sync → run → fetch → freeze → compare loop over the user's own OpenSSH and rsync (on a
 * cluster the step goes through srun, or sbatch with `status` and `fetch` picking it up later).
 * The pieces live in src/remote/; this file parses arguments and orders the steps. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "remote/cluster.h"
#include "remote/collect.h"
#include "remote/compare.h"
#include "remote/config.h"
#include "remote/doctor.h"
#include "remote/fetch.h"
#include "remote/run.h"
#include "remote/runs.h"
#include "remote/selfexe.h"
#include "remote/shquote.h"
#include "remote/slurm.h"
#include "remote/ssh.h"
#include "remote/sync.h"
#include "remote/worktree.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/sys.h"

#define CMD "remote"

static const char remote_usage[] =
    "usage: gpuport remote add NAME SSH_TARGET [--path DIR] [--gpuport PATH] [--replace]\n"
    "                          [--slurm [--partition P] [--gpus N | --gres gpu:TYPE:N]\n"
    "                           [--time T] [--account A] [--slurm-arg ARG]...]\n"
    "       gpuport remote list [--json]\n"
    "       gpuport remote remove NAME\n"
    "       gpuport remote doctor NAME [--json]\n"
    "       gpuport remote run NAME [--sync] [--env VAR[=VALUE]]... [--fetch GLOB]... [--batch]\n"
    "                          [--compare GLOB [--no-local-run] [--rtol X] [--atol X]\n"
    "                           [--policy FILE]] -- COMMAND [ARG...]\n"
    "       gpuport remote status NAME [JOB] [--json]\n"
    "       gpuport remote fetch NAME JOB [--compare GLOB [--rtol X] [--atol X] [--policy F]]\n"
    "\n"
    "Runs the same step on a GPU server over SSH, or on a compute node of a Slurm cluster\n"
    "through its login node: syncs the git work tree there with rsync (tracked and\n"
    "untracked-not-ignored files; deletions propagated), runs COMMAND in the matching folder\n"
    "with its output streamed live and its exit code returned, fetches the files matching GLOB\n"
    "into remote/NAME/runs/ID/ (remote/NAME/latest points at the last one), records a\n"
    "`gpuport freeze` manifest of both sides and compares outputs with `gpuport compare`.\n"
    "ssh settings (keys, ports, jump hosts) stay in ~/.ssh/config; ssh runs in BatchMode, so\n"
    "key login must work ('ssh TARGET true').\n"
    "\n"
    "  --path DIR        folder on the remote side (default: gpuport/<work tree name> in the "
    "home)\n"
    "  --gpuport PATH    the gpuport program there (default: gpuport on the remote PATH)\n"
    "  --replace         add: replace a target of the same name\n"
    "  --slurm           add: TARGET is a Slurm login node; the step runs on a compute node\n"
    "  --partition P, --gpus N, --gres gpu:TYPE:N, --time T, --account A\n"
    "                    add: what each job asks Slurm for\n"
    "  --slurm-arg ARG   add: one more srun/sbatch option, one word (--qos=high); repeatable\n"
    "  --sync            run: sync the work tree first\n"
    "  --env VAR[=VAL]   run: set VAR there (to VAL, or to its value here); repeatable\n"
    "  --fetch GLOB      run: copy remote files matching GLOB (relative, POSIX sh pattern) back\n"
    "  --batch           run: submit with sbatch, print the job id and return (Slurm)\n"
    "  --compare GLOB    run: also run COMMAND here, fetch GLOB and compare each pair\n"
    "  --no-local-run    run: compare the existing local outputs instead of running COMMAND here\n"
    "  --rtol, --atol, --policy   run, fetch: tolerances for each `gpuport compare`\n"
    "  --json            list, doctor, status: print JSON (schema gpuport.remote/1)\n"
    "\n"
    "Files: the targets live in $GPUPORT_CONFIG_DIR/remotes.json (else the per-user config\n"
    "folder); GPUPORT_SSH_CONFIG names an ssh_config file to use instead of ~/.ssh/config.\n"
    "Exit codes: run returns COMMAND's exit code; 1 a compared pair differs, or a fetched\n"
    "output was not written by this run (an earlier run left it) or is missing; 2 bad input,\n"
    "unknown target, unreachable host or failed login, a request the cluster cannot meet; 3 the\n"
    "connection was lost; 130 interrupted.\n";

typedef struct remote_ctx {
    char *file; /* the config file */
    gp_remote_config cfg;
} remote_ctx;

static int remote_load(remote_ctx *c)
{
    char err[1024];
    memset(c, 0, sizeof *c);
    c->file = gp_remote_config_file(err, sizeof err);
    if (!c->file) return gp_cli_input_error(CMD, "%s", err);
    if (gp_remote_config_load(c->file, &c->cfg, err, sizeof err) != 0) {
        free(c->file);
        c->file = NULL;
        return gp_cli_input_error(CMD, "%s (fix or remove the file)", err);
    }
    return 0;
}

static void remote_unload(remote_ctx *c)
{
    gp_remote_config_free(&c->cfg);
    free(c->file);
}

static const gp_remote_entry *remote_lookup(remote_ctx *c, const char *name)
{
    char why[512], hint[512];
    if (gp_remote_name_check(name, why, sizeof why)) {
        gp_cli_usage_error(CMD, "bad NAME: %s", why);
        return NULL;
    }
    const gp_remote_entry *e = gp_remote_config_find(&c->cfg, name);
    if (!e)
        gp_cli_input_error(CMD, "unknown target '%s': %sadd it with: %s", name,
                           c->cfg.count ? "see 'gpuport remote list', or " : "no targets yet; ",
                           gp_shquote_cmd(hint, sizeof hint, "gpuport", "remote", "add", name,
                                          "SSH_TARGET", NULL));
    return e;
}

static bool remote_wants_help(int argc, char **argv, int *code)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(remote_usage, stdout);
            *code = gp_cli_finish(CMD, GP_EXIT_OK);
            return true;
        }
    }
    return false;
}

/* The options of an action that takes only --json; 0 or the exit code. */
static int remote_json_opt(int argc, char **argv, const char *action, bool *json)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch != 'j') return gp_cli_usage_error(CMD, "%s: unknown option", action);
        *json = true;
    }
    return 0;
}

/* --- add / list / remove --------------------------------------------------------------- */

static int remote_add(int argc, char **argv)
{
    enum { OPT_SLURM = 256, OPT_PART, OPT_GPUS, OPT_GRES, OPT_TIME, OPT_ACCOUNT, OPT_SARG };
    static const struct option opts[] = {{"path", required_argument, NULL, 'p'},
                                         {"gpuport", required_argument, NULL, 'g'},
                                         {"replace", no_argument, NULL, 'r'},
                                         {"slurm", no_argument, NULL, OPT_SLURM},
                                         {"partition", required_argument, NULL, OPT_PART},
                                         {"gpus", required_argument, NULL, OPT_GPUS},
                                         {"gres", required_argument, NULL, OPT_GRES},
                                         {"time", required_argument, NULL, OPT_TIME},
                                         {"account", required_argument, NULL, OPT_ACCOUNT},
                                         {"slurm-arg", required_argument, NULL, OPT_SARG},
                                         {NULL, 0, NULL, 0}};
    gp_remote_entry e = {0};
    gp_remote_slurm sl = {0};
    gp_argv sargs = {0};
    bool replace = false, slurm = false;
    const char *slurm_opt = NULL; /* a Slurm option given, for the error without --slurm */
    int ch, rc = 0;
    char **fields[] = {&sl.partition, &sl.gpus, &sl.gres, &sl.time, &sl.account};
    int idx = 0;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (ch == 'p')
            e.path = optarg;
        else if (ch == 'g')
            e.gpuport = optarg;
        else if (ch == 'r')
            replace = true;
        else if (ch == OPT_SLURM)
            slurm = true;
        else if (ch >= OPT_PART && ch <= OPT_SARG) {
            if (ch == OPT_SARG)
                gp_argv_push(&sargs, optarg);
            else
                *fields[ch - OPT_PART] = optarg;
            slurm_opt = opts[idx].name;
        } else
            rc = gp_cli_usage_error(CMD, "add: unknown option");
    }
    char why[1024];
    const char *bad = NULL;
    if (rc == 0 && argc - optind != 2)
        rc = gp_cli_usage_error(CMD, "add needs NAME and SSH_TARGET");
    if (rc == 0) {
        e.name = argv[optind];
        e.target = argv[optind + 1];
        sl.args = sargs.v;
        sl.n_args = sargs.n;
        if (slurm) e.slurm = &sl;
        if ((bad = gp_remote_name_check(e.name, why, sizeof why)))
            rc = gp_cli_usage_error(CMD, "bad NAME: %s", bad);
        else if ((bad = gp_remote_target_check(e.target, why, sizeof why)))
            rc = gp_cli_usage_error(CMD, "bad SSH_TARGET: %s", bad);
        else if (e.path && (bad = gp_remote_path_check(e.path, why, sizeof why)))
            rc = gp_cli_usage_error(CMD, "bad --path: %s", bad);
        else if (e.gpuport && (bad = gp_remote_path_check(e.gpuport, why, sizeof why)))
            rc = gp_cli_usage_error(CMD, "bad --gpuport: %s", bad);
        else if (slurm_opt && !slurm)
            rc = gp_cli_usage_error(CMD, "--%s goes with --slurm (a Slurm cluster's login node)",
                                    slurm_opt);
        else if (slurm && (bad = gp_remote_slurm_check(&sl, why, sizeof why)))
            rc = gp_cli_usage_error(CMD, "bad %s", bad);
        else if (sargs.failed)
            rc = gp_cli_internal_error(CMD, "out of memory");
    }
    remote_ctx c;
    if (rc == 0) rc = remote_load(&c);
    if (rc) {
        gp_argv_free(&sargs);
        return rc;
    }
    char err[1024];
    if (gp_remote_config_find(&c.cfg, e.name) && !replace) {
        rc = gp_cli_input_error(CMD,
                                "a target named '%s' exists already: remove it first or add "
                                "--replace",
                                e.name);
    } else {
        gp_remote_config_remove(&c.cfg, e.name);
        if (gp_remote_config_add(&c.cfg, &e) != 0)
            rc = gp_cli_internal_error(CMD, "out of memory");
        else if (gp_remote_config_save(c.file, &c.cfg, err, sizeof err) != 0)
            rc = gp_cli_input_error(CMD, "%s", err);
        else
            printf("added %s -> %s%s\n", e.name, e.target, slurm ? " (Slurm cluster)" : "");
    }
    remote_unload(&c);
    gp_argv_free(&sargs);
    return gp_cli_finish(CMD, rc);
}

/* The named fields of a request, in the order `list` shows them. */
static const char *const slurm_keys[5] = {"partition", "gpus", "gres", "time", "account"};

static void slurm_values(const gp_remote_slurm *s, const char *v[5])
{
    v[0] = s->partition, v[1] = s->gpus, v[2] = s->gres, v[3] = s->time, v[4] = s->account;
}

/* "slurm partition=gpu gres=gpu:a100:1 time=30 --qos=high", for `list`. */
static void remote_slurm_text(const gp_remote_slurm *s, gp_strbuf *sb)
{
    const char *v[5];
    slurm_values(s, v);
    gp_strbuf_puts(sb, "slurm");
    for (size_t i = 0; i < 5; i++)
        if (v[i]) gp_strbuf_printf(sb, " %s=%s", slurm_keys[i], v[i]);
    for (size_t i = 0; i < s->n_args; i++) {
        gp_strbuf_putc(sb, ' ');
        gp_shquote_display(sb, s->args[i]);
    }
}

static cJSON *remote_slurm_json(const gp_remote_slurm *s)
{
    cJSON *o = cJSON_CreateObject();
    const char *v[5];
    slurm_values(s, v);
    for (size_t i = 0; i < 5; i++)
        cJSON_AddItemToObject(o, slurm_keys[i],
                              v[i] ? cJSON_CreateString(v[i]) : cJSON_CreateNull());
    cJSON *a = cJSON_AddArrayToObject(o, "args");
    for (size_t i = 0; a && i < s->n_args; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(s->args[i]));
    return o;
}

static int remote_list(int argc, char **argv)
{
    bool json = false;
    int rc = remote_json_opt(argc, argv, "list", &json);
    if (rc) return rc;
    if (optind < argc) return gp_cli_usage_error(CMD, "list takes no arguments");
    remote_ctx c;
    rc = remote_load(&c);
    if (rc) return rc;
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "schema", "gpuport.remote/1");
        cJSON_AddStringToObject(o, "command", "list");
        cJSON_AddStringToObject(o, "config", c.file);
        cJSON *arr = cJSON_AddArrayToObject(o, "remotes");
        for (size_t i = 0; i < c.cfg.count; i++) {
            const gp_remote_entry *e = &c.cfg.items[i];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", e->name);
            cJSON_AddStringToObject(x, "target", e->target);
            if (e->path)
                cJSON_AddStringToObject(x, "path", e->path);
            else
                cJSON_AddNullToObject(x, "path");
            cJSON_AddStringToObject(x, "gpuport", e->gpuport ? e->gpuport : "gpuport");
            if (e->slurm)
                cJSON_AddItemToObject(x, "slurm", remote_slurm_json(e->slurm));
            else
                cJSON_AddNullToObject(x, "slurm");
            cJSON_AddItemToArray(arr, x);
        }
        if (gp_json_print(stdout, o) != 0) rc = gp_cli_internal_error(CMD, "cannot render JSON");
        cJSON_Delete(o);
    } else if (c.cfg.count == 0) {
        printf("no targets (add one with: gpuport remote add NAME SSH_TARGET)\n");
    } else {
        for (size_t i = 0; i < c.cfg.count; i++) {
            const gp_remote_entry *e = &c.cfg.items[i];
            gp_strbuf sl = GP_STRBUF_INIT;
            if (e->slurm) remote_slurm_text(e->slurm, &sl);
            printf("%-16s %-30s %s%s%s%s%s\n", e->name, e->target,
                   e->path ? e->path : "gpuport/<work tree name>", e->gpuport ? "  gpuport=" : "",
                   e->gpuport ? e->gpuport : "", e->slurm ? "  " : "", gp_strbuf_cstr(&sl));
            gp_strbuf_free(&sl);
        }
    }
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

static int remote_remove(int argc, char **argv)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    if (getopt_long(argc, argv, "", opts, NULL) != -1)
        return gp_cli_usage_error(CMD, "remove: unknown option");
    if (argc - optind != 1) return gp_cli_usage_error(CMD, "remove needs NAME");
    remote_ctx c;
    int rc = remote_load(&c);
    if (rc) return rc;
    char err[1024];
    const char *name = argv[optind];
    if (!remote_lookup(&c, name))
        rc = GP_EXIT_USAGE;
    else if (gp_remote_config_remove(&c.cfg, name),
             gp_remote_config_save(c.file, &c.cfg, err, sizeof err) != 0)
        rc = gp_cli_input_error(CMD, "%s", err);
    else
        printf("removed %s\n", name);
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

/* --- shared by doctor, run, status and fetch --------------------------------------------- */

/* "~/x" and "~" mean the home, where ssh starts: they become "x" and "." (the remote shell
 * never sees a tilde, every word is quoted). */
static const char *remote_home_relative(const char *p)
{
    if (strcmp(p, "~") == 0) return ".";
    if (strncmp(p, "~/", 2) == 0) return p[2] ? p + 2 : ".";
    return p;
}

static const char *remote_gpuport(const gp_remote_entry *e)
{
    return remote_home_relative(e->gpuport ? e->gpuport : "gpuport");
}

/* The folder on the remote side: --path, else gpuport/<work tree name>. */
static void remote_dir(const gp_remote_entry *e, const char *wt_name, gp_strbuf *sb)
{
    if (e->path)
        gp_strbuf_puts(sb, remote_home_relative(e->path));
    else
        gp_strbuf_printf(sb, "gpuport/%s", wt_name);
}

static int remote_connect(gp_ssh *s, const gp_remote_entry *e)
{
    char msg[2048];
    gp_proc_interrupt_install();
    int rc = gp_ssh_open(s, e->name, e->target, msg, sizeof msg);
    if (rc != 0) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        gp_ssh_close(s);
    }
    return rc;
}

static int remote_preflight(gp_ssh *s, const gp_remote_entry *e)
{
    char msg[4096];
    int rc = e->slurm ? gp_cluster_preflight(s, e, msg, sizeof msg) : 0;
    if (rc) fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
    return rc;
}

/* --- doctor ---------------------------------------------------------------------------- */

static const char doctor_remote_sh[] = "g=$1; shift; exec \"$g\" \"$@\"";

/* On a compute node: which node, partition and job, then the report. */
static const char doctor_step_sh[] =
    "printf 'node=%s\\npartition=%s\\njob=%s\\n' \"${SLURMD_NODENAME:-$(uname -n)}\" "
    "\"$SLURM_JOB_PARTITION\" \"$SLURM_JOB_ID\"; exec \"$1\" doctor --json";

static cJSON *doctor_local(const char *tmpdir, int *rc)
{
    char *const args[] = {"doctor", "--json", NULL};
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int unknown = 0;
    int code = gp_self_run(tmpdir, args, 4u << 20, &out, &len, &eout, &unknown, why, sizeof why);
    cJSON *j = NULL;
    const char *problem = NULL;
    char err[512];
    if (unknown)
        *rc = gp_cli_input_error(CMD, "doctor: this gpuport has no `doctor`");
    else if (code < 0)
        *rc = gp_cli_internal_error(CMD, "doctor: %s", why);
    else if (code > 1)
        *rc = gp_cli_input_error(CMD, "doctor: `gpuport doctor --json` exited %d here", code);
    else if (!(j = gp_json_parse("gpuport doctor --json (here)", out, len, err, sizeof err)))
        *rc = gp_cli_internal_error(CMD, "%s", err);
    else if ((problem = gp_remote_doctor_check(j)))
        *rc = gp_cli_internal_error(CMD, "gpuport doctor --json (here): %s", problem);
    if (*rc && j) cJSON_Delete(j), j = NULL;
    free(out);
    free(eout);
    return j;
}

/* What the remote `gpuport doctor --json` answered (exit `code`), as a report or an error. */
static cJSON *doctor_answer(gp_ssh *s, const gp_remote_entry *e, int code, const char *out,
                            size_t len, const char *eout, const char *where, int *rc)
{
    char err[512], fix[2048];
    cJSON *j = NULL;
    const char *problem = NULL;
    if (code == 127)
        *rc = gp_cli_input_error(
            CMD,
            "gpuport is not installed %s (no '%s' on the PATH of a non-interactive ssh shell): "
            "build and install it there (scripts/build.sh, then put build/gpuport on the PATH), "
            "or give its path: %s",
            where, remote_gpuport(e),
            gp_remote_add_command(e, "--gpuport", "PATH", fix, sizeof fix));
    else if (code == 2 && eout && strstr(eout, "unknown command"))
        *rc =
            gp_cli_input_error(CMD, "the gpuport on %s has no `doctor`: update it there", s->name);
    else if (code == 255 && !gp_ssh_alive(s)) {
        fprintf(stderr, "gpuport %s: connection to %s lost\n", CMD, s->name);
        *rc = GP_EXIT_INTERNAL;
    } else if (code > 1)
        *rc = gp_cli_input_error(CMD, "`gpuport doctor --json` exited %d %s", code, where);
    else if (!(j = gp_json_parse("gpuport doctor --json (remote)", out, len, err, sizeof err)))
        *rc = gp_cli_input_error(CMD, "%s: %s", s->name, err);
    else if ((problem = gp_remote_doctor_check(j)))
        *rc = gp_cli_input_error(CMD, "gpuport doctor --json on %s: %s (update gpuport there)",
                                 s->name, problem);
    if (*rc && j) cJSON_Delete(j), j = NULL;
    return j;
}

static cJSON *doctor_remote(gp_ssh *s, const gp_remote_entry *e, int *rc)
{
    char *const args[] = {(char *)remote_gpuport(e), "doctor", "--json", NULL};
    char *out = NULL, *eout = NULL, why[512];
    size_t len = 0;
    int code = gp_ssh_script(s, doctor_remote_sh, args, NULL, 4u << 20, &out, &len, &eout, why,
                             sizeof why);
    cJSON *j = NULL;
    char where[256];
    snprintf(where, sizeof where, "on %s", s->name);
    if (code < 0)
        *rc = gp_cli_internal_error(CMD, "%s", why);
    else
        j = doctor_answer(s, e, code, out, len, eout, where, rc);
    free(out);
    free(eout);
    return j;
}

/* "node=..." lines before the report: their values into the fields, *body past them. */
static void doctor_step_header(char *out, char **body, char *node, char *part, char *job,
                               size_t len)
{
    char *p = out;
    char *dst[3] = {node, part, job};
    static const char *const keys[3] = {"node=", "partition=", "job="};
    for (int i = 0; i < 3; i++) {
        dst[i][0] = '\0';
        size_t kl = strlen(keys[i]);
        if (strncmp(p, keys[i], kl) != 0) continue;
        char *nl = strchr(p, '\n');
        size_t n = (size_t)((nl ? nl : p + strlen(p)) - p) - kl;
        snprintf(dst[i], len, "%.*s", (int)n, p + kl);
        for (char *c = dst[i]; *c; c++)
            if ((unsigned char)*c < 0x20) *c = '?';
        p = nl ? nl + 1 : p + strlen(p);
    }
    *body = p;
}

/* On a Slurm target: doctor runs in a job on a compute node of the partition. */
static cJSON *doctor_slurm(gp_ssh *s, const gp_remote_entry *e, char *node, char *part, char *job,
                           size_t len, int *rc)
{
    if ((*rc = remote_preflight(s, e))) return NULL;
    char jname[64], path[4096], msg[2048];
    gp_slurm_job_name(jname, sizeof jname);
    snprintf(path, sizeof path, "%s/doctor-out", s->rundir);
    gp_argv w = {0};
    char *const step[] = {
        "sh", "-c", (char *)doctor_step_sh, "gpuport-doctor", (char *)remote_gpuport(e), NULL};
    gp_slurm_options(e->slurm, &w);
    gp_argv_push(&w, "--");
    for (size_t i = 0; step[i]; i++)
        gp_argv_push(&w, step[i]);
    FILE *f = fopen(path, "w+");
    if (!f || w.failed) {
        if (f) fclose(f);
        gp_argv_free(&w);
        *rc = gp_cli_internal_error(CMD, "%s: %s", path, "cannot create a temporary file");
        return NULL;
    }
    gp_remote_cmd c = {".", "", false, NULL, 0, w.v, jname, "", NULL, NULL};
    fprintf(stderr, "gpuport remote: running doctor in a job on %s\n", e->name);
    int code = gp_remote_run(s, &c, fileno(f), msg, sizeof msg);
    gp_argv_free(&w);
    fclose(f);
    size_t n = 0;
    char err[512];
    char *out = gp_read_file(path, 4u << 20, false, &n, err, sizeof err);
    unlink(path);
    cJSON *j = NULL;
    if (msg[0]) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        *rc = code;
    } else if (!out) {
        *rc = gp_cli_internal_error(CMD, "%s", err);
    } else {
        char *body;
        doctor_step_header(out, &body, node, part, job, len);
        char where[512];
        snprintf(where, sizeof where, "on node %s of %s", node[0] ? node : "?", e->name);
        if (code != 0 && code != 1 && code != 127 && !node[0]) {
            gp_slurm_job jb;
            char *const keys[] = {jname, NULL};
            char why[2048];
            if (gp_cluster_jobs(s, "name", keys, 1, &jb, msg, sizeof msg) == 0 && jb.known &&
                gp_slurm_job_explain(e, &jb, why, sizeof why))
                *rc = gp_cli_input_error(CMD, "%s", why);
            else
                *rc = gp_cli_input_error(CMD,
                                         "the doctor job on %s did not start (srun exited %d; "
                                         "its message is above)",
                                         e->name, code);
        } else {
            j = doctor_answer(s, e, code, body, n - (size_t)(body - out), NULL, where, rc);
        }
    }
    free(out);
    return j;
}

static int remote_doctor(int argc, char **argv)
{
    bool json = false;
    int rc = remote_json_opt(argc, argv, "doctor", &json);
    if (rc) return rc;
    if (argc - optind != 1) return gp_cli_usage_error(CMD, "doctor needs NAME");
    remote_ctx c;
    rc = remote_load(&c);
    if (rc) return rc;
    const gp_remote_entry *e = remote_lookup(&c, argv[optind]);
    gp_ssh s = {0};
    if (!e)
        rc = GP_EXIT_USAGE;
    else
        rc = remote_connect(&s, e);
    cJSON *local = NULL, *remote = NULL;
    char node[256] = "", part[128] = "", job[64] = "";
    if (rc == 0)
        remote = e->slurm ? doctor_slurm(&s, e, node, part, job, sizeof part, &rc)
                          : doctor_remote(&s, e, &rc);
    if (rc == 0) local = doctor_local(s.rundir, &rc);
    if (rc == 0) {
        cJSON *diff = gp_remote_doctor_diff(local, remote);
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "schema", "gpuport.remote/1");
            cJSON_AddStringToObject(o, "command", "doctor");
            cJSON_AddStringToObject(o, "name", e->name);
            cJSON_AddStringToObject(o, "target", e->target);
            if (e->slurm) {
                cJSON *sj = cJSON_AddObjectToObject(o, "slurm");
                cJSON_AddStringToObject(sj, "node", node);
                cJSON_AddStringToObject(sj, "partition", part);
                cJSON_AddStringToObject(sj, "job_id", job);
            }
            cJSON_AddItemToObject(o, "local", cJSON_Duplicate(local, 1));
            cJSON_AddItemToObject(o, "remote", cJSON_Duplicate(remote, 1));
            cJSON_AddItemToObject(o, "differences", diff);
            if (gp_json_print(stdout, o) != 0)
                rc = gp_cli_internal_error(CMD, "cannot render JSON");
            cJSON_Delete(o);
        } else {
            char title[512];
            if (e->slurm) {
                printf("%s: doctor ran on node %s (partition %s, job %s), not on the login node\n",
                       e->name, node, part[0] ? part : "?", job[0] ? job : "?");
                snprintf(title, sizeof title, "%s (node %s)", e->name, node);
            } else {
                snprintf(title, sizeof title, "%s", e->name);
            }
            gp_remote_doctor_print(stdout, title, local, remote, diff);
            cJSON_Delete(diff);
        }
    }
    cJSON_Delete(local);
    cJSON_Delete(remote);
    if (s.rundir) gp_ssh_close(&s);
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

/* --- run ------------------------------------------------------------------------------- */

typedef struct run_opts {
    bool sync, local_run, batch;
    const char *compare;
    gp_remote_compare_opts tol;
    gp_argv env, fetch;
} run_opts;

/* A tolerance must be a number compare takes: checked here so that a typo fails before the
 * remote run, not after it. */
static int run_check_tolerances(const gp_remote_compare_opts *t)
{
    const char *v[2] = {t->rtol, t->atol}, *n[2] = {"--rtol", "--atol"};
    for (int i = 0; i < 2; i++) {
        if (!v[i]) continue;
        char *end;
        double d = strtod(v[i], &end);
        if (!*v[i] || *end || !isfinite(d) || d < 0)
            return gp_cli_usage_error(CMD, "%s takes a non-negative number, not '%s'", n[i], v[i]);
    }
    if (t->policy && !gp_path_is_file(t->policy))
        return gp_cli_usage_error(CMD, "--policy %s: not a readable file", t->policy);
    return 0;
}

/* --env VAR or VAR=VALUE into o->env; 0 or the exit code. */
static int run_env_opt(const char *v, run_opts *o)
{
    size_t n = strcspn(v, "=");
    bool ok = n > 0 && !(v[0] >= '0' && v[0] <= '9');
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        ok = ok && (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9'));
    }
    if (!ok) return gp_cli_usage_error(CMD, "--env '%s': not a variable name", v);
    if (v[n]) {
        gp_argv_push(&o->env, v);
        return 0;
    }
    const char *val = getenv(v);
    if (!val)
        return gp_cli_usage_error(CMD, "--env %s: %s is not set here (give --env %s=VALUE)", v, v,
                                  v);
    gp_argv_pushf(&o->env, "%s=%s", v, val);
    return 0;
}

enum { OPT_RTOL = 300, OPT_ATOL, OPT_POLICY, OPT_BATCH };

static int run_parse(int argc, char **argv, run_opts *o)
{
    static const struct option opts[] = {{"sync", no_argument, NULL, 's'},
                                         {"env", required_argument, NULL, 'e'},
                                         {"fetch", required_argument, NULL, 'f'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"compare", required_argument, NULL, 'c'},
                                         {"no-local-run", no_argument, NULL, 'n'},
                                         {"batch", no_argument, NULL, OPT_BATCH},
                                         {"rtol", required_argument, NULL, OPT_RTOL},
                                         {"atol", required_argument, NULL, OPT_ATOL},
                                         {"policy", required_argument, NULL, OPT_POLICY},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->local_run = true;
    int ch, rc = 0;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 's')
            o->sync = true;
        else if (ch == 'F')
            rc = gp_cli_usage_error(CMD, "--force is gone: each run fetches into a folder of its "
                                         "own (remote/NAME/runs/ID), so nothing is overwritten");
        else if (ch == 'n')
            o->local_run = false;
        else if (ch == OPT_BATCH)
            o->batch = true;
        else if (ch == 'c')
            o->compare = optarg;
        else if (ch == OPT_RTOL)
            o->tol.rtol = optarg;
        else if (ch == OPT_ATOL)
            o->tol.atol = optarg;
        else if (ch == OPT_POLICY)
            o->tol.policy = optarg;
        else if (ch == 'e')
            rc = run_env_opt(optarg, o);
        else if (ch == 'f' && !gp_worktree_path_safe(optarg))
            rc = gp_cli_usage_error(CMD,
                                    "--fetch '%s': a pattern is relative to the remote folder "
                                    "and cannot use '..'",
                                    optarg);
        else if (ch == 'f')
            gp_argv_push(&o->fetch, optarg);
        else
            rc = gp_cli_usage_error(CMD, "run: unknown option");
    }
    if (rc) return rc;
    if (o->compare && !gp_worktree_path_safe(o->compare))
        return gp_cli_usage_error(CMD,
                                  "--compare '%s': a pattern is relative to the current "
                                  "folder and cannot use '..'",
                                  o->compare);
    if (o->compare) gp_argv_push(&o->fetch, o->compare);
    if (!o->compare && !o->local_run)
        return gp_cli_usage_error(CMD, "--no-local-run goes with --compare");
    if (!o->compare && (o->tol.rtol || o->tol.atol || o->tol.policy))
        return gp_cli_usage_error(CMD, "--rtol, --atol and --policy go with --compare");
    if ((rc = run_check_tolerances(&o->tol))) return rc;
    if (o->env.failed || o->fetch.failed) return gp_cli_internal_error(CMD, "out of memory");
    return 0;
}

/* Runs the command here (for --compare), with the same --env settings. */
static int run_local(char **cmd, const run_opts *o)
{
    for (size_t i = 0; i < o->env.n; i++) {
        char *eq = strchr(o->env.v[i], '=');
        *eq = '\0';
        setenv(o->env.v[i], eq + 1, 1);
        *eq = '=';
    }
    fprintf(stderr, "gpuport remote: running the command here too\n");
    fflush(stdout);
    pid_t pid;
    char why[512];
    if (gp_proc_spawn(cmd, -1, -1, -1, &pid, why, sizeof why) != 0) {
        fprintf(stderr, "gpuport remote: cannot run the command here: %s\n", why);
        return 127;
    }
    return gp_proc_wait(pid, NULL, 5.0);
}

static void run_report_code(const gp_remote_entry *e, int code, const gp_slurm_job *job)
{
    char where[512];
    if (job && job->known)
        snprintf(where, sizeof where, "%s (job %s on %s)", e->name, job->id,
                 job->node[0] ? job->node : "no node");
    else
        snprintf(where, sizeof where, "%s", e->name);
    if (code == 127)
        fprintf(stderr,
                "gpuport %s: the command exited 127 on %s: it (or a program it starts) "
                "was not found there; install it or give its full path (a non-interactive "
                "%s may have a shorter PATH than a login)\n",
                CMD, where, e->slurm ? "job" : "ssh shell");
    else if (code != 0)
        fprintf(stderr, "gpuport %s: the command exited %d on %s\n", CMD, code, where);
}

/* What one run is: target, folders, command; and what the steps learn about it. */
typedef struct run_ctx {
    gp_ssh *s;
    const gp_remote_entry *e;
    const gp_worktree *wt;
    const run_opts *o;
    char **cmd;
    const char *dir;  /* the remote folder */
    char up[1024];    /* from the subfolder up to the folder */
    char jname[64];   /* Slurm: srun's job name */
    gp_slurm_job job; /* Slurm: the job's record after the run */
    char started[32]; /* UTC */
    char mark[96];    /* with --fetch: the run's mark on the remote side (gp_remote_cmd) */
    char project[80]; /* the project's id (gp_worktree_project_id) */
} run_ctx;

static void run_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The record of a run (run.json; docs/json.md). */
static cJSON *run_record(const run_ctx *r, const char *id, const char *const *fetch, size_t nf,
                         const char *compare, const gp_remote_compare_opts *tol, bool batch)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", GP_RUN_SCHEMA);
    cJSON_AddStringToObject(o, "id", id);
    cJSON_AddStringToObject(o, "target", r->e->name);
    cJSON_AddStringToObject(o, "kind", r->e->slurm ? "slurm" : "ssh");
    cJSON *c = cJSON_AddArrayToObject(o, "command");
    for (size_t i = 0; r->cmd[i]; i++)
        cJSON_AddItemToArray(c, cJSON_CreateString(r->cmd[i]));
    cJSON_AddStringToObject(o, "folder", r->wt->prefix);
    cJSON_AddStringToObject(o, "remote_folder", r->dir);
    cJSON_AddStringToObject(o, "started", r->started);
    cJSON_AddNullToObject(o, "exit_code");
    if (r->e->slurm) {
        cJSON *j = cJSON_AddObjectToObject(o, "job");
        cJSON_AddStringToObject(j, "id", r->job.known ? r->job.id : "0");
        cJSON_AddStringToObject(j, "name", r->jname);
        cJSON_AddBoolToObject(j, "batch", batch);
        cJSON_AddStringToObject(j, "state", r->job.known ? r->job.state : "SUBMITTED");
        cJSON_AddStringToObject(j, "reason", r->job.reason);
        cJSON_AddStringToObject(j, "node", r->job.node);
        cJSON_AddStringToObject(j, "partition", r->job.partition);
    } else {
        cJSON_AddNullToObject(o, "job");
    }
    cJSON *f = cJSON_AddArrayToObject(o, "fetch");
    for (size_t i = 0; i < nf; i++)
        cJSON_AddItemToArray(f, cJSON_CreateString(fetch[i]));
    cJSON_AddNullToObject(o, "fetched");
    if (compare) {
        cJSON *cm = cJSON_AddObjectToObject(o, "compare");
        cJSON_AddStringToObject(cm, "glob", compare);
        const char *k[3] = {"rtol", "atol", "policy"};
        const char *v[3] = {tol->rtol, tol->atol, tol->policy};
        for (int i = 0; i < 3; i++) {
            if (v[i])
                cJSON_AddStringToObject(cm, k[i], v[i]);
            else
                cJSON_AddNullToObject(cm, k[i]);
        }
    } else {
        cJSON_AddNullToObject(o, "compare");
    }
    return o;
}

static int run_compare(const run_ctx *r, const char *folder, const char *glob,
                       const gp_remote_compare_opts *tol)
{
    char msg[2048];
    gp_strbuf fetched = GP_STRBUF_INIT;
    gp_strbuf_printf(&fetched, "%s/%s", folder, r->wt->prefix);
    int rc = gp_remote_compare(r->s->rundir, glob, gp_strbuf_cstr(&fetched), r->e->name, tol, msg,
                               sizeof msg);
    if (rc == 2) fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
    gp_strbuf_free(&fetched);
    return rc;
}

/* The steps after the command: fetch, freeze, compare. Returns the exit code they add. */
static int run_after(run_ctx *r, int code)
{
    const run_opts *o = r->o;
    gp_strbuf root = GP_STRBUF_INIT;
    gp_strbuf_printf(&root, "%s/remote/%s", r->wt->root, r->e->name);
    char id[128], err[1024], *staging = NULL, *folder = NULL;
    if (gp_run_begin(gp_strbuf_cstr(&root), NULL, id, sizeof id, &staging, err, sizeof err)) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, err);
        gp_strbuf_free(&root);
        return 2;
    }
    cJSON *rec =
        run_record(r, id, (const char *const *)o->fetch.v, o->fetch.n, o->compare, &o->tol, false);
    gp_remote_record_job(rec, &r->job);
    cJSON_ReplaceItemInObjectCaseSensitive(rec, "exit_code", cJSON_CreateNumber(code));
    gp_remote_collect col = {r->s,
                             r->e,
                             remote_gpuport(r->e),
                             r->dir,
                             r->wt->prefix,
                             o->env.v,
                             o->env.n,
                             r->jname,
                             &r->job,
                             false,
                             r->mark[0] ? r->mark : NULL,
                             r->wt->prefix};
    int rc = gp_remote_collect_run(&col, rec, gp_strbuf_cstr(&root), id, staging, o->fetch.v,
                                   o->fetch.n);
    folder = gp_run_folder(gp_strbuf_cstr(&root), id);
    cJSON_Delete(rec);
    /* rc 1: an output was not written by this run; the compare still names each pair */
    if ((rc == 0 || rc == 1) && o->compare && code == 0) {
        int cmp = folder ? run_compare(r, folder, o->compare, &o->tol) : 3;
        if (cmp != 0) rc = cmp;
    } else if (o->compare && code != 0)
        fprintf(stderr, "gpuport %s: compare skipped: the command failed\n", CMD);
    free(staging);
    free(folder);
    gp_strbuf_free(&root);
    return rc;
}

/* After srun: the job's record, and Slurm's reason when the job ended for one of its own. */
static void run_slurm_outcome(run_ctx *r, int code)
{
    char msg[4096];
    char *const keys[] = {r->jname, NULL};
    if (gp_cluster_jobs(r->s, "name", keys, 1, &r->job, msg, sizeof msg) != 0) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        return;
    }
    if (r->job.known && gp_slurm_job_explain(r->e, &r->job, msg, sizeof msg))
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
    else if (!r->job.known && code != 0)
        fprintf(stderr,
                "gpuport %s: srun exited %d before a job existed on %s: its message above says "
                "why\n",
                CMD, code, r->e->name);
    else
        run_report_code(r->e, code, &r->job);
}

/* The command on the remote side (srun on a Slurm target); its exit code, or ours. */
static int run_command(run_ctx *r)
{
    char msg[2048];
    gp_argv w = {0};
    char **argv = r->cmd;
    if (r->e->slurm) {
        gp_slurm_job_name(r->jname, sizeof r->jname);
        gp_cluster_srun_argv(&w, r->e, r->o->fetch.n ? remote_gpuport(r->e) : NULL, r->up, r->jname,
                             r->cmd);
        if (w.failed) {
            gp_argv_free(&w);
            return gp_cli_internal_error(CMD, "out of memory");
        }
        argv = w.v;
    }
    gp_remote_cmd rc = {r->dir,
                        r->wt->prefix,
                        r->o->sync,
                        r->o->env.v,
                        r->o->env.n,
                        argv,
                        r->e->slurm ? r->jname : NULL,
                        r->up,
                        r->mark[0] ? r->mark : NULL,
                        r->project};
    int code = gp_remote_run(r->s, &rc, -1, msg, sizeof msg);
    gp_argv_free(&w);
    if (msg[0]) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        return -code;
    }
    if (r->e->slurm)
        run_slurm_outcome(r, code);
    else
        run_report_code(r->e, code, NULL);
    return code;
}

/* --batch: submit, record the job in its run folder, print its id. */
static int run_batch(run_ctx *r)
{
    char msg[2048], err[1024], id[128];
    gp_slurm_job_name(r->jname, sizeof r->jname);
    char *script = gp_cluster_batch_script(r->e->name, r->o->env.v, r->o->env.n, r->cmd,
                                           remote_gpuport(r->e), r->up);
    gp_strbuf path = GP_STRBUF_INIT;
    gp_strbuf_printf(&path, "%s/job.sh", r->s->rundir);
    gp_argv w = {0};
    gp_slurm_options(r->e->slurm, &w);
    if (!script || path.failed || w.failed ||
        gp_write_file_atomic(gp_strbuf_cstr(&path), script, strlen(script), err, sizeof err)) {
        free(script);
        gp_strbuf_free(&path);
        gp_argv_free(&w);
        return gp_cli_internal_error(CMD, "cannot write the job script");
    }
    free(script);
    /* the mark is the job's name (run.json keeps it): `remote fetch` takes what the job wrote */
    gp_remote_cmd c = {r->dir, r->wt->prefix, r->o->sync, r->o->env.v, r->o->env.n,
                       w.v,    r->jname,      r->up,      r->jname,    r->project};
    char *out = NULL, *eout = NULL;
    int code =
        gp_remote_batch_submit(r->s, &c, gp_strbuf_cstr(&path), &out, &eout, msg, sizeof msg);
    unlink(gp_strbuf_cstr(&path));
    gp_strbuf_free(&path);
    gp_argv_free(&w);
    int rc = 0;
    size_t idl = out ? strspn(out, "0123456789") : 0;
    if (code != 0 || idl == 0 || idl > 20) {
        char *last = eout ? eout : "";
        last[strcspn(last, "\n")] = '\0';
        rc = gp_cli_input_error(CMD, "sbatch on %s failed (exit %d): %s", r->e->name, code,
                                code < 0 ? msg
                                : *last  ? last
                                         : "no message");
    } else {
        out[idl] = '\0';
        snprintf(r->job.id, sizeof r->job.id, "%s", out);
        snprintf(r->job.state, sizeof r->job.state, "SUBMITTED");
        r->job.known = true;
        gp_strbuf root = GP_STRBUF_INIT;
        gp_strbuf_printf(&root, "%s/remote/%s", r->wt->root, r->e->name);
        char suffix[64], *staging = NULL;
        snprintf(suffix, sizeof suffix, "job%s", r->job.id);
        cJSON *rec = NULL;
        if (gp_run_begin(gp_strbuf_cstr(&root), suffix, id, sizeof id, &staging, err, sizeof err) ==
            0) {
            rec = run_record(r, id, (const char *const *)r->o->fetch.v, r->o->fetch.n,
                             r->o->compare, &r->o->tol, true);
            cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "job"),
                                                   "state", cJSON_CreateString("SUBMITTED"));
            if (gp_run_record_write(staging, rec, err, sizeof err) != 0 ||
                gp_run_publish(gp_strbuf_cstr(&root), id, staging, false, err, sizeof err) != 0)
                rc = 2;
        } else {
            rc = 2;
        }
        if (rc)
            fprintf(stderr, "gpuport %s: the job runs, but its record was not kept: %s\n", CMD,
                    err);
        char c1[512], c2[512];
        fprintf(stderr,
                "gpuport remote: submitted job %s to %s; its state: %s; its results, once it has "
                "ended: %s\n",
                r->job.id, r->e->name,
                gp_shquote_cmd(c1, sizeof c1, "gpuport", "remote", "status", r->e->name, r->job.id,
                               NULL),
                gp_shquote_cmd(c2, sizeof c2, "gpuport", "remote", "fetch", r->e->name, r->job.id,
                               NULL));
        printf("%s\n", r->job.id);
        cJSON_Delete(rec);
        free(staging);
        gp_strbuf_free(&root);
    }
    free(out);
    free(eout);
    return rc;
}

static int run_steps(run_ctx *r)
{
    char msg[2048];
    int rc = remote_preflight(r->s, r->e);
    if (rc) return rc;
    if (r->o->sync &&
        (rc = gp_remote_sync(r->s, r->wt, r->dir, r->project, msg, sizeof msg)) != 0) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        return rc;
    }
    if (r->o->batch) return run_batch(r);
    int code = run_command(r);
    if (code < 0) return -code; /* interrupted, or the connection lost */
    if (r->o->compare && r->o->local_run && code == 0) {
        int lc = run_local(r->cmd, r->o);
        if (gp_proc_interrupted())
            code = 128 + gp_proc_interrupted();
        else if (lc != 0) {
            fprintf(stderr, "gpuport %s: the command exited %d here; compare skipped\n", CMD, lc);
            code = lc;
        }
    }
    if (r->o->fetch.n > 0 && code < 128) {
        int after = run_after(r, code);
        if (code == 0) code = after;
    }
    return code;
}

/* Finds the work tree; 0 or the exit code. */
static int remote_worktree(gp_worktree *wt)
{
    char err[1024];
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !gp_path_is_dir(tmp)) tmp = "/tmp";
    if (gp_worktree_find(wt, tmp, err, sizeof err) != 0) return gp_cli_input_error(CMD, "%s", err);
    return 0;
}

static int remote_run_cmd(int argc, char **argv)
{
    run_opts o;
    int rc = run_parse(argc, argv, &o);
    int dash = -1;
    for (int i = 1; i < argc && rc == 0; i++)
        if (strcmp(argv[i], "--") == 0) {
            dash = i;
            break;
        }
    if (rc == 0 && (argc - optind < 2 || dash < 0 || optind > dash + 1 || dash + 1 >= argc))
        rc = gp_cli_usage_error(CMD, "run needs NAME, then -- and the COMMAND");
    remote_ctx c = {0};
    const gp_remote_entry *e = NULL;
    if (rc == 0 && (rc = remote_load(&c)) == 0 && !(e = remote_lookup(&c, argv[optind])))
        rc = GP_EXIT_USAGE;
    if (rc == 0 && o.batch && !e->slurm)
        rc = gp_cli_usage_error(CMD, "--batch needs a Slurm target (add it with --slurm)");
    if (rc == 0 && o.batch && o.local_run && o.compare)
        rc = gp_cli_usage_error(CMD, "--batch with --compare compares the outputs here when the "
                                     "job is fetched: add --no-local-run");
    gp_worktree wt = {0};
    gp_ssh s = {0};
    char project[80] = "", err[1024];
    if (rc == 0) rc = remote_worktree(&wt);
    if (rc == 0 &&
        gp_worktree_project_id(&wt, gp_tmp_dir(), project, sizeof project, err, sizeof err) != 0) {
        project[0] = '\0'; /* a repository we cannot write to: no ownership check, said */
        fprintf(stderr,
                "gpuport %s: warning: %s; the remote folder is not checked for another "
                "project's files\n",
                CMD, err);
    }
    if (rc == 0) rc = remote_connect(&s, e);
    if (rc == 0) {
        /* getopt moved the non-options to the end: NAME, then the command after "--". */
        run_ctx r = {&s, e, &wt, &o, argv + optind + 1, NULL, "", "", {0}, "", "", ""};
        gp_strbuf dir = GP_STRBUF_INIT;
        remote_dir(e, wt.name, &dir);
        r.dir = gp_strbuf_cstr(&dir);
        gp_cluster_up(wt.prefix, r.up, sizeof r.up);
        run_now(r.started, sizeof r.started);
        snprintf(r.project, sizeof r.project, "%s", project);
        if (o.fetch.n > 0) gp_slurm_job_name(r.mark, sizeof r.mark); /* a random name */
        rc = dir.failed ? gp_cli_internal_error(CMD, "out of memory") : run_steps(&r);
        gp_strbuf_free(&dir);
        gp_ssh_close(&s);
    }
    gp_worktree_free(&wt);
    if (c.file) remote_unload(&c);
    gp_argv_free(&o.env);
    gp_argv_free(&o.fetch);
    return gp_cli_finish(CMD, rc);
}

/* --- status and fetch of batch jobs -------------------------------------------------------- */

static bool remote_job_id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n <= 20 && strspn(id, "0123456789") == n;
}

static int remote_status(int argc, char **argv)
{
    bool json = false;
    int rc = remote_json_opt(argc, argv, "status", &json);
    if (rc) return rc;
    if (argc - optind < 1 || argc - optind > 2)
        return gp_cli_usage_error(CMD, "status needs NAME (and a JOB id)");
    const char *want = argc - optind == 2 ? argv[optind + 1] : NULL;
    if (want && !remote_job_id_ok(want))
        return gp_cli_usage_error(CMD, "status: JOB is a job id (digits), not '%s'", want);
    remote_ctx c;
    rc = remote_load(&c);
    if (rc) return rc;
    const gp_remote_entry *e = remote_lookup(&c, argv[optind]);
    char **ids = NULL, **jobs = NULL, err[1024];
    size_t n = 0;
    gp_worktree wt = {0};
    if (!e) {
        rc = GP_EXIT_USAGE;
    } else if (!e->slurm) {
        rc = gp_cli_usage_error(CMD, "status: %s is not a Slurm target", e->name);
    } else if (want) {
        ids = calloc(1, sizeof *ids), jobs = calloc(1, sizeof *jobs);
        if (ids && jobs && (jobs[0] = strdup(want)))
            n = 1;
        else
            rc = gp_cli_internal_error(CMD, "out of memory");
    } else if ((rc = remote_worktree(&wt)) == 0) {
        gp_strbuf root = GP_STRBUF_INIT;
        gp_strbuf_printf(&root, "%s/remote/%s", wt.root, e->name);
        if (gp_run_list_batch(gp_strbuf_cstr(&root), &ids, &jobs, &n, err, sizeof err) != 0)
            rc = gp_cli_input_error(CMD, "%s", err);
        else if (n == 0 && !json)
            printf("no batch jobs of this work tree on %s\n", e->name);
        gp_strbuf_free(&root);
    }
    gp_ssh s = {0};
    gp_slurm_job *rec = n ? calloc(n, sizeof *rec) : NULL;
    if (rc == 0 && n > 0 && !rec) rc = gp_cli_internal_error(CMD, "out of memory");
    if (rc == 0 && n > 0 && (rc = remote_connect(&s, e)) == 0) {
        char msg[2048];
        if ((rc = gp_cluster_jobs(&s, "id", jobs, n, rec, msg, sizeof msg)) != 0)
            fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        gp_ssh_close(&s);
    }
    if (rc == 0) {
        cJSON *o = json ? cJSON_CreateObject() : NULL, *arr = NULL;
        if (o) {
            cJSON_AddStringToObject(o, "schema", "gpuport.remote/1");
            cJSON_AddStringToObject(o, "command", "status");
            cJSON_AddStringToObject(o, "name", e->name);
            arr = cJSON_AddArrayToObject(o, "jobs");
        }
        for (size_t i = 0; i < n; i++) {
            char line[1024], why[4096], cmd[512];
            gp_cluster_job_summary(&rec[i], line, sizeof line);
            bool has_why = rec[i].known && gp_slurm_job_explain(e, &rec[i], why, sizeof why);
            bool ended = rec[i].known && !gp_slurm_job_active(&rec[i]);
            if (o) {
                cJSON *x = cJSON_CreateObject();
                cJSON_AddStringToObject(x, "job_id", jobs[i]);
                if (ids && ids[i])
                    cJSON_AddStringToObject(x, "run", ids[i]);
                else
                    cJSON_AddNullToObject(x, "run");
                cJSON_AddBoolToObject(x, "known", rec[i].known);
                cJSON_AddStringToObject(x, "state", rec[i].known ? rec[i].state : "UNKNOWN");
                cJSON_AddStringToObject(x, "reason", rec[i].reason);
                cJSON_AddStringToObject(x, "node", rec[i].node);
                if (ended)
                    cJSON_AddNumberToObject(x, "exit_code", rec[i].exit_code);
                else
                    cJSON_AddNullToObject(x, "exit_code");
                if (has_why)
                    cJSON_AddStringToObject(x, "problem", why);
                else
                    cJSON_AddNullToObject(x, "problem");
                cJSON_AddItemToArray(arr, x);
                continue;
            }
            printf("job %-10s %s\n", jobs[i], line);
            if (has_why) printf("  %s\n", why);
            if (ended)
                printf("  its results: %s\n", gp_shquote_cmd(cmd, sizeof cmd, "gpuport", "remote",
                                                             "fetch", e->name, jobs[i], NULL));
            if (want && !rec[i].known) rc = GP_EXIT_USAGE;
        }
        if (o) {
            if (gp_json_print(stdout, o) != 0)
                rc = gp_cli_internal_error(CMD, "cannot render JSON");
            cJSON_Delete(o);
        }
    }
    free(rec);
    gp_run_list_free(ids, jobs, n ? n : (ids || jobs ? 1 : 0));
    gp_worktree_free(&wt);
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

/* The run folder whose record names batch job `job`: its id into `id`; 0 or the exit code. */
static int fetch_find_run(const char *root, const char *name, const char *job, char *id,
                          size_t idlen)
{
    char **ids = NULL, **jobs = NULL, err[1024];
    size_t n = 0;
    if (gp_run_list_batch(root, &ids, &jobs, &n, err, sizeof err) != 0)
        return gp_cli_input_error(CMD, "%s", err);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++)
        if (strcmp(jobs[i], job) == 0) {
            snprintf(id, idlen, "%s", ids[i]);
            found = true;
        }
    gp_run_list_free(ids, jobs, n);
    if (found) return 0;
    return gp_cli_input_error(CMD,
                              "no batch job %s of this work tree on %s (remote/%s/runs/ holds a "
                              "folder per job submitted with 'gpuport remote run %s --batch')",
                              job, name, name, name);
}

static int remote_fetch_cmd(int argc, char **argv)
{
    static const struct option opts[] = {{"compare", required_argument, NULL, 'c'},
                                         {"rtol", required_argument, NULL, OPT_RTOL},
                                         {"atol", required_argument, NULL, OPT_ATOL},
                                         {"policy", required_argument, NULL, OPT_POLICY},
                                         {NULL, 0, NULL, 0}};
    gp_remote_compare_opts tol = {0};
    const char *compare = NULL;
    int ch, rc = 0;
    while (rc == 0 && (ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'c')
            compare = optarg;
        else if (ch == OPT_RTOL)
            tol.rtol = optarg;
        else if (ch == OPT_ATOL)
            tol.atol = optarg;
        else if (ch == OPT_POLICY)
            tol.policy = optarg;
        else
            rc = gp_cli_usage_error(CMD, "fetch: unknown option");
    }
    if (rc) return rc;
    if (argc - optind != 2) return gp_cli_usage_error(CMD, "fetch needs NAME and JOB");
    const char *want = argv[optind + 1];
    if (!remote_job_id_ok(want))
        return gp_cli_usage_error(CMD, "fetch: JOB is a job id (digits), not '%s'", want);
    if (compare && !gp_worktree_path_safe(compare))
        return gp_cli_usage_error(CMD, "--compare '%s': a relative pattern without '..'", compare);
    if ((rc = run_check_tolerances(&tol))) return rc;
    remote_ctx c;
    if ((rc = remote_load(&c))) return rc;
    const gp_remote_entry *e = remote_lookup(&c, argv[optind]);
    gp_worktree wt = {0};
    gp_strbuf root = GP_STRBUF_INIT;
    char id[128] = "", err[1024];
    cJSON *rec = NULL;
    if (!e)
        rc = GP_EXIT_USAGE;
    else if (!e->slurm)
        rc = gp_cli_usage_error(CMD, "fetch: %s is not a Slurm target", e->name);
    else if ((rc = remote_worktree(&wt)) == 0) {
        gp_strbuf_printf(&root, "%s/remote/%s", wt.root, e->name);
        rc = fetch_find_run(gp_strbuf_cstr(&root), e->name, want, id, sizeof id);
    }
    if (rc == 0) {
        gp_strbuf f = GP_STRBUF_INIT;
        gp_strbuf_printf(&f, "%s/runs/%s/run.json", gp_strbuf_cstr(&root), id);
        if (!(rec = gp_run_record_read(gp_strbuf_cstr(&f), err, sizeof err)))
            rc = gp_cli_input_error(CMD, "%s", err);
        gp_strbuf_free(&f);
    }
    gp_ssh s = {0};
    if (rc == 0) rc = remote_connect(&s, e);
    if (rc == 0) {
        /* The run as it was submitted: its folders and command come from its record. */
        gp_worktree sub = wt;
        sub.prefix = (char *)gp_json_str(rec, "folder", "");
        gp_argv cmdv = {0}, globs = {0};
        const cJSON *x;
        cJSON_ArrayForEach(x,
                           cJSON_GetObjectItemCaseSensitive(rec, "command")) if (cJSON_IsString(x))
            gp_argv_push(&cmdv, x->valuestring);
        if (!cmdv.v) gp_argv_push(&cmdv, "?");
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(rec, "fetch"))
            gp_argv_push(&globs, x->valuestring);
        const cJSON *cm = cJSON_GetObjectItemCaseSensitive(rec, "compare");
        if (!compare && cJSON_IsObject(cm)) {
            compare = gp_json_str(cm, "glob", NULL);
            if (!tol.rtol) tol.rtol = gp_json_str(cm, "rtol", NULL);
            if (!tol.atol) tol.atol = gp_json_str(cm, "atol", NULL);
            if (!tol.policy) tol.policy = gp_json_str(cm, "policy", NULL);
        }
        if (compare) {
            bool have = false;
            for (size_t i = 0; i < globs.n; i++)
                have = have || strcmp(globs.v[i], compare) == 0;
            if (!have) gp_argv_push(&globs, compare);
        }
        run_ctx r = {&s, e,  &sub, NULL, cmdv.v, gp_json_str(rec, "remote_folder", "."),
                     "", "", {0},  "",   "",     ""};
        const cJSON *job = cJSON_GetObjectItemCaseSensitive(rec, "job");
        snprintf(r.jname, sizeof r.jname, "%s", gp_json_str(job, "name", ""));
        char msg[4096];
        char *const keys[] = {(char *)want, NULL};
        if ((rc = gp_cluster_jobs(&s, "id", keys, 1, &r.job, msg, sizeof msg)) != 0) {
            fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        } else if (r.job.known && gp_slurm_job_active(&r.job)) {
            char line[512], cmd[512];
            rc = gp_cli_input_error(CMD, "job %s has not ended: %s; see: %s", want,
                                    gp_cluster_job_summary(&r.job, line, sizeof line),
                                    gp_shquote_cmd(cmd, sizeof cmd, "gpuport", "remote", "status",
                                                   e->name, want, NULL));
        } else {
            if (!r.job.known) { /* forgotten by the cluster: what the job left is still there */
                snprintf(r.job.id, sizeof r.job.id, "%s", want);
                r.job.known = true;
                snprintf(r.job.state, sizeof r.job.state, "UNKNOWN");
            }
            char *staging = NULL, *folder = NULL;
            if (gp_run_restage(gp_strbuf_cstr(&root), id, &staging, err, sizeof err)) {
                rc = gp_cli_input_error(CMD, "%s", err);
            } else {
                gp_remote_record_job(rec, &r.job);
                bool ended_ok = strcmp(r.job.state, "UNKNOWN") != 0;
                int code = r.job.exit_code ? r.job.exit_code
                                           : (r.job.exit_signal ? 128 + r.job.exit_signal : 0);
                cJSON_ReplaceItemInObjectCaseSensitive(
                    rec, "exit_code", ended_ok ? cJSON_CreateNumber(code) : cJSON_CreateNull());
                gp_remote_collect col = {&s,
                                         e,
                                         remote_gpuport(e),
                                         r.dir,
                                         sub.prefix,
                                         NULL,
                                         0,
                                         r.jname,
                                         &r.job,
                                         true,
                                         r.jname[0] ? r.jname : NULL,
                                         wt.prefix};
                rc = gp_remote_collect_run(&col, rec, gp_strbuf_cstr(&root), id, staging, globs.v,
                                           globs.n);
                folder = gp_run_folder(gp_strbuf_cstr(&root), id);
                char up[1024];
                gp_remote_up(wt.prefix, up, sizeof up);
                fprintf(stderr,
                        "gpuport remote: job %s: %s; its output: %sremote/%s/runs/%s/job-%s.out\n",
                        want,
                        ended_ok ? gp_cluster_job_summary(&r.job, msg, sizeof msg)
                                 : "the cluster no longer knows it (its outcome is unknown); "
                                   "fetched what it left",
                        up, e->name, id, want);
                char why[4096];
                if (gp_slurm_job_explain(e, &r.job, why, sizeof why) && ended_ok)
                    fprintf(stderr, "gpuport %s: %s\n", CMD, why);
                if (rc == 0 && code != 0) rc = code;
                if ((rc == 0 || rc == 1) && compare && folder) {
                    int cmp = run_compare(&r, folder, compare, &tol);
                    if (cmp != 0) rc = cmp;
                }
            }
            free(staging);
            free(folder);
        }
        gp_argv_free(&cmdv);
        gp_argv_free(&globs);
        gp_ssh_close(&s);
    }
    cJSON_Delete(rec);
    gp_strbuf_free(&root);
    gp_worktree_free(&wt);
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

static int remote_main(int argc, char **argv)
{
    int code;
    if (argc < 2) {
        fputs(remote_usage, stderr);
        return GP_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0) return gp_cli_finish(CMD, gp_cli_print_version());
    if (remote_wants_help(argc, argv, &code)) return code;
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } subs[] = {{"add", remote_add},        {"list", remote_list},   {"remove", remote_remove},
                {"doctor", remote_doctor},  {"run", remote_run_cmd}, {"status", remote_status},
                {"fetch", remote_fetch_cmd}};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (strcmp(argv[1], subs[i].name) == 0) {
            gp_cli_getopt_reset();
            return subs[i].fn(argc - 1, argv + 1);
        }
    }
    return gp_cli_usage_error(
        CMD, "unknown action '%s' (add, list, remove, doctor, run, status, fetch)", argv[1]);
}

const gp_command gp_cmd_remote = {
    "remote",
    "run the same step on a GPU server over SSH or on a Slurm cluster, fetch the results, compare",
    remote_main};
