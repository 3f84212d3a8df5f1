/* test_slurm.c — what gpuport reads back from Slurm (src/remote/slurm.c): time limits, sinfo's
 * partitions, scontrol's and sacct's job records (in the formats Slurm 22.05 prints), the
 * pre-flight check of a request, and the messages for jobs that Slurm ended (time, memory, node
 * failure) — the last two in the form the real scheduler gives in tests/remote/test_slurm.sh,
 * the others (an OOM from the cgroup plugin, a failed node, sacct) from Slurm's documented output.
 * Also the "by how much" of a differing compare (compare.c) and the run folders (runs.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote/cluster.h"
#include "remote/compare.h"
#include "remote/runs.h"
#include "remote/slurm.h"

static void time_limits(void **state)
{
    (void)state;
    assert_int_equal(gp_slurm_time_seconds("30"), 1800);
    assert_int_equal(gp_slurm_time_seconds("10:00"), 600);
    assert_int_equal(gp_slurm_time_seconds("1:30:00"), 5400);
    assert_int_equal(gp_slurm_time_seconds("2-00"), 2 * 86400);
    assert_int_equal(gp_slurm_time_seconds("1-02:03"), 86400 + 2 * 3600 + 3 * 60);
    assert_int_equal(gp_slurm_time_seconds("1-00:00:05"), 86405);
    assert_int_equal(gp_slurm_time_seconds("infinite"), GP_SLURM_TIME_INFINITE);
    assert_int_equal(gp_slurm_time_seconds("UNLIMITED"), GP_SLURM_TIME_INFINITE);
    const char *bad[] = {"",   ":",  "1:",        "a",   "1:2:3:4",
                         "-1", "1-", "1-2:3:4:5", "1e3", "9999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (gp_slurm_time_seconds(bad[i]) >= 0) fail_msg("accepted '%s'", bad[i]);
}

static const char sinfo_text[] = "gpu*|up|10:00|gpu:tesla:1\n"
                                 "gpu*|up|10:00|gpu:a100:4(S:0-1),shard:8\n"
                                 "cpu|up|5:00|(null)\n"
                                 "down|down|infinite|(null)\n";

static void partitions(void **state)
{
    (void)state;
    gp_slurm_partition *p = NULL;
    assert_int_equal(gp_slurm_partitions_parse(sinfo_text, strlen(sinfo_text), &p), 4);
    assert_string_equal(p[0].name, "gpu");
    assert_true(p[0].is_default);
    assert_true(p[0].up);
    assert_int_equal(p[0].max_time, 600);
    assert_false(p[2].is_default);
    assert_int_equal(p[3].max_time, GP_SLURM_TIME_INFINITE);
    assert_false(p[3].up);
    free(p);
    const char *bad[] = {"gpu|up|10:00\n", "a;b|up|1|x\n", "gpu|up|1|x|y\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(gp_slurm_partitions_parse(bad[i], strlen(bad[i]), &p), -1);
        assert_null(p);
    }
}

/* The request against sinfo's answer: each problem names what the cluster has and the fix. */
static void preflight(void **state)
{
    (void)state;
    gp_remote_slurm s = {0};
    gp_remote_entry e = {"c", "login", NULL, NULL, &s};
    char msg[4096];
    size_t n = strlen(sinfo_text);
#define CHECK(want_rc, says)                                                                       \
    do {                                                                                           \
        msg[0] = '\0';                                                                             \
        int rc_ = gp_slurm_preflight_check(&e, 0, sinfo_text, n, "", msg, sizeof msg);             \
        const char *s_ = (says);                                                                   \
        if (rc_ != (want_rc) || (s_[0] && !strstr(msg, s_)))                                       \
            fail_msg("line %d: rc %d, '%s'", __LINE__, rc_, msg);                                  \
    } while (0)
    CHECK(0, ""); /* the default partition, nothing asked */
    s.gres = "gpu:a100:4";
    CHECK(0, "");
    s.gres = "gpu:a100:8";
    CHECK(2, "has no nodes with --gres gpu:a100:8");
    s.gres = "gpu:h100:1";
    CHECK(2, "its nodes' GRES: gpu:tesla:1; gpu:a100:4(S:0-1),shard:8); ask for what it has: "
             "gpuport remote add c login --slurm --gres gpu:tesla:1 --replace");
    s.gres = "gpu:1,shard:2";
    CHECK(0, "");
    s.gres = NULL;
    s.gpus = "a100:2";
    CHECK(0, "");
    s.gpus = "v100:1";
    CHECK(2, "--gpus v100:1");
    s.gpus = NULL;
    s.partition = "cpu";
    s.gres = "gpu:1";
    CHECK(2, "choose a partition with GPUs");
    s.gres = NULL;
    s.time = "10";
    CHECK(2, "--time 10 is more than partition 'cpu' on c allows (0:05:00)");
    s.time = "4:59";
    CHECK(0, "");
    s.partition = "nosuch";
    CHECK(2, "partition 'nosuch' does not exist on c (its partitions: gpu (the default), cpu, "
             "down); choose one: gpuport remote add c login --slurm --partition gpu --time 4:59");
    s.partition = "cpu,down";
    s.time = NULL;
    CHECK(2, "partition 'down' on c is not up");
#undef CHECK
    assert_int_equal(gp_slurm_preflight_check(&e, 4, "missing srun\n", 13, "", msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "no srun on the login node of c (login)"));
    assert_non_null(strstr(msg, "check with: ssh login command -v srun"));
    assert_int_equal(gp_slurm_preflight_check(&e, 1, "", 0,
                                              "sinfo: error: Unable to contact slurm controller\n",
                                              msg, sizeof msg),
                     2);
    assert_non_null(strstr(msg, "Unable to contact slurm controller"));
}

/* Lines as Slurm 22.05 prints them (abridged where fields do not matter). */
static const char sc_timeout[] =
    "JobId=5 JobName=gpuport-1 UserId=me(1000) GroupId=me(1000) JobState=TIMEOUT "
    "Reason=TimeLimit Dependency=(null) ExitCode=0:15 RunTime=00:01:12 TimeLimit=00:01:00 "
    "Partition=cpu NodeList=n7 BatchHost=n7 NumNodes=1 TRES=cpu=1,mem=500M,node=1 "
    "MinMemoryNode=500M Comment=a JobState=FAKE b  StdErr=/x";
static const char sc_oom[] = "JobId=6 JobState=OUT_OF_MEMORY Reason=OutOfMemory ExitCode=0:125 "
                             "RunTime=00:00:09 TimeLimit=01:00:00 Partition=gpu NodeList=g1 "
                             "MinMemoryCPU=4G";
static const char sc_kill[] = "JobId=16 JobState=FAILED Reason=JobLaunchFailure ExitCode=0:9 "
                              "Partition=gpu NodeList=vm MinMemoryNode=40M";
static const char sc_node[] = "JobId=7 JobState=NODE_FAIL Reason=NodeDown ExitCode=0:0 "
                              "Partition=gpu NodeList=g3 MinMemoryNode=0";
static const char sc_pending[] = "JobId=8 JobState=PENDING Reason=Priority ExitCode=0:0 "
                                 "RunTime=00:00:00 TimeLimit=00:30:00 Partition=gpu "
                                 "NodeList=(null)";

static void job_records(void **state)
{
    (void)state;
    gp_slurm_job j;
    assert_int_equal(gp_slurm_job_parse_scontrol(sc_timeout, &j), 0);
    assert_string_equal(j.id, "5");
    assert_string_equal(j.state, "TIMEOUT"); /* the first JobState, not the comment's */
    assert_string_equal(j.reason, "TimeLimit");
    assert_string_equal(j.node, "n7");
    assert_string_equal(j.time_limit, "00:01:00");
    assert_string_equal(j.memory, "500M");
    assert_int_equal(j.exit_code, 0);
    assert_int_equal(j.exit_signal, 15);
    assert_false(gp_slurm_job_active(&j));
    assert_int_equal(gp_slurm_job_parse_scontrol(sc_pending, &j), 0);
    assert_true(gp_slurm_job_active(&j));
    assert_string_equal(j.node, "");
    char buf[512];
    assert_string_equal(gp_cluster_job_summary(&j, buf, sizeof buf), "PENDING (Priority)");
    assert_int_equal(gp_slurm_job_parse_scontrol(sc_node, &j), 0);
    assert_string_equal(j.memory, "");
    assert_int_equal(gp_slurm_job_parse_sacct("9|CANCELLED by 1000|0:0|g2|gpu|01:00:00|00:00:03|"
                                              "16G",
                                              &j),
                     0);
    assert_string_equal(j.state, "CANCELLED");
    assert_string_equal(j.memory, "16G");
    assert_int_equal(gp_slurm_job_parse("sacct 10|COMPLETED|3:0|g2|gpu|1:00|0:01|4G\n", &j), 0);
    assert_int_equal(j.exit_code, 3);
    assert_string_equal(gp_cluster_job_summary(&j, buf, sizeof buf), "COMPLETED on g2, exit 3");
    assert_int_equal(gp_slurm_job_parse("unknown 11", &j), -1);
    assert_false(j.known);
    const char *bad[] = {"JobState=RUNNING", "JobId=x1 JobState=RUNNING", "JobId=5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(gp_slurm_job_parse_scontrol(bad[i], &j), -1);
    assert_int_equal(gp_slurm_job_parse_sacct("1|RUNNING|0:0", &j), -1);
}

static void ended_jobs_explained(void **state)
{
    (void)state;
    gp_remote_slurm s = {"cpu", NULL, NULL, "1", NULL, NULL, 0};
    gp_remote_entry e = {"c", "me@login", NULL, NULL, &s};
    gp_slurm_job j;
    char msg[4096];
    gp_slurm_job_parse_scontrol(sc_timeout, &j);
    assert_true(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    assert_non_null(strstr(msg, "job 5 on n7 hit its time limit (Slurm: state TIMEOUT, reason "
                                "TimeLimit, ran 00:01:12 of 00:01:00)"));
    assert_non_null(strstr(msg, "gpuport remote add c me@login --slurm --partition cpu --time "
                                "0:02:00 --replace"));
    gp_slurm_job_parse_scontrol(sc_oom, &j);
    assert_true(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    assert_non_null(strstr(msg, "was killed for using more memory than it was given (Slurm: "
                                "state OUT_OF_MEMORY, reason OutOfMemory"));
    assert_non_null(strstr(msg, "--slurm-arg --mem=8G --replace"));
    gp_slurm_job_parse_scontrol(sc_kill, &j);
    assert_true(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    assert_non_null(strstr(msg, "with SIGKILL"));
    assert_non_null(strstr(msg, "--mem=80M"));
    gp_slurm_job_parse_scontrol(sc_node, &j);
    assert_true(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    assert_non_null(strstr(msg, "its node g3 failed (Slurm: state NODE_FAIL, reason NodeDown)"));
    assert_non_null(strstr(msg, "--slurm-arg --exclude=g3 --replace"));
    /* a command that failed by itself is the command's business */
    gp_slurm_job_parse("scontrol JobId=3 JobState=FAILED Reason=NonZeroExitCode ExitCode=7:0", &j);
    assert_false(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    gp_slurm_job_parse("scontrol JobId=3 JobState=PREEMPTED Reason=None ExitCode=0:0", &j);
    assert_true(gp_slurm_job_explain(&e, &j, msg, sizeof msg));
    assert_non_null(strstr(msg, "--slurm-arg --requeue"));
}

static void compare_detail(void **state)
{
    (void)state;
    static const char report[] =
        "FAIL  w  f32 [3, 4]  -- 2 / 12 elements (16.67%) outside tolerance\n"
        "  tolerance    atol 1e-05  rtol 0.0001\n"
        "  max abs      0.5 at [1, 2]\n"
        "  max rel      8.31344   NMSE 0.0632334   cosine 0.971934044967\n"
        "  would pass   atol >= 0.5 (rtol as set), or rtol >= 8.31 (atol as set)\n"
        "PASS  b  i64 [5]  -- within tolerance\n"
        "FAIL  shp  f64 [4]  -- shapes differ: reference [4], other [5]\n"
        "FAIL: 3 tensors, 1 passed, 2 failed (reference: A)\n";
    char buf[1024];
    assert_string_equal(gp_remote_compare_detail(report, buf, sizeof buf),
                        "w: 2 / 12 elements (16.67%) outside tolerance; max abs 0.5 at [1, 2]; "
                        "max rel 8.31344; would pass atol >= 0.5 (rtol as set), or rtol >= 8.31 "
                        "(atol as set); 1 more tensor fails; FAIL: 3 tensors, 1 passed, 2 failed "
                        "(reference: A)");
    assert_string_equal(
        gp_remote_compare_detail("PASS: 1 tensor, 1 passed, 0 failed\n", buf, sizeof buf),
        "PASS: 1 tensor, 1 passed, 0 failed");
    assert_string_equal(gp_remote_compare_detail("", buf, sizeof buf), "");
}

static void up_folders(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(gp_cluster_up("", b, sizeof b), ".");
    assert_string_equal(gp_cluster_up("a/", b, sizeof b), "..");
    assert_string_equal(gp_cluster_up("a/b c/", b, sizeof b), "../..");
}

/* Runs: a folder each, `latest` follows, a restaged run replaces its folder as a whole. */
static void run_folders(void **state)
{
    (void)state;
    char root[] = "/tmp/gp-runs-XXXXXX", id1[64], id2[64], err[512], path[512];
    assert_non_null(mkdtemp(root));
    char *st = NULL;
    assert_int_equal(gp_run_begin(root, NULL, id1, sizeof id1, &st, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/a.txt", st);
    FILE *f = fopen(path, "w");
    fputs("one", f);
    fclose(f);
    assert_int_equal(gp_run_publish(root, id1, st, true, err, sizeof err), 0);
    free(st);
    assert_int_equal(gp_run_begin(root, "job42", id2, sizeof id2, &st, err, sizeof err), 0);
    assert_string_not_equal(id1, id2);
    assert_non_null(strstr(id2, "-job42"));
    assert_int_equal(gp_run_publish(root, id2, st, true, err, sizeof err), 0);
    free(st);
    char link[256] = "";
    snprintf(path, sizeof path, "%s/latest", root);
    ssize_t n = readlink(path, link, sizeof link - 1);
    assert_true(n > 0);
    link[n] = '\0';
    char want[128];
    snprintf(want, sizeof want, "runs/%s", id2);
    assert_string_equal(link, want);
    snprintf(path, sizeof path, "%s/latest/a.txt", root);
    assert_int_not_equal(access(path, F_OK), 0); /* nothing of run 1 seen through latest */
    /* the first run again: what it had is replaced as a whole */
    assert_int_equal(gp_run_restage(root, id1, &st, err, sizeof err), 0);
    assert_int_equal(gp_run_publish(root, id1, st, false, err, sizeof err), 0);
    free(st);
    snprintf(path, sizeof path, "%s/runs/%s/a.txt", root, id1);
    assert_int_not_equal(access(path, F_OK), 0);
    /* a `latest` that is not ours is left alone */
    snprintf(path, sizeof path, "%s/latest", root);
    unlink(path);
    mkdir(path, 0755);
    assert_int_equal(gp_run_begin(root, NULL, id2, sizeof id2, &st, err, sizeof err), 0);
    assert_int_equal(gp_run_publish(root, id2, st, true, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a symbolic link"));
    free(st);
    rmdir(path);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void run_records(void **state)
{
    (void)state;
    const char *good = "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"20250101-120000-job4\","
                       "\"folder\":\"src/\",\"remote_folder\":\"gpuport/p\",\"fetch\":[\"out/*\"],"
                       "\"job\":{\"id\":\"4\",\"batch\":true},\"compare\":{\"glob\":\"o/*.npy\","
                       "\"rtol\":\"1e-3\",\"atol\":null}}";
    cJSON *r = cJSON_Parse(good);
    assert_null(gp_run_record_check(r));
    cJSON_Delete(r);
    const char *bad[] = {
        "[]",
        "{\"schema\":\"gpuport.remote-run/2\"}",
        "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"../x\",\"folder\":\"\","
        "\"remote_folder\":\"d\",\"fetch\":[]}",
        "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"a\",\"folder\":\"../\","
        "\"remote_folder\":\"d\",\"fetch\":[]}",
        "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"a\",\"folder\":\"\","
        "\"remote_folder\":\"d\",\"fetch\":[\"/etc/*\"]}",
        "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"a\",\"folder\":\"\","
        "\"remote_folder\":\"-rf\",\"fetch\":[]}",
        "{\"schema\":\"gpuport.remote-run/1\",\"id\":\"a\",\"folder\":\"\","
        "\"remote_folder\":\"d\",\"fetch\":[],\"job\":{\"id\":\"1;x\"}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = cJSON_Parse(bad[i]);
        if (!gp_run_record_check(r)) fail_msg("case %zu accepted", i);
        cJSON_Delete(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(time_limits),
        cmocka_unit_test(partitions),
        cmocka_unit_test(preflight),
        cmocka_unit_test(job_records),
        cmocka_unit_test(ended_jobs_explained),
        cmocka_unit_test(compare_detail),
        cmocka_unit_test(up_folders),
        cmocka_unit_test(run_folders),
        cmocka_unit_test(run_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
