/* compiler.c — see compiler.h. $CC may name a wrapper with arguments ("ccache gcc"); it is split
 * on spaces, never given to a shell. */
#include "runtime/cpu/compiler.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/spawn.h"

#define GP_CC_MAX_WORDS 8
#if defined(__x86_64__)
#define GP_CC_FLAGS_ID "1: -std=gnu11 -O3 -march=native -fPIC -shared"
#else
#define GP_CC_FLAGS_ID "1: -std=gnu11 -O3 -fPIC -shared"
#endif

static pthread_once_t gp_cc_once = PTHREAD_ONCE_INIT;
static char gp_cc_words[GP_CC_MAX_WORDS][256];
static int gp_cc_nwords;
static char gp_cc_path[1024]; /* the resolved program */
static char gp_cc_id[1300];

static bool gp_find_on_path(const char *prog, char *out, size_t cap)
{
    if (strchr(prog, '/')) {
        if (access(prog, X_OK) != 0) return false;
        gp_copy_str(out, cap, prog);
        return true;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        char cand[1024];
        if (n > 0 && n + strlen(prog) + 2 < sizeof cand) {
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, prog);
            if (access(cand, X_OK) == 0 && gp_path_is_file(cand)) {
                gp_copy_str(out, cap, cand);
                return true;
            }
        }
        path += n + (colon ? 1 : 0);
    }
    return false;
}

static void gp_cc_find(void)
{
    const char *cc = getenv("CC");
    if (cc && *cc) {
        char tmp[1024];
        gp_copy_str(tmp, sizeof tmp, cc);
        for (char *save = NULL, *w = strtok_r(tmp, " \t", &save);
             w && gp_cc_nwords < GP_CC_MAX_WORDS; w = strtok_r(NULL, " \t", &save))
            gp_copy_str(gp_cc_words[gp_cc_nwords++], sizeof gp_cc_words[0], w);
        if (gp_cc_nwords && !gp_find_on_path(gp_cc_words[0], gp_cc_path, sizeof gp_cc_path))
            gp_cc_nwords = 0; /* $CC names nothing runnable: say so at build time */
        if (!gp_cc_nwords) gp_copy_str(gp_cc_path, sizeof gp_cc_path, "");
    } else {
        static const char *const names[] = {"cc", "clang", "gcc"};
        for (size_t i = 0; i < 3 && !gp_cc_nwords; i++) {
            if (gp_find_on_path(names[i], gp_cc_path, sizeof gp_cc_path)) {
                gp_copy_str(gp_cc_words[0], sizeof gp_cc_words[0], names[i]);
                gp_cc_nwords = 1;
            }
        }
    }
    struct stat sb;
    if (gp_cc_nwords && stat(gp_cc_path, &sb) == 0) {
        /* cc is usually a symlink chain; stat follows it to the real compiler's file */
        /* the flags gp_cpu_compile passes are part of the identity: changing them must miss */
        snprintf(gp_cc_id, sizeof gp_cc_id, "cc %s size %lld mtime %lld flags %s", gp_cc_path,
                 (long long)sb.st_size, (long long)sb.st_mtime, GP_CC_FLAGS_ID);
        for (int i = 1; i < gp_cc_nwords; i++) {
            size_t l = strlen(gp_cc_id);
            snprintf(gp_cc_id + l, sizeof gp_cc_id - l, " %s", gp_cc_words[i]);
        }
    } else {
        gp_cc_nwords = 0;
        gp_copy_str(gp_cc_id, sizeof gp_cc_id, "none");
    }
}

void gp_cpu_compiler_id(char *buf, size_t cap)
{
    pthread_once(&gp_cc_once, gp_cc_find);
    gp_copy_str(buf, cap, gp_cc_id);
}

gp_status gp_cpu_compile(const char *text, size_t len, const char *source_name, int fast_math,
                         const char *out_so)
{
    pthread_once(&gp_cc_once, gp_cc_find);
    if (!gp_cc_nwords) {
        const char *cc = getenv("CC");
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s: the CPU backend compiles kernels with a C compiler and found none "
                            "(%s%s%s); install one (Debian: apt-get install gcc; macOS: "
                            "xcode-select --install) or set CC, or use a built-in program",
                            source_name, cc && *cc ? "CC=" : "looked for cc, clang, gcc on PATH",
                            cc && *cc ? cc : "", cc && *cc ? " is not runnable" : "");
    }
    char src[1100];
    snprintf(src, sizeof src, "%s.c", out_so);
    char err[512];
    if (gp_write_file_atomic(src, text, len, err, sizeof err) != 0)
        return gp_error_set(GP_ERR_IO, "writing the kernel source for the compiler: %s", err);
    char *argv[GP_CC_MAX_WORDS + 16];
    int a = 0;
    for (int i = 0; i < gp_cc_nwords; i++)
        argv[a++] = gp_cc_words[i];
    argv[a++] = "-std=gnu11";
    argv[a++] = "-O3";
#if defined(__x86_64__)
    argv[a++] = "-march=native";
#endif
    argv[a++] = "-fPIC";
    argv[a++] = "-shared";
    if (fast_math) argv[a++] = "-ffast-math";
    argv[a++] = "-o";
    argv[a++] = (char *)out_so;
    argv[a++] = src;
    argv[a++] = "-lm";
    argv[a] = NULL;
    gp_spawn_result r;
    char serr[512];
    int rc = gp_spawn_capture(argv, NULL, 300.0, (size_t)1 << 20, &r, serr, sizeof serr);
    unlink(src);
    if (rc != 0)
        return gp_error_set(GP_ERR_UNSUPPORTED, "%s: cannot start the C compiler: %s", source_name,
                            serr);
    gp_status st = GP_OK;
    if (r.timed_out)
        st = gp_error_set(GP_ERR_BUILD, "%s: the C compiler (%s) took over 300 s and was stopped",
                          source_name, gp_cc_path);
    else if (r.exit_code != 0)
        st = gp_error_set(GP_ERR_BUILD, "%s: compile error (%s):\n%s%s", source_name, gp_cc_path,
                          r.err ? r.err : "", r.out ? r.out : "");
    gp_spawn_result_free(&r);
    return st;
}
