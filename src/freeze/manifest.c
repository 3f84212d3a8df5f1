/* manifest.c — assembles the gpuport.freeze/1 manifest from the collectors, and reads one back
 * with every field it relies on checked (a manifest is outside data: it may come from anywhere). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "freeze/collect.h"
#include "gp_version.h"
#include "util/json.h"

extern char **environ;

static const char *const env_exact[] = {
    "CUBLAS_WORKSPACE_CONFIG",
    "DYLD_LIBRARY_PATH",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "NVIDIA_TF32_OVERRIDE",
    "NVIDIA_VISIBLE_DEVICES",
    "PYTHONHASHSEED",
    "PYTHONPATH",
    "VECLIB_MAXIMUM_THREADS",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
};
static const char *const env_prefixes[] = {
    "GPUPORT_",
    "CUDA_",
    "CUBLAS",
    "CUDNN_",
    "NCCL_",
    "NVIDIA_TF32",
    "PYTORCH_",
    "TORCH_",
    "OMP_",
    "KMP_",
    "MKL_",
    "OPENBLAS_",
    "GOTO_NUM_THREADS",
    "METAL_",
    "MTL_",
    "JAX_",
    "XLA_",
    "TF_ENABLE_",
    "TF_DETERMINISTIC",
    "TF_CUDNN",
    "TF_GPU",
    "TF_FORCE_GPU",
    "TF_XLA",
    "HIP_",
    "ROCR_",
};

bool gp_freeze_env_is_recorded(const char *name)
{
    for (size_t i = 0; i < sizeof env_exact / sizeof env_exact[0]; i++)
        if (strcmp(name, env_exact[i]) == 0) return true;
    for (size_t i = 0; i < sizeof env_prefixes / sizeof env_prefixes[0]; i++)
        if (strncmp(name, env_prefixes[i], strlen(env_prefixes[i])) == 0) return true;
    return false;
}

cJSON *gp_freeze_unavailable(const char *why)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "available", false);
    cJSON_AddStringToObject(o, "reason", why);
    return o;
}

cJSON *gp_freeze_environment(void)
{
    cJSON *env = cJSON_CreateObject();
    /* Collected into a sorted list first: environ's order is not stable across shells. */
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names) return env;
    size_t k = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq) continue;
        char name[256];
        size_t nl = (size_t)(eq - *e);
        if (nl == 0 || nl >= sizeof name) continue;
        memcpy(name, *e, nl);
        name[nl] = '\0';
        if (gp_freeze_env_is_recorded(name)) names[k++] = *e;
    }
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    for (size_t i = 0; i < k; i++) {
        const char *eq = strchr(names[i], '=');
        char name[256];
        size_t nl = (size_t)(eq - names[i]);
        memcpy(name, names[i], nl);
        name[nl] = '\0';
        cJSON_AddStringToObject(env, name, eq + 1);
    }
    free(names);
    return env;
}

/* Inside a Slurm job: which job, node and GPUs the run had (the scheduler's variables); NULL
 * outside one. */
static cJSON *freeze_slurm(void)
{
    static const char *const vars[][2] = {
        {"job_id", "SLURM_JOB_ID"},
        {"step_id", "SLURM_STEP_ID"},
        {"job_name", "SLURM_JOB_NAME"},
        {"cluster", "SLURM_CLUSTER_NAME"},
        {"partition", "SLURM_JOB_PARTITION"},
        {"node", "SLURMD_NODENAME"},
        {"nodelist", "SLURM_JOB_NODELIST"},
        {"cpus_on_node", "SLURM_CPUS_ON_NODE"},
        {"gpus_on_node", "SLURM_GPUS_ON_NODE"},
        {"job_gpus", "SLURM_JOB_GPUS"},
        {"step_gpus", "SLURM_STEP_GPUS"},
    };
    if (!getenv("SLURM_JOB_ID")) return NULL;
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i][1]);
        if (v) cJSON_AddStringToObject(o, vars[i][0], v);
    }
    return o;
}

cJSON *gp_freeze_collect(const gp_freeze_options *opt, char *err, size_t errlen)
{
    /* Data first: an unreadable data path fails the whole run before anything else is spent. */
    cJSON *data = gp_freeze_data(opt->data_paths, opt->data_count, opt->threads, err, errlen);
    if (!data) return NULL;
    cJSON *mps = gp_freeze_mps(opt->mps_report, err, errlen);
    if (!mps) {
        cJSON_Delete(data);
        return NULL;
    }
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "schema", "gpuport.freeze/1");
    cJSON_AddStringToObject(m, "gpuport", GP_VERSION_STRING);
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(m, "created", when);
    cJSON_AddItemToObject(m, "host", gp_freeze_host());
    cJSON_AddItemToObject(m, "compilers", gp_freeze_compilers());
    cJSON_AddItemToObject(m, "python",
                          opt->no_python ? gp_freeze_unavailable("not collected (--no-python)")
                                         : gp_freeze_python(opt->python));
    cJSON_AddItemToObject(m, "conda", gp_freeze_conda());
    cJSON_AddItemToObject(m, "environment", gp_freeze_environment());
    cJSON *slurm = freeze_slurm();
    if (slurm) cJSON_AddItemToObject(m, "slurm", slurm);
    cJSON_AddItemToObject(m, "git", gp_freeze_git(opt->git_dir));
    cJSON_AddItemToObject(m, "device", gp_freeze_device());
    cJSON_AddItemToObject(m, "mps", mps);
    cJSON_AddItemToObject(m, "data", data);
    cJSON *seeds = cJSON_AddObjectToObject(m, "seeds");
    for (size_t i = 0; i < opt->seed_count; i++)
        cJSON_AddStringToObject(seeds, opt->seeds[i].name, opt->seeds[i].value);
    return m;
}

static int bad(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return -1;
}

static bool is_hex64(const char *s)
{
    if (!s || strlen(s) != 64) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

int gp_freeze_validate_rest(const cJSON *m, char *err, size_t errlen)
{
    if (!cJSON_IsObject(m))
        return bad(err, errlen, "not a gpuport freeze manifest (not a JSON object)");
    const char *schema = gp_json_str(m, "schema", NULL);
    if (!schema) return bad(err, errlen, "not a gpuport freeze manifest (no \"schema\")");
    if (strcmp(schema, "gpuport.freeze/1") != 0) {
        snprintf(err, errlen, "unsupported schema \"%.100s\" (this gpuport reads gpuport.freeze/1)",
                 schema);
        return -1;
    }
    const char *key = NULL;
    if (gp_json_find_duplicate_key(m, &key)) {
        snprintf(err, errlen, "duplicate key \"%.100s\"", key);
        return -1;
    }
    static const char *const objects[] = {"host", "environment", "seeds"};
    for (size_t i = 0; i < 3; i++) {
        if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m, objects[i]))) {
            snprintf(err, errlen, "\"%s\" is missing or not an object", objects[i]);
            return -1;
        }
    }
    static const char *const optional[] = {"compilers", "python", "conda", "git",
                                           "gpu",       "device", "mps"};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(m, optional[i]);
        if (o && !cJSON_IsObject(o) && !cJSON_IsNull(o)) {
            snprintf(err, errlen, "\"%s\" is not an object", optional[i]);
            return -1;
        }
    }
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m, "seeds"))
    {
        if (!cJSON_IsString(s)) {
            snprintf(err, errlen, "seed \"%.100s\" is not a string", s->string);
            return -1;
        }
    }
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m, "environment"))
    {
        if (!cJSON_IsString(s)) {
            snprintf(err, errlen, "environment variable \"%.100s\" is not a string", s->string);
            return -1;
        }
    }
    return 0;
}

int gp_freeze_validate(const cJSON *m, char *err, size_t errlen)
{
    if (gp_freeze_validate_rest(m, err, errlen) != 0) return -1;
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(m, "data");
    if (!cJSON_IsArray(data)) return bad(err, errlen, "\"data\" is missing or not an array");
    int i = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, data)
    {
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(d, "size");
        if (!cJSON_IsObject(d) || !gp_json_str(d, "path", NULL) || !cJSON_IsNumber(size) ||
            size->valuedouble < 0 || !is_hex64(gp_json_str(d, "sha256", NULL))) {
            snprintf(err, errlen,
                     "data[%d] needs \"path\" (string), \"size\" (number >= 0) and \"sha256\" "
                     "(64 lowercase hex digits)",
                     i);
            return -1;
        }
        i++;
    }
    return 0;
}

cJSON *gp_freeze_read(const char *path, char *err, size_t errlen)
{
    cJSON *m = gp_json_parse_file(path, GP_FREEZE_MANIFEST_CAP, err, errlen);
    if (!m) return NULL;
    char why[400];
    if (gp_freeze_validate(m, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        cJSON_Delete(m);
        return NULL;
    }
    return m;
}
