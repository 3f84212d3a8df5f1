/* config.h — the per-user list of remote targets (`gpuport remote add/list/remove`): a small
 * JSON file in the user's config folder. Only the name, the ssh destination, the folder on the
 * remote side, the remote gpuport and, for a Slurm cluster, the job's request live here;
 * everything about ssh itself (keys, ports, jump hosts) stays in the user's ~/.ssh/config. */
#ifndef GP_REMOTE_CONFIG_H
#define GP_REMOTE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define GP_REMOTE_CONFIG_SCHEMA "gpuport.remotes/1"
#define GP_REMOTE_CONFIG_CAP    (1u << 20) /* a list of targets is never near 1 MiB */
#define GP_REMOTE_NAME_MAX      64

/* What a Slurm target asks the scheduler for; each field NULL when not set (the cluster's
 * default applies). The values are checked with gp_remote_slurm_check. */
typedef struct gp_remote_slurm {
    char *partition; /* --partition */
    char *gpus;      /* --gpus: "N" or "TYPE:N" (exclusive with gres) */
    char *gres;      /* --gres: "gpu:N", "gpu:TYPE:N", comma-separated */
    char *time;      /* --time, in Slurm's formats */
    char *account;   /* --account */
    char **args;     /* further srun/sbatch options, each one word "--opt=value" */
    size_t n_args;
} gp_remote_slurm;

typedef struct gp_remote_entry {
    char *name;    /* [A-Za-z0-9][A-Za-z0-9._-]* */
    char *target;  /* ssh destination: host, user@host or an alias of ~/.ssh/config */
    char *path;    /* folder on the remote side; NULL: gpuport/<work tree name> in the home */
    char *gpuport; /* the remote gpuport program; NULL: `gpuport` on the remote PATH */
    gp_remote_slurm *slurm; /* NULL: a machine the command runs on; else the login node of a
                               Slurm cluster, where the command goes through the scheduler */
} gp_remote_entry;

typedef struct gp_remote_config {
    gp_remote_entry *items;
    size_t count;
} gp_remote_config;

/* The file: $GPUPORT_CONFIG_DIR/remotes.json, else $XDG_CONFIG_HOME/gpuport/remotes.json, else
 * ~/.config/gpuport/remotes.json (~/Library/Application Support/gpuport on macOS). Heap string,
 * or NULL with the reason in err. */
char *gp_remote_config_file(char *err, size_t errlen);

/* Parses the file's text; `name` names it in messages. 0, or -1 with "NAME: problem" in err. */
int gp_remote_config_parse(const char *name, const char *text, size_t len, gp_remote_config *cfg,
                           char *err, size_t errlen);
/* Reads `file` (a missing file is an empty list). 0, or -1 with "FILE: problem" in err. */
int gp_remote_config_load(const char *file, gp_remote_config *cfg, char *err, size_t errlen);
/* Writes the list atomically (the folder is created with mode 0700). 0 or -1. */
int gp_remote_config_save(const char *file, const gp_remote_config *cfg, char *err, size_t errlen);
void gp_remote_config_free(gp_remote_config *cfg);

const gp_remote_entry *gp_remote_config_find(const gp_remote_config *cfg, const char *name);
/* Adds a copy of `e` (replacing nothing: the caller checks the name first). 0 or -1 (ENOMEM). */
int gp_remote_config_add(gp_remote_config *cfg, const gp_remote_entry *e);
/* Removes `name`; false when there was none. */
bool gp_remote_config_remove(gp_remote_config *cfg, const char *name);

/* Each returns NULL when the value is acceptable, else the reason, written into `why` (naming
 * the character that is not allowed, where one is the problem). */
const char *gp_remote_name_check(const char *name, char *why, size_t len);
const char *gp_remote_target_check(const char *target, char *why, size_t len);
const char *gp_remote_path_check(const char *path, char *why, size_t len);
/* Checks every field of a Slurm request: NULL, or "--option: reason" in `why`. */
const char *gp_remote_slurm_check(const gp_remote_slurm *s, char *why, size_t len);

/* The `gpuport remote add` command that recreates `e` with --replace, each word shell-quoted,
 * into buf — with option `opt` (say "--time") set to `value` instead of its current value, or
 * added (opt NULL: none changed). For the fixes gpuport suggests. Returns buf. */
const char *gp_remote_add_command(const gp_remote_entry *e, const char *opt, const char *value,
                                  char *buf, size_t len);

#endif
