/* cmd_remote.c — `gpuport remote`: named SSH targets (add/list/remove), a side-by-side doctor,
 * and `run`, the sync → run → fetch → freeze → compare loop over the user's own OpenSSH and
 * rsync. The pieces live in src/remote/; this file parses arguments and orders the steps. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "remote/compare.h"
#include "remote/config.h"
#include "remote/doctor.h"
#include "remote/fetch.h"
#include "remote/run.h"
#include "remote/selfexe.h"
#include "remote/ssh.h"
#include "remote/sync.h"
#include "remote/worktree.h"
#include "util/fs.h"
#include "util/json.h"

#define CMD "remote"

static const char remote_usage[] =
    "usage: gpuport remote add NAME SSH_TARGET [--path DIR] [--gpuport PATH] [--replace]\n"
    "       gpuport remote list [--json]\n"
    "       gpuport remote remove NAME\n"
    "       gpuport remote doctor NAME [--json]\n"
    "       gpuport remote run NAME [--sync] [--env VAR[=VALUE]]... [--fetch GLOB]... [--force]\n"
    "                          [--compare GLOB [--no-local-run]] -- COMMAND [ARG...]\n"
    "\n"
    "Runs the same step on a GPU server over SSH: syncs the git work tree there with rsync\n"
    "(tracked and untracked-not-ignored files; deletions propagated), runs COMMAND in the\n"
    "matching folder with its output streamed live and its exit code returned, fetches the\n"
    "files matching GLOB into remote/NAME/, records a `gpuport freeze` manifest of both sides\n"
    "and compares outputs with `gpuport compare`. ssh settings (keys, ports, jump hosts) stay in\n"
    "~/.ssh/config; ssh runs in BatchMode, so key login must work ('ssh TARGET true').\n"
    "\n"
    "  --path DIR        folder on the remote side (default: gpuport/<work tree name> in the "
    "home)\n"
    "  --gpuport PATH    the gpuport program there (default: gpuport on the remote PATH)\n"
    "  --replace         add: replace a target of the same name\n"
    "  --sync            run: sync the work tree first\n"
    "  --env VAR[=VAL]   run: set VAR there (to VAL, or to its value here); repeatable\n"
    "  --fetch GLOB      run: copy remote files matching GLOB (relative, POSIX sh pattern) back\n"
    "  --force           run: let the fetch replace local files in remote/NAME/\n"
    "  --compare GLOB    run: also run COMMAND here, fetch GLOB and compare each pair\n"
    "  --no-local-run    run: compare the existing local outputs instead of running COMMAND here\n"
    "  --json            list, doctor: print JSON (schema gpuport.remote/1)\n"
    "\n"
    "Files: the targets live in $GPUPORT_CONFIG_DIR/remotes.json (else the per-user config\n"
    "folder); GPUPORT_SSH_CONFIG names an ssh_config file to use instead of ~/.ssh/config.\n"
    "Exit codes: run returns COMMAND's exit code; 2 bad input, unknown target, unreachable host\n"
    "or failed login, refused fetch; 3 the connection was lost; 130 interrupted.\n";

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
    const gp_remote_entry *e = gp_remote_config_find(&c->cfg, name);
    if (!e) {
        if (c->cfg.count == 0)
            gp_cli_input_error(CMD,
                               "unknown target '%s': no targets yet; add one with "
                               "'gpuport remote add %s SSH_TARGET'",
                               name, name);
        else
            gp_cli_input_error(CMD,
                               "unknown target '%s': see 'gpuport remote list', or add it "
                               "with 'gpuport remote add %s SSH_TARGET'",
                               name, name);
    }
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

/* --- add / list / remove --------------------------------------------------------------- */

static int remote_add(int argc, char **argv)
{
    static const struct option opts[] = {{"path", required_argument, NULL, 'p'},
                                         {"gpuport", required_argument, NULL, 'g'},
                                         {"replace", no_argument, NULL, 'r'},
                                         {NULL, 0, NULL, 0}};
    gp_remote_entry e = {0};
    bool replace = false;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'p')
            e.path = optarg;
        else if (ch == 'g')
            e.gpuport = optarg;
        else if (ch == 'r')
            replace = true;
        else
            return gp_cli_usage_error(CMD, "add: unknown option");
    }
    if (argc - optind != 2) return gp_cli_usage_error(CMD, "add needs NAME and SSH_TARGET");
    e.name = argv[optind];
    e.target = argv[optind + 1];
    const char *why = gp_remote_name_check(e.name);
    if (why) return gp_cli_usage_error(CMD, "bad name '%s': %s", e.name, why);
    if ((why = gp_remote_target_check(e.target)))
        return gp_cli_usage_error(CMD, "bad SSH_TARGET '%s': %s", e.target, why);
    if (e.path && (why = gp_remote_path_check(e.path)))
        return gp_cli_usage_error(CMD, "bad --path: %s", why);
    if (e.gpuport && (why = gp_remote_path_check(e.gpuport)))
        return gp_cli_usage_error(CMD, "bad --gpuport: %s", why);
    remote_ctx c;
    int rc = remote_load(&c);
    if (rc) return rc;
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
            printf("added %s -> %s\n", e.name, e.target);
    }
    remote_unload(&c);
    return gp_cli_finish(CMD, rc);
}

static int remote_list(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    bool json = false;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'j')
            json = true;
        else
            return gp_cli_usage_error(CMD, "list: unknown option");
    }
    if (optind < argc) return gp_cli_usage_error(CMD, "list takes no arguments");
    remote_ctx c;
    int rc = remote_load(&c);
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
            cJSON_AddItemToArray(arr, x);
        }
        if (gp_json_print(stdout, o) != 0) rc = gp_cli_internal_error(CMD, "cannot render JSON");
        cJSON_Delete(o);
    } else if (c.cfg.count == 0) {
        printf("no targets (add one with 'gpuport remote add NAME SSH_TARGET')\n");
    } else {
        for (size_t i = 0; i < c.cfg.count; i++) {
            const gp_remote_entry *e = &c.cfg.items[i];
            printf("%-16s %-30s %s%s%s\n", e->name, e->target,
                   e->path ? e->path : "gpuport/<work tree name>", e->gpuport ? "  gpuport=" : "",
                   e->gpuport ? e->gpuport : "");
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

/* --- shared by doctor and run ------------------------------------------------------------ */

/* "~/x" and "~" mean the home, where ssh starts: they become "x" and "." (the remote shell
 * never sees a tilde, every word is quoted). */
static const char *remote_home_relative(const char *p)
{
    if (strcmp(p, "~") == 0) return ".";
    if (strncmp(p, "~/", 2) == 0) return p[2] ? p + 2 : ".";
    return p;
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

/* --- doctor ---------------------------------------------------------------------------- */

static const char doctor_remote_sh[] = "g=$1; shift; exec \"$g\" \"$@\"";

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

static cJSON *doctor_remote(gp_ssh *s, const char *gpuport, int *rc)
{
    char *const args[] = {(char *)gpuport, "doctor", "--json", NULL};
    char *out = NULL, *eout = NULL, why[512], err[512];
    size_t len = 0;
    int code = gp_ssh_script(s, doctor_remote_sh, args, NULL, 4u << 20, &out, &len, &eout, why,
                             sizeof why);
    cJSON *j = NULL;
    const char *problem = NULL;
    if (code == 127)
        *rc = gp_cli_input_error(
            CMD,
            "gpuport is not installed on %s (no '%s' on the PATH of a non-interactive ssh "
            "shell): build and install it there (scripts/build.sh, then put build/gpuport "
            "on the PATH), or give its path with 'gpuport remote add %s %s --gpuport PATH "
            "--replace'",
            s->name, gpuport, s->name, s->target);
    else if (code == 2 && eout && strstr(eout, "unknown command"))
        *rc =
            gp_cli_input_error(CMD, "the gpuport on %s has no `doctor`: update it there", s->name);
    else if (code < 0)
        *rc = gp_cli_internal_error(CMD, "%s", why);
    else if (code == 255 && !gp_ssh_alive(s)) {
        fprintf(stderr, "gpuport %s: connection to %s lost\n", CMD, s->name);
        *rc = GP_EXIT_INTERNAL;
    } else if (code > 1)
        *rc = gp_cli_input_error(CMD, "`gpuport doctor --json` exited %d on %s", code, s->name);
    else if (!(j = gp_json_parse("gpuport doctor --json (remote)", out, len, err, sizeof err)))
        *rc = gp_cli_input_error(CMD, "%s: %s", s->name, err);
    else if ((problem = gp_remote_doctor_check(j)))
        *rc = gp_cli_input_error(CMD, "gpuport doctor --json on %s: %s (update gpuport there)",
                                 s->name, problem);
    if (*rc && j) cJSON_Delete(j), j = NULL;
    free(out);
    free(eout);
    return j;
}

static int remote_doctor(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
    bool json = false;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'j')
            json = true;
        else
            return gp_cli_usage_error(CMD, "doctor: unknown option");
    }
    if (argc - optind != 1) return gp_cli_usage_error(CMD, "doctor needs NAME");
    remote_ctx c;
    int rc = remote_load(&c);
    if (rc) return rc;
    const gp_remote_entry *e = remote_lookup(&c, argv[optind]);
    gp_ssh s = {0};
    if (!e)
        rc = GP_EXIT_USAGE;
    else
        rc = remote_connect(&s, e);
    cJSON *local = NULL, *remote = NULL;
    if (rc == 0)
        remote = doctor_remote(&s, remote_home_relative(e->gpuport ? e->gpuport : "gpuport"), &rc);
    if (rc == 0) local = doctor_local(s.rundir, &rc);
    if (rc == 0) {
        cJSON *diff = gp_remote_doctor_diff(local, remote);
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "schema", "gpuport.remote/1");
            cJSON_AddStringToObject(o, "command", "doctor");
            cJSON_AddStringToObject(o, "name", e->name);
            cJSON_AddStringToObject(o, "target", e->target);
            cJSON_AddItemToObject(o, "local", cJSON_Duplicate(local, 1));
            cJSON_AddItemToObject(o, "remote", cJSON_Duplicate(remote, 1));
            cJSON_AddItemToObject(o, "differences", diff);
            if (gp_json_print(stdout, o) != 0)
                rc = gp_cli_internal_error(CMD, "cannot render JSON");
            cJSON_Delete(o);
        } else {
            gp_remote_doctor_print(stdout, e->name, local, remote, diff);
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
    bool sync, force, local_run;
    const char *compare;
    gp_argv env, fetch;
} run_opts;

static int run_parse(int argc, char **argv, run_opts *o)
{
    static const struct option opts[] = {{"sync", no_argument, NULL, 's'},
                                         {"env", required_argument, NULL, 'e'},
                                         {"fetch", required_argument, NULL, 'f'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"compare", required_argument, NULL, 'c'},
                                         {"no-local-run", no_argument, NULL, 'n'},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->local_run = true;
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 's')
            o->sync = true;
        else if (ch == 'F')
            o->force = true;
        else if (ch == 'n')
            o->local_run = false;
        else if (ch == 'c')
            o->compare = optarg;
        else if (ch == 'f' || ch == 'e') {
            const char *v = optarg;
            if (ch == 'f' && !gp_worktree_path_safe(v))
                return gp_cli_usage_error(CMD,
                                          "--fetch '%s': a pattern is relative to the "
                                          "remote folder and cannot use '..'",
                                          v);
            if (ch == 'e') {
                size_t n = strcspn(v, "=");
                bool ok = n > 0 && !(v[0] >= '0' && v[0] <= '9');
                for (size_t i = 0; i < n; i++) {
                    char c = v[i];
                    ok = ok && (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                (c >= '0' && c <= '9'));
                }
                if (!ok) return gp_cli_usage_error(CMD, "--env '%s': not a variable name", v);
                if (!v[n]) {
                    const char *val = getenv(v);
                    if (!val)
                        return gp_cli_usage_error(CMD,
                                                  "--env %s: %s is not set here (give "
                                                  "--env %s=VALUE)",
                                                  v, v, v);
                    gp_argv_pushf(&o->env, "%s=%s", v, val);
                    continue;
                }
            }
            gp_argv_push(ch == 'f' ? &o->fetch : &o->env, v);
        } else
            return gp_cli_usage_error(CMD, "run: unknown option");
    }
    if (o->compare && !gp_worktree_path_safe(o->compare))
        return gp_cli_usage_error(CMD,
                                  "--compare '%s': a pattern is relative to the current "
                                  "folder and cannot use '..'",
                                  o->compare);
    if (o->compare) gp_argv_push(&o->fetch, o->compare);
    if (!o->compare && !o->local_run)
        return gp_cli_usage_error(CMD, "--no-local-run goes with --compare");
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

static void run_report_code(const char *name, int code)
{
    if (code == 127)
        fprintf(stderr,
                "gpuport %s: the command exited 127 on %s: it (or a program it starts) "
                "was not found there; install it or give its full path (a non-interactive "
                "ssh shell may have a shorter PATH than a login)\n",
                CMD, name);
    else if (code != 0)
        fprintf(stderr, "gpuport %s: the command exited %d on %s\n", CMD, code, name);
}

/* The steps after the command: fetch, freeze, compare. Returns the exit code they add. */
static int run_after(gp_ssh *s, const gp_remote_entry *e, const gp_worktree *wt, const char *dir,
                     const run_opts *o, int code)
{
    char msg[2048];
    gp_strbuf root = GP_STRBUF_INIT;
    gp_strbuf_printf(&root, "%s/remote/%s", wt->root, e->name);
    gp_remote_fetch_job job = {dir,        wt->prefix, o->fetch.v,
                               o->fetch.n, o->force,   gp_strbuf_cstr(&root)};
    size_t n = 0;
    int rc = gp_remote_fetch(s, &job, &n, msg, sizeof msg);
    if (rc != 0) fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
    if (rc == 0)
        gp_remote_freeze(s, remote_home_relative(e->gpuport ? e->gpuport : "gpuport"), dir,
                         gp_strbuf_cstr(&root), o->force);
    if (rc == 0 && o->compare && code == 0) {
        gp_strbuf fetched = GP_STRBUF_INIT;
        gp_strbuf_printf(&fetched, "%s/%s", gp_strbuf_cstr(&root), wt->prefix);
        rc = gp_remote_compare(s->rundir, o->compare, gp_strbuf_cstr(&fetched), e->name, msg,
                               sizeof msg);
        if (rc == 2) fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        gp_strbuf_free(&fetched);
    } else if (o->compare && code != 0) {
        fprintf(stderr, "gpuport %s: compare skipped: the command failed\n", CMD);
    }
    gp_strbuf_free(&root);
    return rc;
}

static int run_steps(gp_ssh *s, const gp_remote_entry *e, const gp_worktree *wt, const run_opts *o,
                     char **cmd)
{
    char msg[2048];
    gp_strbuf dirb = GP_STRBUF_INIT;
    if (e->path)
        gp_strbuf_puts(&dirb, remote_home_relative(e->path));
    else
        gp_strbuf_printf(&dirb, "gpuport/%s", wt->name);
    const char *dir = gp_strbuf_cstr(&dirb);
    int rc = 0;
    if (o->sync && (rc = gp_remote_sync(s, wt, dir, msg, sizeof msg)) != 0) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        gp_strbuf_free(&dirb);
        return rc;
    }
    gp_remote_cmd rcmd = {dir, wt->prefix, o->sync, o->env.v, o->env.n, cmd};
    int code = gp_remote_run(s, &rcmd, msg, sizeof msg);
    if (msg[0]) {
        fprintf(stderr, "gpuport %s: %s\n", CMD, msg);
        gp_strbuf_free(&dirb);
        return code;
    }
    run_report_code(e->name, code);
    if (o->compare && o->local_run && code == 0) {
        int lc = run_local(cmd, o);
        if (gp_proc_interrupted())
            code = 128 + gp_proc_interrupted();
        else if (lc != 0) {
            fprintf(stderr, "gpuport %s: the command exited %d here; compare skipped\n", CMD, lc);
            code = lc;
        }
    }
    if (o->fetch.n > 0 && code < 128) {
        int after = run_after(s, e, wt, dir, o, code);
        if (code == 0) code = after;
    }
    gp_strbuf_free(&dirb);
    return code;
}

static int remote_run_cmd(int argc, char **argv)
{
    run_opts o;
    int rc = run_parse(argc, argv, &o);
    if (rc) {
        gp_argv_free(&o.env);
        gp_argv_free(&o.fetch);
        return rc;
    }
    int dash = -1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dash = i;
            break;
        }
    if (argc - optind < 2 || dash < 0 || optind > dash + 1 || dash + 1 >= argc) {
        gp_argv_free(&o.env);
        gp_argv_free(&o.fetch);
        return gp_cli_usage_error(CMD, "run needs NAME, then -- and the COMMAND");
    }
    /* getopt moved the non-options to the end: NAME, then the command after "--". */
    const char *name = argv[optind];
    char **cmd = argv + optind + 1;
    remote_ctx c;
    rc = remote_load(&c);
    const gp_remote_entry *e = rc ? NULL : remote_lookup(&c, name);
    gp_worktree wt = {0};
    gp_ssh s = {0};
    char err[1024];
    if (!rc && !e) rc = GP_EXIT_USAGE;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !gp_path_is_dir(tmp)) tmp = "/tmp";
    if (!rc && gp_worktree_find(&wt, tmp, err, sizeof err) != 0)
        rc = gp_cli_input_error(CMD, "%s", err);
    if (!rc) rc = remote_connect(&s, e);
    if (!rc) {
        rc = run_steps(&s, e, &wt, &o, cmd);
        gp_ssh_close(&s);
    }
    gp_worktree_free(&wt);
    if (c.file) remote_unload(&c);
    gp_argv_free(&o.env);
    gp_argv_free(&o.fetch);
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
    } subs[] = {{"add", remote_add},
                {"list", remote_list},
                {"remove", remote_remove},
                {"doctor", remote_doctor},
                {"run", remote_run_cmd}};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (strcmp(argv[1], subs[i].name) == 0) {
            gp_cli_getopt_reset();
            return subs[i].fn(argc - 1, argv + 1);
        }
    }
    return gp_cli_usage_error(CMD, "unknown action '%s' (add, list, remove, doctor, run)", argv[1]);
}

const gp_command gp_cmd_remote = {
    "remote", "run the same step on a GPU server over SSH, fetch the results, compare",
    remote_main};
