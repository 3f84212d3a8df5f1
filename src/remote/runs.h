/* runs.h — where a run's results live on this side: one folder per run,
 * remote/NAME/runs/ID/ (the fetched files under their paths, both freeze manifests, run.json),
 * and remote/NAME/latest, a symbolic link to the folder of the last run that fetched. A run is
 * staged in runs/.ID.partial and renamed into place when it is done, so a run never writes into
 * another's folder: a rerun is never refused, and nothing of an earlier run passes for this
 * one's. A batch job's folder holds its run.json from the submission on, and is replaced as a
 * whole by each fetch of the job. */
#ifndef GP_REMOTE_RUNS_H
#define GP_REMOTE_RUNS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define GP_RUN_SCHEMA "gpuport.remote-run/1"

/* A new run's id ("20250131-142501", local time; "-2"... when that one is taken; `suffix`
 * appended as "-SUFFIX" when not NULL) and its staging folder, created (mode 0755) under
 * `root` (<work tree>/remote/NAME, created too). 0, or -1 with the reason in err. */
int gp_run_begin(const char *root, const char *suffix, char *id, size_t idlen, char **staging,
                 char *err, size_t errlen);
/* The same id again (a batch job fetched once more): a fresh staging folder for it. */
int gp_run_restage(const char *root, const char *id, char **staging, char *err, size_t errlen);
/* Puts `staging` in place as runs/ID — replacing, as a whole, what was there — and points
 * `latest` at it when `set_latest`. 0, or -1 with the reason in err (a `latest` that is not a
 * symbolic link is left alone and reported). */
int gp_run_publish(const char *root, const char *id, const char *staging, bool set_latest,
                   char *err, size_t errlen);
/* Removes a staging folder and all below it (a run that is abandoned). */
void gp_run_discard(const char *staging);

/* The folder of a run, <root>/runs/ID, heap string. */
char *gp_run_folder(const char *root, const char *id);

/* Writes `rec` as run.json into `folder` (atomically). 0, or -1 with the reason in err. */
int gp_run_record_write(const char *folder, const cJSON *rec, char *err, size_t errlen);
/* Reads and checks a run.json (schema, the fields gpuport relies on: "id", "folder" a safe
 * relative folder or "", "remote_folder", "fetch" an array of safe patterns, "job" null or an
 * object with a numeric "id"). NULL with "FILE: problem" in err. */
cJSON *gp_run_record_read(const char *file, char *err, size_t errlen);
/* The same checks on a parsed record; NULL or the problem (a static string). */
const char *gp_run_record_check(const cJSON *rec);

/* The ids of the runs under `root` whose record names a batch job (job.batch true), in id
 * order, with the job ids: two heap arrays of `*n` heap strings (free with
 * gp_run_list_free). Returns 0 (none is fine) or -1 with err. */
int gp_run_list_batch(const char *root, char ***ids, char ***jobs, size_t *n, char *err,
                      size_t errlen);
void gp_run_list_free(char **ids, char **jobs, size_t n);

#endif
