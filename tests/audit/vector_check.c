/* vector_check.c — the audit's byte screens on the vector unit this build targets (SSE2 and AVX2
 * on x86-64, NEON on AArch64, as Apple Silicon runs them) against their one-byte-at-a-time forms:
 * the word search (vector screen against the scalar search), the two-byte scan and the one-byte
 * set scan (against plain loops), and the Python and C/C++ shortcuts that rest on them (against
 * the full scan), over generated sources. Then each file named on the command line is scanned and
 * its findings printed, so that two builds (the host's and an AArch64 one under qemu-user) can be
 * compared line by line. Built for the host with the library (tests.cmake) and by
 * test_vector_paths.sh from the scanners' sources for other targets: not a cmocka program, so that
 * a cross build needs libc alone. Exit 1 on any disagreement. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/bytescan.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#define UNIT "NEON (AArch64)"
#elif defined(__x86_64__) && defined(__SSE2__)
#define UNIT "SSE2, and AVX2 where the CPU has it (x86-64)"
#elif defined(__x86_64__)
#define UNIT "no SSE2 code: byte scans one byte at a time, AVX2 word screen where the CPU has it"
#else
#define UNIT "none: scalar code only"
#endif

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned next(unsigned m)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 33) % m;
}

/* Pieces that the scanners and the screens care about, mixed with filler bytes. */
static const char *const pieces[] = {
    "import triton.language as tl\n",
    "tl.x(",
    "subtle",
    "if HAS_X:\n",
    "elif y:\n",
    "else:\n",
    "    ",
    "        ",
    "def f(",
    "if ge(",
    "from os import getenv as ge\n",
    "cuda",
    "cudaMalloc",
    "torch.cuda.synchronize()",
    "x.cuda()",
    "cublasSgemm",
    "__global__",
    "<<<",
    "pin_memory",
    ".cu'",
    "x.double()",
    "nccl",
    "#include <cuda.h>\n",
    "#if USE_CUDA\n",
    "#endif\n",
    "'",
    "\"",
    "'''",
    "#",
    "\n",
    "(",
    ")",
    "[",
    "]",
    "/*",
    "*/",
    "//",
    "R\"(",
    "\\\n",
    "try:\n",
    "except ImportError:\n",
    "torch._inductor",
    "_inductor",
    "num_workers=2",
    "float64",
    "CUDAExtension",
    "at::cuda::",
    "c10::cuda",
    "nvcc",
    "__main__",
    "mps",
    "\t",
    "\r\n",
};

static size_t gen(char *buf, size_t cap)
{
    size_t n = 0, len = next(4) == 0 ? 300 + next(3000) : next(400);
    if (len > cap) len = cap;
    while (n < len) {
        if (next(4) == 0) {
            const char *w = pieces[next(sizeof pieces / sizeof pieces[0])];
            size_t k = strlen(w);
            if (n + k > len) break;
            memcpy(buf + n, w, k);
            n += k;
        } else if (next(64) == 0) {
            /* a long run, across the screens' 16-, 32- and 64-byte blocks */
            size_t k = 40 + next(100);
            char c = " ax_9"[next(5)];
            for (; k > 0 && n < len; k--)
                buf[n++] = c;
        } else {
            buf[n++] = " abxyz=.(\n:c_uC#'\""[next(18)];
        }
    }
    return n;
}

static size_t bad;
static int round_no; /* the generated source's number: the same on every build */

static void mismatch(const char *what, size_t n)
{
    if (++bad <= 5) printf("MISMATCH %s in generated source %d (%zu bytes)\n", what, round_no, n);
}

/* Full scan against the shortcut; the findings' count, or (size_t)-1 when they differ. */
static size_t scan_both(bool py, const char *d, size_t n)
{
    gp_audit_result a, b;
    gp_audit_result_init(&a);
    gp_audit_result_init(&b);
    gp_audit_source s1 = {d, n, 0, false}, s2 = {d, n, 0, false};
    if (py) {
        gp_audit_scan_python_how(&s1, &a, false, "m.py", false);
        gp_audit_scan_python_how(&s2, &b, false, "m.py", true);
    } else {
        gp_audit_scan_c_how(&s1, &a, false, "inc/m.h", false);
        gp_audit_scan_c_how(&s2, &b, false, "inc/m.h", true);
    }
    bool same = a.nf == b.nf && a.has_main_guard == b.has_main_guard;
    for (size_t i = 0; same && i < a.nf; i++)
        same = a.f[i].rule == b.f[i].rule && a.f[i].line == b.f[i].line &&
               a.f[i].col == b.f[i].col && a.f[i].guarded == b.f[i].guarded;
    size_t nf = a.nf;
    gp_audit_result_free(&a);
    gp_audit_result_free(&b);
    return same ? nf : (size_t)-1;
}

static size_t pair_plain(const char *d, size_t pos, size_t end, char a, char b, size_t gap)
{
    for (size_t i = pos; i + gap < end; i++)
        if (d[i] == a && d[i + gap] == b) return i;
    return end;
}

static size_t set_plain(const char *d, size_t pos, size_t n, const char *set, int k)
{
    for (; pos < n; pos++)
        if (memchr(set, d[pos], (size_t)k)) return pos;
    return n;
}

static void check_generated(int rounds, size_t *words, size_t *findings)
{
    static char buf[4096];
    for (round_no = 0; round_no < rounds; round_no++) {
        size_t n = gen(buf, sizeof buf);
        for (int pf = 0; pf < 2; pf++)
            for (size_t from = 0; from <= n; from += 1 + next(9)) {
                size_t v = gp_audit_prefilter_find_how((gp_audit_pf)pf, buf, n, from, true);
                size_t s = gp_audit_prefilter_find_how((gp_audit_pf)pf, buf, n, from, false);
                if (v != s) mismatch(pf ? "C word search" : "Python word search", n);
                if (v == s && v < n) ++*words;
            }
        for (size_t from = 0; from < n; from += 1 + next(13)) {
            char a = buf[next((unsigned)n)], b = buf[next((unsigned)n)];
            size_t gap = next(12);
            if (gp_bytescan_pair(buf, from, n, a, b, gap) != pair_plain(buf, from, n, a, b, gap))
                mismatch("two-byte scan", n);
            if (gp_bytescan(buf, from, n, "\n#'\"\\", 5) != set_plain(buf, from, n, "\n#'\"\\", 5))
                mismatch("byte set scan", n);
        }
        for (int py = 0; py < 2; py++) {
            size_t nf = scan_both(py, buf, n);
            if (nf == (size_t)-1)
                mismatch(py ? "Python shortcut" : "C/C++ shortcut", n);
            else
                *findings += nf;
        }
    }
}

static int print_file(const char *path)
{
    const char *base = strrchr(path, '/');
    gp_audit_lang lang = gp_audit_lang_of(base ? base + 1 : path);
    if (lang != GP_AL_PYTHON && lang != GP_AL_C && lang != GP_AL_CUDA) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("%s: cannot open\n", path);
        return 1;
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    gp_audit_result r;
    gp_audit_result_init(&r);
    gp_audit_source s = {buf, n, 0, false};
    if (lang == GP_AL_PYTHON)
        gp_audit_scan_python_how(&s, &r, false, base ? base + 1 : path, true);
    else
        gp_audit_scan_c_how(&s, &r, lang == GP_AL_CUDA, path, true);
    gp_audit_apply_suppressions(&r);
    for (size_t i = 0; i < r.nf; i++)
        printf("%s:%u:%u %s%s\n", path, r.f[i].line, r.f[i].col, gp_audit_rule_get(r.f[i].rule)->id,
               r.f[i].guarded ? " guarded" : "");
    gp_audit_result_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    size_t words = 0, findings = 0;
    check_generated(argc > 1 && strcmp(argv[1], "--rounds") == 0 ? atoi(argv[2]) : 4000, &words,
                    &findings);
    int first = argc > 1 && strcmp(argv[1], "--rounds") == 0 ? 3 : 1;
    fprintf(stderr, "vector unit: %s; %zu words found, %zu findings, %zu disagreements\n", UNIT,
            words, findings, bad);
    int rc = bad ? 1 : 0;
    for (int i = first; i < argc; i++)
        rc |= print_file(argv[i]);
    return rc;
}
