/* compiler.c — see compiler.h. $CC may name a wrapper with arguments ("ccache gcc"); it is split
 * on spaces, never given to a shell. On Windows the compilers are looked for the Windows way
 * (cl.exe of a Visual Studio prompt first) and build a DLL. */
#include "runtime/cpu/compiler.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/compiler.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/thread.h"

#define GP_CC_MAX_WORDS 8

/* ---- this platform's compilers and how each builds a shared library ----------------------- */
/* Two families: GCC-like drivers (gcc, clang, cc) and MSVC-like ones (cl.exe, clang-cl), told
 * apart by the program's name. */
#if defined(_WIN32)
/* cl.exe is on PATH in a Visual Studio developer prompt (vcvars); clang-cl and clang come with
 * LLVM or Visual Studio's LLVM component; gcc with MinGW-w64 (MSYS2, w64devkit). */
static const char *const gp_cc_names[] = {"cl", "clang-cl", "clang", "gcc", "cc"};
#define GP_CC_LOOKED "cl (a Visual Studio developer prompt), clang-cl, clang, gcc, cc on PATH"
#define GP_CC_INSTALL                                                                              \
    "install Visual Studio's C++ workload and run from its Developer PowerShell, or LLVM "         \
    "(winget install LLVM.LLVM), or MinGW-w64 (MSYS2)"
#define GP_CC_PIC NULL /* every Windows DLL is relocatable */
#define GP_CC_LIBM NULL /* the C runtime has the math functions */
#else
static const char *const gp_cc_names[] = {"cc", "clang", "gcc"};
#define GP_CC_LOOKED "cc, clang, gcc on PATH"
#define GP_CC_INSTALL "Debian: apt-get install gcc; macOS: xcode-select --install"
#define GP_CC_PIC    "-fPIC"
#define GP_CC_LIBM   "-lm"
#endif
#if defined(__x86_64__) || defined(_M_X64)
#define GP_CC_NATIVE "-march=native"
#else
#define GP_CC_NATIVE NULL
#endif
#define GP_CC_FLAGS_ID "2: gnu -std=gnu11 -O3 native -shared; msvc /O2 /std:c11 /LD"

/* True for cl.exe and clang-cl, which take MSVC's options. */
static bool gp_cc_is_msvc(const char *word)
{
    const char *base = word;
    for (const char *p = word; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    size_t n = strlen(base);
    if (n > 4 && (strcmp(base + n - 4, ".exe") == 0 || strcmp(base + n - 4, ".EXE") == 0)) n -= 4;
    return (n == 2 && (base[0] | 0x20) == 'c' && (base[1] | 0x20) == 'l') ||
           (n == 8 && strncmp(base, "clang-cl", 8) == 0);
}

static gp_once gp_cc_once = GP_ONCE_INIT;
static char gp_cc_words[GP_CC_MAX_WORDS][256];
static int gp_cc_nwords;
static char gp_cc_path[1024]; /* the resolved program */
static char gp_cc_id[1300];

/* `cand`, or on Windows `cand`.exe, when it is a runnable file. */
static bool gp_cc_try(const char *cand, char *out, size_t cap)
{
    if (access(cand, X_OK) == 0 && gp_path_is_file(cand)) {
        gp_copy_str(out, cap, cand);
        return true;
    }
#if defined(_WIN32)
    char exe[1100];
    snprintf(exe, sizeof exe, "%s.exe", cand);
    if (gp_path_is_file(exe)) {
        gp_copy_str(out, cap, exe);
        return true;
    }
#endif
    return false;
}

static bool gp_find_on_path(const char *prog, char *out, size_t cap)
{
    if (strpbrk(prog, GP_PATH_SEPARATORS)) return gp_cc_try(prog, out, cap);
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    const char sep = GP_PATH_LIST_SEP[0];
    while (*path) {
        const char *colon = strchr(path, sep);
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        char cand[1024];
        if (n > 0 && n + strlen(prog) + 2 < sizeof cand) {
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, prog);
            if (gp_cc_try(cand, out, cap)) return true;
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
        for (size_t i = 0; i < GP_ARRAY_LEN(gp_cc_names) && !gp_cc_nwords; i++) {
            if (gp_find_on_path(gp_cc_names[i], gp_cc_path, sizeof gp_cc_path)) {
                gp_copy_str(gp_cc_words[0], sizeof gp_cc_words[0], gp_cc_names[i]);
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
    gp_once_call(&gp_cc_once, gp_cc_find);
    gp_copy_str(buf, cap, gp_cc_id);
}

gp_status gp_cpu_compile(const char *text, size_t len, const char *source_name, int fast_math,
                         const char *out_so)
{
    gp_once_call(&gp_cc_once, gp_cc_find);
    if (!gp_cc_nwords) {
        const char *cc = getenv("CC");
        return gp_error_set(GP_ERR_UNSUPPORTED,
                            "%s: the CPU backend compiles kernels with a C compiler and found none "
                            "(%s%s%s); install one (%s) or set CC, or use a built-in program",
                            source_name, cc && *cc ? "CC=" : "looked for " GP_CC_LOOKED,
                            cc && *cc ? cc : "", cc && *cc ? " is not runnable" : "",
                            GP_CC_INSTALL);
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
    char out_opt[1200];
    if (gp_cc_is_msvc(gp_cc_words[0])) {
        /* /LD: a DLL; /Fe: its name (the import library and objects go beside it) */
        snprintf(out_opt, sizeof out_opt, "/Fe%s", out_so);
        argv[a++] = "/nologo";
        argv[a++] = "/O2";
        argv[a++] = "/std:c11";
        if (fast_math) argv[a++] = "/fp:fast";
        argv[a++] = "/LD";
        argv[a++] = out_opt;
        argv[a++] = src;
    } else {
        argv[a++] = "-std=gnu11";
        argv[a++] = "-O3";
        if (GP_CC_NATIVE) argv[a++] = GP_CC_NATIVE;
        if (GP_CC_PIC) argv[a++] = GP_CC_PIC;
        argv[a++] = "-shared";
        if (fast_math) argv[a++] = "-ffast-math";
        argv[a++] = "-o";
        argv[a++] = (char *)out_so;
        argv[a++] = src;
        if (GP_CC_LIBM) argv[a++] = GP_CC_LIBM;
    }
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
