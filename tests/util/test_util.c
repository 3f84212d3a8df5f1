/* test_util.c — the shared pieces in src/util: string builder, file reads (special files refused
 * unopened, oversize ones unread), JSON, hashing, spawn, terminal escaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#if !defined(_WIN32)
#include <sys/socket.h>
#include <sys/un.h>
#endif

#include "util/fs.h"
#include "util/json.h"
#include "util/sha256.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/stderr_capture.h"
#include "util/sys.h"
#include "util/term.h"
#include "skip.h"

static void strbuf_grows_and_formats(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    assert_string_equal(gp_strbuf_cstr(&sb), "");
    for (int i = 0; i < 1000; i++)
        gp_strbuf_printf(&sb, "%d,", i);
    assert_int_equal(sb.len, strlen(sb.data));
    assert_true(strncmp(sb.data, "0,1,2,", 6) == 0);
    assert_non_null(strstr(sb.data, ",999,"));
    char *s = gp_strbuf_take(&sb);
    assert_null(sb.data);
    free(s);
}

static void strbuf_escapes_xml(void **state)
{
    (void)state;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_put_xml(&sb, "a<b>&\"c'\td\ne\x01");
    assert_string_equal(gp_strbuf_cstr(&sb), "a&lt;b&gt;&amp;&quot;c&apos;\td\ne?");
    gp_strbuf_free(&sb);
}

static char tmpdir[200];

static void write_tmp(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void read_file_respects_cap(void **state)
{
    (void)state;
    char path[256], err[512];
    write_tmp("ten", "0123456789", path, sizeof path);
    size_t len = 0;
    char *s = gp_read_file(path, 100, false, &len, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(len, 10);
    free(s);
    assert_null(gp_read_file(path, 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "larger than 5 bytes"));
    assert_non_null(strstr(err, path));
    s = gp_read_file(path, 5, true, &len, err, sizeof err);
    assert_string_equal(s, "01234");
    free(s);
    assert_null(gp_read_file("/nonexistent/x", 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x: "));
    assert_null(gp_read_file(tmpdir, 5, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "is a directory"));
}

#if !defined(_WIN32)
/* A FIFO without a writer would block open(); a socket cannot be opened; a device may do things
 * when opened. All are refused by gp_open_regular (and so by every reader) with what they are. */
static void special_files_refused_unopened(void **state)
{
    (void)state;
    char fifo[256], sock[100], link[256], file[256], err[512];
    snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(gp_open_regular(fifo, 0, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "fifo: is a named pipe (FIFO), not a regular file"));
    size_t len;
    assert_null(gp_read_file(fifo, 100, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "is a named pipe"));
    gp_mapped_file m;
    assert_int_equal(gp_map_file(fifo, &m, err, sizeof err), -1);
    char hex[65];
    uint64_t size;
    assert_int_equal(gp_sha256_file(fifo, hex, &size, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a named pipe"));

    snprintf(sock, sizeof sock, "%.80s/sock", tmpdir);
    int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    memcpy(sa.sun_path, sock, strlen(sock) + 1);
    assert_int_equal(bind(sfd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(gp_open_regular(sock, 0, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "sock: is a socket, not a regular file"));
    close(sfd);

    /* a character device: the first of these that is one (a broken /dev/null can be a file) */
    static const char *const devs[] = {"/dev/null", "/dev/zero", "/dev/full"};
    for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) {
        struct stat ds;
        if (stat(devs[i], &ds) != 0 || !S_ISCHR(ds.st_mode)) continue;
        assert_int_equal(gp_open_regular(devs[i], 0, NULL, err, sizeof err), -1);
        char want[64];
        snprintf(want, sizeof want, "%s: is a character device", devs[i]);
        assert_non_null(strstr(err, want));
        break;
    }
    assert_int_equal(gp_open_regular(tmpdir, 0, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a directory, not a regular file"));
    struct stat st;
    int fd = gp_open_regular(tmpdir, GP_OPEN_DIR_OK, &st, err, sizeof err);
    assert_true(fd >= 0 && S_ISDIR(st.st_mode));
    close(fd);

    write_tmp("plain", "data", file, sizeof file);
    fd = gp_open_regular(file, 0, &st, err, sizeof err);
    assert_true(fd >= 0);
    assert_int_equal(st.st_size, 4);
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0); /* handed back in blocking mode */
    assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    close(fd);
    snprintf(link, sizeof link, "%s/link", tmpdir);
    assert_int_equal(symlink(file, link), 0);
    fd = gp_open_regular(link, 0, NULL, err, sizeof err);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(gp_open_regular(link, GP_OPEN_NOFOLLOW, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a symbolic link"));
    snprintf(link, sizeof link, "%s/link-to-fifo", tmpdir);
    assert_int_equal(symlink(fifo, link), 0);
    assert_int_equal(gp_open_regular(link, 0, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a named pipe"));

    /* an output named /dev/null is written into, not renamed over (as root that replaced the
     * device with a regular file); a symbolic link stays a link, its target gets the text */
    assert_int_equal(gp_write_file_atomic("/dev/null", "x\n", 2, err, sizeof err), 0);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    char target[256], via[256];
    snprintf(target, sizeof target, "%s/target.txt", tmpdir);
    snprintf(via, sizeof via, "%s/via.txt", tmpdir);
    write_tmp("target.txt", "old", target, sizeof target);
    unlink(via);
    assert_int_equal(symlink(target, via), 0);
    assert_int_equal(gp_write_file_atomic(via, "new", 3, err, sizeof err), 0);
    assert_int_equal(lstat(via, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *text = gp_read_file(target, 64, false, &len, err, sizeof err);
    assert_non_null(text);
    assert_int_equal(len, 3);
    assert_memory_equal(text, "new", 3);
    free(text);
    unlink(via);
    unlink(target);
}

/* A file whose size is over the cap is refused from its size (the message gives it), not after
 * reading up to the cap: a sparse 64 GiB file would cost 1 GiB of memory and its read time. */
static void oversize_refused_before_reading(void **state)
{
    (void)state;
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/sparse", tmpdir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)64 << 30), 0);
    close(fd);
    size_t len;
    assert_null(gp_read_file(path, (size_t)1 << 30, false, &len, err, sizeof err));
    assert_non_null(strstr(err, "file is larger than 1073741824 bytes (68719476736 bytes)"));
    unlink(path);
}
#else
/* Windows has no FIFOs, sockets or character devices in its file system, and no sparse files by
 * default (a 64 GiB file would be written out): these run on POSIX only. */
static void special_files_refused_unopened(void **state)
{
    (void)state;
    GP_TEST_SKIP("no named pipes, sockets or devices among Windows' files: the refusals are "
                 "checked on POSIX");
}

static void oversize_refused_before_reading(void **state)
{
    (void)state;
    GP_TEST_SKIP("a sparse 64 GiB file is not made on Windows: checked on POSIX");
}
#endif

static void term_safe_escapes_controls(void **state)
{
    (void)state;
    char b[64];
    const char *clean = "plain ascii and UTF-8: caf\xc3\xa9 \xe2\x9c\x93";
    assert_ptr_equal(gp_term_safe(clean, b, sizeof b), clean); /* nothing copied */
    assert_string_equal(gp_term_safe("a\033[31mred\033[0m\n\t\r\x7f", b, sizeof b),
                        "a\\x1b[31mred\\x1b[0m\\n\\t\\r\\x7f");
    /* C1 CSI (U+009B, and its bare byte), invalid UTF-8 and an overlong form */
    assert_string_equal(gp_term_safe("x\xc2\x9by\x9bz\xff\xc0\xaf", b, sizeof b),
                        "x\\xc2\\x9by\\x9bz\\xff\\xc0\\xaf");
    char small[12];
    assert_string_equal(gp_term_safe("\033\033\033\033", small, sizeof small), "\\x1b\\x1b...");
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_term_escape(&sb, "line one\nline\ttwo\033[2J", true);
    assert_string_equal(gp_strbuf_cstr(&sb), "line one\nline\ttwo\\x1b[2J");
    gp_strbuf_free(&sb);
}

#if !defined(_WIN32)
static bool drop_secret(const char *line, size_t len, void *ctx)
{
    return len == strlen(ctx) && memcmp(line, ctx, len) == 0;
}

/* What is written to fd 2 during a capture is caught, not shown; fd 2 comes back; the replay
 * leaves out the lines it is told to. */
static void stderr_capture_catches_fd2(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/stderr", tmpdir);
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(f >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(f, 2);
    close(f);
    gp_stderr_capture c;
    gp_stderr_capture_begin(&c);
    assert_true(write(2, "1 error generated.\n", 19) == 19); /* as a library writes: to fd 2 */
    fprintf(stderr, "kept line\n");
    char *got = gp_stderr_capture_end(&c, 1 << 20);
    fprintf(stderr, "after\n");
    gp_stderr_capture_replay(got, drop_secret, "1 error generated.");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_string_equal(got, "1 error generated.\nkept line\n");
    free(got);
    size_t len;
    char err[256], *shown = gp_read_file(path, 4096, false, &len, err, sizeof err);
    assert_non_null(shown);
    assert_string_equal(shown, "after\nkept line\n");
    free(shown);
}
#else
static void stderr_capture_catches_fd2(void **state)
{
    (void)state;
    GP_TEST_SKIP("gpuport does not capture stderr on Windows (a library writes through its own C "
                 "runtime, out of reach): checked on POSIX");
}
#endif

static void map_file_and_atomic_write(void **state)
{
    (void)state;
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/atomic", tmpdir);
    assert_int_equal(gp_write_file_atomic(path, "hello", 5, err, sizeof err), 0);
    gp_mapped_file m;
    assert_int_equal(gp_map_file(path, &m, err, sizeof err), 0);
    assert_int_equal(m.size, 5);
    assert_memory_equal(m.data, "hello", 5);
    gp_unmap_file(&m);
    assert_int_equal(gp_map_file(tmpdir, &m, err, sizeof err), -1);
    char *j = gp_path_join("/a/b/", "/c");
    assert_string_equal(j, "/a/b/c");
    free(j);
    char deep[300];
    snprintf(deep, sizeof deep, "%s/x/y/z", tmpdir);
    assert_int_equal(gp_mkdir_p(deep, 0700), 0);
    assert_true(gp_path_is_dir(deep));
}

static void dir_names_sorted(void **state)
{
    (void)state;
    char dir[] = "/tmp/gp-dirnames-XXXXXX", path[256], err[256];
    assert_non_null(mkdtemp(dir));
    const char *make[] = {"b", "a.txt", "C", "a"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, make[i]);
        if (i == 3)
            assert_int_equal(mkdir(path, 0700), 0);
        else
            fclose(fopen(path, "w"));
    }
    char **names;
    size_t n;
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);                        /* no "." or ".." */
    const char *want[] = {"C", "a", "a.txt", "b"}; /* byte order */
    for (size_t i = 0; i < n; i++)
        assert_string_equal(names[i], want[i]);
    gp_dir_names_free(names, n);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, make[i]);
        remove(path);
    }
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), 0);
    assert_int_equal(n, 0);
    gp_dir_names_free(names, n);
    rmdir(dir);
    assert_int_equal(gp_dir_names(dir, &names, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, dir));
    assert_non_null(strstr(err, "No such file"));
}

static void json_parse_and_duplicates(void **state)
{
    (void)state;
    char err[256];
    const char *text = "{\"a\": 1, \"b\": {\"x\": 1, \"x\": 2}}";
    cJSON *j = gp_json_parse("t.json", text, strlen(text), err, sizeof err);
    assert_non_null(j);
    const char *key = NULL;
    assert_true(gp_json_find_duplicate_key(j, &key));
    assert_string_equal(key, "x");
    cJSON_Delete(j);
    assert_null(gp_json_parse("t.json", "{\"a\": ", 6, err, sizeof err));
    assert_non_null(strstr(err, "t.json: not valid JSON"));
    assert_null(gp_json_parse("t.json", "{} x", 4, err, sizeof err));
    assert_non_null(strstr(err, "unexpected data"));
}

static void sha256_known_answers(void **state)
{
    (void)state;
    char hex[65];
    gp_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    char path[256], err[256];
    write_tmp("abc", "abc", path, sizeof path);
    uint64_t size = 0;
    assert_int_equal(gp_sha256_file(path, hex, &size, err, sizeof err), 0);
    assert_int_equal(size, 3);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* The child of the spawn test is this program itself, so the test needs no shell and runs the
 * same on every platform. */
static char *self_path;

static int child_main(const char *what)
{
    gp_term_init();
    if (strcmp(what, "talk") == 0) {
        fputs("out\n", stdout);
        fputs("err\n", stderr);
        return 7;
    }
    gp_sleep_ms(5000); /* "sleep" */
    return 0;
}

static void spawn_captures_output_and_status(void **state)
{
    (void)state;
    char err[256];
    gp_spawn_result r;
    char *argv[] = {self_path, "--child", "talk", NULL};
    assert_int_equal(gp_spawn_capture(argv, NULL, 10, 1 << 20, &r, err, sizeof err), 0);
    assert_int_equal(r.exit_code, 7);
    assert_string_equal(r.out, "out\n");
    assert_string_equal(r.err, "err\n");
    gp_spawn_result_free(&r);
    char *argv2[] = {self_path, "--child", "sleep", NULL};
    assert_int_equal(gp_spawn_capture(argv2, NULL, 0.2, 1024, &r, err, sizeof err), 0);
    assert_true(r.timed_out);
    gp_spawn_result_free(&r);
    char *argv3[] = {"gpuport-no-such-program", NULL};
    assert_int_equal(gp_spawn_capture(argv3, NULL, 1, 1024, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "gpuport-no-such-program"));
}

static void remove_tree(const char *path)
{
    char **names = NULL, err[256];
    size_t n = 0;
    if (gp_path_is_dir(path) && gp_dir_names(path, &names, &n, err, sizeof err) == 0) {
        for (size_t i = 0; i < n; i++) {
            char *child = gp_path_join(path, names[i]);
            if (child) remove_tree(child);
            free(child);
        }
        gp_dir_names_free(names, n);
    }
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0) return child_main(argv[2]);
    self_path = argv[0];
    snprintf(tmpdir, sizeof tmpdir, "%s/gp-test-util-XXXXXX", gp_tmp_dir());
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strbuf_grows_and_formats),
        cmocka_unit_test(strbuf_escapes_xml),
        cmocka_unit_test(read_file_respects_cap),
        cmocka_unit_test(special_files_refused_unopened),
        cmocka_unit_test(oversize_refused_before_reading),
        cmocka_unit_test(term_safe_escapes_controls),
        cmocka_unit_test(stderr_capture_catches_fd2),
        cmocka_unit_test(map_file_and_atomic_write),
        cmocka_unit_test(dir_names_sorted),
        cmocka_unit_test(json_parse_and_duplicates),
        cmocka_unit_test(sha256_known_answers),
        cmocka_unit_test(spawn_captures_output_and_status),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove_tree(tmpdir);
    return gp_path_exists(tmpdir) ? 1 : rc;
}
