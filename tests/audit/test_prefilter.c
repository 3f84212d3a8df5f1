/* test_prefilter.c — the per-file prefilter must never hide a finding: every fixture file of the
 * rule, verdict, stop and suppression projects is scanned in full and through the prefilter's
 * decision, and a file it decides without lexing must have no finding and the same facts; every
 * Python and C/C++ rule must be seen through a file the prefilter lets through; every trigger
 * word is found wherever it sits in a buffer; and files without one are really skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/prefilter.h"
#include "audit/scanners.h"
#include "fixture_files.h"
#include "skip.h"

typedef struct walk_state {
    size_t files;          /* Python and C/C++ fixture files seen */
    size_t skipped;        /* ... decided without lexing */
    bool seen[GP_R_COUNT]; /* rules found in files the prefilter let through */
} walk_state;

/* The scanner itself, without the prefilter or its own shortcut. */
static void scan_full(const char *path, gp_audit_lang lang, const char *data, size_t n,
                      gp_audit_result *r)
{
    gp_audit_source s = {data, n, 0, false};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (lang == GP_AL_PYTHON) gp_audit_scan_python_how(&s, r, false, base, false);
    if (lang == GP_AL_C) gp_audit_scan_c_how(&s, r, false, path, false);
}

/* Each finding must be explained by a trigger word near it (its line and the two on either
 * side): a finding whose trigger was left out of the tables fails here even when its fixture
 * holds other trigger words. The exceptions are the findings the prefilter never gates: inline
 * PTX (CUDA sources only) and PY-EXT-003 (sources named as CPU implementations, a raise after a
 * test of a tensor's device); and a setting made elsewhere in the file (`backend = "nccl"`, its
 * word there; a name set to a float64 value, reported where it reaches a device) where it is
 * used. */
static void check_explained(const char *path, gp_audit_lang lang, const char *data, size_t n,
                            const gp_audit_result *full)
{
    gp_audit_lang tl = lang == GP_AL_CUDA ? GP_AL_C : lang;
    for (size_t i = 0; i < full->nf; i++) {
        const gp_audit_finding *f = &full->f[i];
        if (f->rule == GP_R_PY_EXT_003) continue;
        if (f->rule == GP_R_PY_DTYPE_001 && (strstr(data, "float64") || strstr(data, "double")))
            continue;
        if (f->rule == GP_R_PY_DIST_001 && !strstr(full->text.data + f->snip_off, "nccl") &&
            strstr(data, "\"nccl\""))
            continue;
        if (lang == GP_AL_CUDA && f->rule == GP_R_C_KERN_003 &&
            strstr(full->text.data + f->snip_off, "asm"))
            continue;
        uint32_t from = f->line > 2 ? f->line - 2 : 1, to = f->line + 2;
        size_t lo = 0, line = 1;
        while (line < from && lo < n) {
            const char *nl = memchr(data + lo, '\n', n - lo);
            lo = nl ? (size_t)(nl - data) + 1 : n;
            line++;
        }
        size_t hi = lo;
        while (line <= to && hi < n) {
            const char *nl = memchr(data + hi, '\n', n - hi);
            hi = nl ? (size_t)(nl - data) + 1 : n;
            line++;
        }
        /* a '$' word lies at the file's end: let the window reach it when the finding is there */
        if (hi + GP_AUDIT_TAIL >= n) hi = n;
        if (!gp_audit_prefilter_may_match(tl, data + lo, hi - lo) &&
            !(hi == n && gp_audit_prefilter_may_match(tl, data, n)))
            fail_msg("%s:%u: %s has no trigger word within two lines", path, f->line,
                     gp_audit_rule_get(f->rule)->id);
    }
}

static void check_file(const char *path, walk_state *w)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    gp_audit_lang lang = gp_audit_lang_of(base);
    size_t n;
    char *data = fx_read_all(path, &n);
    gp_audit_result full, fast;
    gp_audit_result_init(&full);
    gp_audit_result_init(&fast);
    if (lang == GP_AL_PYTHON || lang == GP_AL_C) {
        w->files++;
        scan_full(path, lang, data, n, &full);
        gp_audit_source s = {data, n, 0, false};
        check_explained(path, lang, data, n, &full);
        if (gp_audit_prefilter_skip(&s, lang, path, &fast)) {
            w->skipped++;
            if (full.nf != 0)
                fail_msg("%s: the prefilter skipped a file with %zu finding(s), first %s", path,
                         full.nf, gp_audit_rule_get(full.f[0].rule)->id);
            assert_int_equal(full.cpu_impl, fast.cpu_impl);
            assert_int_equal(fast.nf, 0);
        } else {
            for (size_t i = 0; i < full.nf; i++)
                w->seen[full.f[i].rule] = true;
        }
    } else {
        /* every other reader is always lexed: what it finds counts as let through */
        gp_audit_scan_bytes(path, data, n, &full);
        if (lang == GP_AL_CUDA) check_explained(path, lang, data, n, &full);
        for (size_t i = 0; i < full.nf; i++)
            w->seen[full.f[i].rule] = true;
    }
    gp_audit_result_free(&full);
    gp_audit_result_free(&fast);
    free(data);
}

static void visit(const char *path, void *ctx)
{
    check_file(path, ctx);
}

static void test_fixtures_never_hidden(void **state)
{
    (void)state;
    const char *src = getenv("GPUPORT_SOURCE_DIR");
    if (!src) GP_TEST_SKIP("GPUPORT_SOURCE_DIR is not set (run it through ctest)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/audit/fixtures", src);
    walk_state w;
    memset(&w, 0, sizeof w);
    fx_walk(dir, visit, &w);
    assert_true(w.files > 50);
    /* the negatives and clean projects include files the prefilter really skips */
    assert_true(w.skipped > 0);
    /* every rule of the Python and C/C++ scanners is found through the prefilter's gate */
    for (int i = 0; i < GP_R_COUNT; i++) {
        const gp_audit_rule *r = gp_audit_rule_get(i);
        if (!(r->langs & (GP_LANG_PY | GP_LANG_C))) continue;
        if (!w.seen[i]) fail_msg("rule %s: no fixture finding passed the prefilter", r->id);
    }
}

/* Minimal positives, one construct each: the scanner must find the rule in it and the
 * prefilter must let it through (a fixture file may hold several trigger words at once). */
static const struct {
    gp_audit_lang lang;
    const char *rule;
    const char *text;
} minimal[] = {
    {GP_AL_C, "C-INC-001", "#include <cuda_runtime.h>\n"},
    {GP_AL_C, "C-INC-001", "#include <thrust/sort.h>\n"},
    {GP_AL_C, "C-INC-001", "#include \"sm_80_rt.h\"\n"},
    {GP_AL_C, "C-INC-001", "#include <nppi.h>\n"},
    {GP_AL_C, "C-INC-001", "#include <cooperative_groups/reduce.h>\n"},
    {GP_AL_C, "C-INC-001", "#include <mma.h>\n"},
    {GP_AL_C, "C-LIB-004", "#include <nccl.h>\n"},
    {GP_AL_C, "C-RT-001", "void f(void) { cudaDeviceSynchronize(); }\n"},
    {GP_AL_C, "C-DRV-001", "CUresult r = cuInit(0);\n"},
    {GP_AL_C, "C-DRV-001", "int e = CUDA_ERROR_INVALID_VALUE;\n"},
    {GP_AL_C, "C-KERN-001", "void f(void) { k<<<1, 1>>>(); }\n"},
    {GP_AL_C, "C-KERN-001", "__global__ void k(void) {}\n"},
    {GP_AL_C, "C-KERN-002", "int v = __shfl_down_sync(m, x, 1);\n"},
    {GP_AL_C, "C-KERN-003", "wmma::fragment<a> f;\n"},
    {GP_AL_C, "C-LIB-001", "cublasHandle_t h;\n"},
    {GP_AL_C, "C-LIB-002", "cudnnHandle_t h;\n"},
    {GP_AL_C, "C-LIB-003", "curandGenerator_t g;\n"},
    {GP_AL_C, "C-LIB-004", "ncclComm_t c;\n"},
    {GP_AL_C, "C-LIB-005", "void f(void) { thrust::sort(a, b); }\n"},
    {GP_AL_C, "C-LIB-005", "void f(void) { cub::DeviceScan s; }\n"},
    {GP_AL_C, "C-ATEN-001", "auto s = at::cuda::getCurrentCUDAStream();\n"},
    {GP_AL_C, "C-ATEN-001", "bool b = t.is_cuda();\n"},
    {GP_AL_C, "C-ATEN-001", "auto d = kCUDA;\n"},
    {GP_AL_PYTHON, "PY-DEV-001", "x = y.cuda()\n"},
    {GP_AL_PYTHON, "PY-DEV-002", "x = y.to('cuda')\n"},
    {GP_AL_PYTHON, "PY-DEV-003", "import torch\ntorch.cuda.synchronize()\n"},
    {GP_AL_PYTHON, "PY-DEV-003",
     "import torch as t\nfrom torch import cuda as c\nc.empty_cache()\n"},
    {GP_AL_PYTHON, "PY-DEV-004", "d = 'cuda' if torch.cuda.is_available() else 'cpu'\n"},
    {GP_AL_PYTHON, "PY-DEV-005", "g = torch.cuda.CUDAGraph()\n"},
    {GP_AL_PYTHON, "PY-AMP-001", "import torch\ns = torch.cuda.amp.GradScaler()\n"},
    {GP_AL_PYTHON, "PY-CUDNN-001", "import torch\ntorch.backends.cudnn.benchmark = True\n"},
    {GP_AL_PYTHON, "PY-DTYPE-001",
     "import torch\nx = torch.zeros(1, dtype=torch.float64, device='cuda')\n"},
    {GP_AL_PYTHON, "PY-DTYPE-001", "x = y.cuda().double()\n"},
    {GP_AL_PYTHON, "PY-DTYPE-001",
     "import numpy as np\na = b.astype(np.float64)\nt = torch.from_numpy(a).to(dev)\n"},
    {GP_AL_PYTHON, "PY-QUANT-001", "m = f('x', load_in_8bit=True)\n"},
    {GP_AL_PYTHON, "PY-QUANT-001", "c = BitsAndBytesConfig()\n"},
    {GP_AL_PYTHON, "PY-QUANT-001", "import bitsandbytes as bnb\n"},
    {GP_AL_PYTHON, "PY-QUANT-001", "from bitsandbytes.optim import AdamW8bit\n"},
    {GP_AL_PYTHON, "PY-DEV-002", "with torch.autocast('cuda'):\n    pass\n"},
    {GP_AL_PYTHON, "PY-EXT-003",
     "def f(x):\n    if x.is_cuda:\n        return g(x)\n    raise E\n"},
    {GP_AL_PYTHON, "PY-MEM-001", "x = y.pin_memory()\n"},
    {GP_AL_PYTHON, "PY-MEM-001", "d = DataLoader(s, pin_memory=True)\n"},
    {GP_AL_PYTHON, "PY-DIST-001", "dist.init_process_group('nccl')\n"},
    {GP_AL_PYTHON, "PY-DIST-002", "m = DDP(m, device_ids=[r])\n"},
    {GP_AL_PYTHON, "PY-DIST-002", "os.environ['NCCL_DEBUG'] = 'INFO'\n"},
    {GP_AL_PYTHON, "PY-EXT-001", "e = CUDAExtension('m', ['m.cpp'])\n"},
    {GP_AL_PYTHON, "PY-EXT-002",
     "from torch.utils.cpp_extension import load\nm = load('m', ['k.cu'])\n"},
    {GP_AL_PYTHON, "PY-EXT-002", "m = load_inline('m', cpp_sources=s, cuda_sources=c)\n"},
    {GP_AL_PYTHON, "PY-IMP-001", "import flash_attn\n"},
    {GP_AL_PYTHON, "PY-IMP-001", "from numba import cuda\n"},
    {GP_AL_PYTHON, "PY-IMP-001", "import cupy as cp\n"},
    {GP_AL_PYTHON, "PY-IMP-002", "try:\n    import xformers\nexcept ImportError:\n    pass\n"},
    {GP_AL_PYTHON, "PY-TRITON-001", "import triton\n"},
    {GP_AL_PYTHON, "PY-COMPILE-001", "import torch\nm = torch.compile(m)\n"},
    {GP_AL_PYTHON, "PY-DL-001", "d = DataLoader(s, num_workers=4)\n"},
};

static void test_minimal_positives(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof minimal / sizeof minimal[0]; i++) {
        const char *t = minimal[i].text;
        gp_audit_result r;
        gp_audit_result_init(&r);
        scan_full(minimal[i].lang == GP_AL_C ? "src/f.cc" : "pkg/f.py", minimal[i].lang, t,
                  strlen(t), &r);
        bool found = false;
        for (size_t k = 0; k < r.nf; k++)
            if (strcmp(gp_audit_rule_get(r.f[k].rule)->id, minimal[i].rule) == 0) found = true;
        gp_audit_result_free(&r);
        if (!found) fail_msg("%s not found in: %s", minimal[i].rule, t);
        if (!gp_audit_prefilter_may_match(minimal[i].lang, t, strlen(t)))
            fail_msg("%s: the prefilter would skip: %s", minimal[i].rule, t);
    }
}

/* One concrete word for a trigger (its class character filled in). */
static void trigger_word(const gp_audit_trigger *t, char *out, size_t cap)
{
    snprintf(out, cap, "%s%s", t->text,
             t->next == 'U'   ? "X"
             : t->next == 'L' ? "x"
             : t->next == 'E' ? "_"
                              : "");
}

static void check_word_everywhere(gp_audit_lang lang, const char *word, bool tail_only)
{
    /* before the word: bytes that end a name (a word starts a token); after it: anything */
    static const char before[] = " = (+, -) ; [*] {/} < > ! ? ~ \n\t";
    static const char filler[] = "abcdefghijklmnopqrstuvwxyz = (1, 2) # ok\n";
    char buf[256];
    size_t wl = strlen(word);
    /* the word at every offset of buffers of every length up to 40 bytes past it: covers the
     * search's wide steps, its tail and the buffer's edges */
    for (size_t pre = 0; pre < 20; pre++)
        for (size_t post = 0; post < 20; post++) {
            if (tail_only && wl + post > GP_AUDIT_TAIL) continue;
            size_t n = 0;
            for (size_t i = 0; i < pre; i++)
                buf[n++] = before[i];
            memcpy(buf + n, word, wl);
            n += wl;
            for (size_t i = 0; i < post; i++)
                buf[n++] = filler[i];
            if (!gp_audit_prefilter_may_match(lang, buf, n))
                fail_msg("trigger '%s' not found at offset %zu of %zu bytes", word, pre, n);
            /* both searches (the vector screen and the step-sampled one) give its start from
             * anywhere up to it, and the same place (a word inside it, or none) from past it */
            gp_audit_pf pf = lang == GP_AL_PYTHON ? GP_PF_PYTHON : GP_PF_C;
            for (size_t from = 0; from <= pre + 1; from++) {
                size_t vec = gp_audit_prefilter_find_how(pf, buf, n, from, true);
                size_t sam = gp_audit_prefilter_find_how(pf, buf, n, from, false);
                if (vec != sam || (from <= pre && vec != pre) || (from > pre && vec <= pre))
                    fail_msg("'%s' at %zu of %zu bytes: from %zu the vector search gave %zu, the "
                             "sampled one %zu",
                             word, pre, n, from, vec, sam);
            }
        }
}

/* A '$' word counts near the end of a file only: ".cu" in np.cumsum mid-file is no trigger. */
static void test_tail_words(void **state)
{
    (void)state;
    const char *mid = "x = np.cumsum(a)\ny = 1\n";
    assert_false(gp_audit_prefilter_may_match(GP_AL_PYTHON, mid, strlen(mid)));
    /* an unterminated triple-quoted string at the end of the file whose last byte is a quote:
     * its body ends three bytes early, and the scanner does see a .cu source in it */
    const char *cut = "from torch.utils.cpp_extension import load\nload('m', ['''k.cuab'";
    assert_true(gp_audit_prefilter_may_match(GP_AL_PYTHON, cut, strlen(cut)));
    gp_audit_result r;
    gp_audit_result_init(&r);
    gp_audit_source s = {cut, strlen(cut), 0, false};
    gp_audit_scan_python(&s, &r, false, "m.py");
    assert_int_equal(r.nf, 1);
    assert_string_equal(gp_audit_rule_get(r.f[0].rule)->id, "PY-EXT-002");
    gp_audit_result_free(&r);
    /* a tail word, then a word that starts after it within the vector screen's 32 positions */
    const char *both = "x = 1\ny = 2\nz = 3\nw = 4\nt\\.cup\\.cupy";
    for (size_t from = 0; from < 20; from++)
        assert_int_equal(gp_audit_prefilter_find_how(GP_PF_PYTHON, both, strlen(both), from, true),
                         strlen(both) - 5);
    const char *closed = "load('m', ['k.cu'])\n";
    assert_true(gp_audit_prefilter_may_match(GP_AL_PYTHON, closed, strlen(closed)));
}

static void test_every_trigger_found(void **state)
{
    (void)state;
    const gp_audit_trigger *t;
    size_t n = gp_audit_python_triggers(&t);
    assert_true(n > 10);
    for (size_t i = 0; i < n; i++) {
        char w[64];
        trigger_word(&t[i], w, sizeof w);
        check_word_everywhere(GP_AL_PYTHON, w, t[i].next == '$');
    }
    n = gp_audit_c_triggers(&t);
    assert_true(n > 40);
    for (size_t i = 0; i < n; i++) {
        char w[64];
        trigger_word(&t[i], w, sizeof w);
        check_word_everywhere(GP_AL_C, w, t[i].next == '$');
    }
}

/* Two trigger words side by side, touching or overlapping by a byte, at several offsets: the
 * vector search keys each word on its rarest window, so the later word's window may come first;
 * both searches must still give the earlier start, from every place before it. */
static void pairs_of(gp_audit_pf pf, const gp_audit_trigger *t, size_t nt)
{
    char buf[256], a[64], b[64];
    for (size_t i = 0; i < nt; i++)
        for (size_t j = 0; j < nt; j++) {
            if (t[i].next == '$' || t[j].next == '$') continue;
            trigger_word(&t[i], a, sizeof a);
            trigger_word(&t[j], b, sizeof b);
            size_t la = strlen(a), lb = strlen(b);
            /* before, after and across the vector search's 32-byte blocks, with 40 bytes after */
            static const size_t pres[] = {0, 1, 2, 29, 30, 31, 32, 33, 62, 63};
            for (size_t overlap = 0; overlap < 2 && overlap < la; overlap++)
                for (size_t q = 0; q < sizeof pres / sizeof pres[0]; q++) {
                    size_t n = 0, pre = pres[q];
                    for (size_t k = 0; k < pre; k++)
                        buf[n++] = ' ';
                    memcpy(buf + n, a, la);
                    n += la - overlap;
                    memcpy(buf + n, b, lb);
                    n += lb;
                    for (size_t k = 0; k < 40; k++)
                        buf[n++] = "x = (1, 2) # ok\n"[k % 16];
                    for (size_t from = pre > 3 ? pre - 3 : 0; from <= pre + la; from++) {
                        size_t vec = gp_audit_prefilter_find_how(pf, buf, n, from, true);
                        size_t smp = gp_audit_prefilter_find_how(pf, buf, n, from, false);
                        if (vec != smp)
                            fail_msg("'%.*s' from %zu: vector search %zu, sampled %zu", (int)n, buf,
                                     from, vec, smp);
                    }
                }
        }
}

static void test_pairs_of_triggers(void **state)
{
    (void)state;
    const gp_audit_trigger *t;
    size_t n = gp_audit_python_triggers(&t);
    pairs_of(GP_PF_PYTHON, t, n);
    n = gp_audit_c_triggers(&t);
    pairs_of(GP_PF_C, t, n);
}

static void test_files_without_triggers_skipped(void **state)
{
    (void)state;
    /* the negatives the rules are tested against, without any trigger word */
    const char *py = "import numpy as np\n\nx = np.cumsum(a)  # a comment\n"
                     "def f(t):\n    return t.to(dev)\n";
    const char *c = "#include <stdio.h>\nint main(void) { int cur = 0; return cur; }\n";
    gp_audit_source sp = {py, strlen(py), 0, false};
    gp_audit_source sc = {c, strlen(c), 0, false};
    gp_audit_result r;
    gp_audit_result_init(&r);
    assert_true(gp_audit_prefilter_skip(&sp, GP_AL_PYTHON, "pkg/mod.py", &r));
    assert_false(r.cpu_impl);
    /* the name alone still makes a CPU implementation */
    assert_true(gp_audit_prefilter_skip(&sp, GP_AL_PYTHON, "pkg/ops_cpu.py", &r));
    assert_true(r.cpu_impl);
    gp_audit_result_free(&r);
    gp_audit_result_init(&r);
    assert_true(gp_audit_prefilter_skip(&sc, GP_AL_C, "src/main.c", &r));
    /* a source named as a CPU implementation is judged by its bodies: always lexed */
    assert_false(gp_audit_prefilter_skip(&sc, GP_AL_C, "src/ops_cpu.cpp", &r));
    /* readers without a trigger set, and mapped (large) files, are always lexed */
    assert_false(gp_audit_prefilter_skip(&sp, GP_AL_SETUP_PY, "setup.py", &r));
    assert_false(gp_audit_prefilter_skip(&sc, GP_AL_CUDA, "k.cu", &r));
    gp_audit_source mapped = {py, strlen(py), 0, true};
    assert_false(gp_audit_prefilter_skip(&mapped, GP_AL_PYTHON, "pkg/mod.py", &r));
    gp_audit_result_free(&r);
    /* a word inside a longer name is no token start */
    const char *inside = "if is_flash_attn_available():\n    f = recompile_all(x)\n";
    assert_false(gp_audit_prefilter_may_match(GP_AL_PYTHON, inside, strlen(inside)));
    const char *cinside = "int xcudaMalloc = my_nccl_count;\n";
    assert_false(gp_audit_prefilter_may_match(GP_AL_C, cinside, strlen(cinside)));
    /* one trigger word turns the decision */
    const char *py2 = "import numpy as np\nx = np.cumsum(a).double()\n";
    gp_audit_source sp2 = {py2, strlen(py2), 0, false};
    gp_audit_result_init(&r);
    assert_false(gp_audit_prefilter_skip(&sp2, GP_AL_PYTHON, "pkg/mod.py", &r));
    gp_audit_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_never_hidden),
        cmocka_unit_test(test_minimal_positives),
        cmocka_unit_test(test_every_trigger_found),
        cmocka_unit_test(test_tail_words),
        cmocka_unit_test(test_pairs_of_triggers),
        cmocka_unit_test(test_files_without_triggers_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
