/* test_shortcut.c — the scanners' shortcuts (the Python scanner skips the logical lines that
 * can give no finding without making tokens) must give exactly what the full scan gives: every
 * fixture file and a set of sources built to stress the shortcut's edges are scanned both ways
 * and the results compared finding by finding, with the file-level facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/lex_python.h"
#include "audit/scanners.h"
#include "fixture_files.h"
#include "skip.h"

static void scan_how(gp_audit_lang lang, const char *path, const char *data, size_t n,
                     bool shortcut, gp_audit_result *r)
{
    gp_audit_source s = {data, n, 0, false};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (lang == GP_AL_PYTHON) gp_audit_scan_python_how(&s, r, false, base, shortcut);
    if (lang == GP_AL_C) gp_audit_scan_c_how(&s, r, false, path, shortcut);
    gp_audit_apply_suppressions(r);
}

/* Fails naming the first difference between the two scans of one source. */
static void compare(const char *what, gp_audit_lang lang, const char *path, const char *data,
                    size_t n)
{
    gp_audit_result full, fast;
    gp_audit_result_init(&full);
    gp_audit_result_init(&fast);
    scan_how(lang, path, data, n, false, &full);
    scan_how(lang, path, data, n, true, &fast);
    if (full.nf != fast.nf)
        fail_msg("%s: %zu finding(s) in full, %zu through the shortcut", what, full.nf, fast.nf);
    for (size_t i = 0; i < full.nf; i++) {
        const gp_audit_finding *a = &full.f[i], *b = &fast.f[i];
        if (a->rule != b->rule || a->severity != b->severity || a->guarded != b->guarded ||
            a->line != b->line || a->col != b->col || a->cell != b->cell ||
            a->snip_len != b->snip_len ||
            memcmp(full.text.data + a->snip_off, fast.text.data + b->snip_off, a->snip_len) != 0)
            fail_msg("%s: finding %zu differs: full %s %u:%u sev %u, shortcut %s %u:%u sev %u",
                     what, i, gp_audit_rule_get(a->rule)->id, a->line, a->col, a->severity,
                     gp_audit_rule_get(b->rule)->id, b->line, b->col, b->severity);
    }
    if (full.cpu_impl != fast.cpu_impl || full.has_main_guard != fast.has_main_guard ||
        full.dropped != fast.dropped || full.cuda_dispatch != fast.cuda_dispatch ||
        full.mps_impl != fast.mps_impl || full.dist_required != fast.dist_required)
        fail_msg("%s: the file-level facts differ", what);
    if (full.facts.len != fast.facts.len ||
        (full.facts.len && memcmp(full.facts.data, fast.facts.data, full.facts.len) != 0))
        fail_msg("%s: the recorded facts differ (%zu bytes in full, %zu through the shortcut)",
                 what, full.facts.len, fast.facts.len);
    gp_audit_result_free(&full);
    gp_audit_result_free(&fast);
}

static void visit(const char *path, void *ctx)
{
    const char *base = strrchr(path, '/');
    gp_audit_lang lang = gp_audit_lang_of(base ? base + 1 : path);
    if (lang != GP_AL_PYTHON && lang != GP_AL_C) return;
    size_t n;
    char *data = fx_read_all(path, &n);
    compare(path, lang, path, data, n);
    free(data);
    (*(size_t *)ctx)++;
}

static void test_fixtures(void **state)
{
    (void)state;
    const char *src = getenv("GPUPORT_SOURCE_DIR");
    if (!src) GP_TEST_SKIP("GPUPORT_SOURCE_DIR is not set (run it through ctest)");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/audit/fixtures", src);
    size_t files = 0;
    fx_walk(dir, visit, &files);
    assert_true(files > 50);
}

/* Sources at the shortcut's edges; each must also give at least `min` findings in full, so
 * that an edge case that silently finds nothing either way cannot pass for a check. */
static const struct {
    const char *name;
    size_t min;
    const char *text;
} py_cases[] = {
    {"alias to a CUDA module used on a line without a word", 1,
     "from torch import cuda as tc\nx = 1\ntc.synchronize()\n"},
    {"alias retargeted later", 1,
     "import numpy as q\nq.ones(3)\nfrom torch import cuda as q\nq.synchronize()\n"},
    {"triton.language alias", 1, "import triton.language as tl\n@tl.jit\ndef k(x):\n    pass\n"},
    {"more hot aliases than slots", 9,
     "from torch.cuda import a0, a1, a2, a3, a4, a5, a6, a7, a8\n"
     "a0()\na1()\na2()\na3()\na4()\na5()\na6()\na7()\na8()\n"},
    {"guard through an alias of os.environ", 1,
     "from os import environ as E\nif E.get('X'):\n    y = x.cuda()\n"},
    {"guard, then a skipped for header at the same indentation", 2,
     "if torch.cuda.is_available():\n    a = x.cuda()\nfor i in r:\n    b = x.cuda()\n"
     "else:\n    c = x.cuda()\n"},
    {"while-else and for-else after a guard", 2,
     "if use_cuda:\n    pass\nfor i in r:\n    pass\nelse:\n    x.cuda()\n"
     "while HAS_GPU:\n    y.cuda()\n"},
    {"one-line def and class bodies push no block", 2,
     "def f(): return 1\nclass A: pass\nd = DataLoader(s, num_workers=2)\n"
     "def g():\n    e = DataLoader(s, num_workers=2, collate_fn=lambda b: b)\n"},
    {"DataLoader at module level and in a def", 1,
     "def g():\n    d = DataLoader(s, num_workers=2)\nd = DataLoader(s, num_workers=4)\n"},
    {"async def and async with", 1, "async def f():\n    async with a:\n        x.cuda()\n"},
    {"try / except ImportError around an import", 1,
     "try:\n    import apex\n    x = 1\n    y = 2\nexcept ImportError:\n    apex = None\n"
     "import flash_attn\n"},
    {"docstrings, comments and strings that hold the words", 1,
     "'''cuda torch.cuda.synchronize()'''\n# x.cuda()\ns = \"x.cuda()\"\n"
     "def f():\n    \"\"\"torch.cuda\n    \"\"\"\n    return y.cuda()\n"},
    {"f-strings with nested quotes and braces", 1,
     "s = f\"{x['a']:{w}} {{}} {y!r}\"\nt = rf'''{\n  z}'''\nu = x.cuda()\n"},
    {"string prefixes the skip is unsure of", 1,
     "a = 1e+f\"x\"\nb = o.f'y'\nc = 2.rb\"z\"\nd = x.cuda()\n"},
    {"backslash continuations and a carriage return", 1,
     "x = 1 + \\\n    2\ny = a \\\r\n  .cuda()\nz = \\\n"},
    {"brackets over lines with comments", 1,
     "m = dict(\n    a=1,  # (\n    b=[\n        2, ')'],\n)\nn = m.cuda()\n"},
    {"unterminated strings and brackets", 1, "a = 'abc\nb = x.cuda()\nc = (\n 'd\n"},
    {"a long line split into parts", 1, NULL},
    {"a CUDA device choice without MPS, and MPS on a skipped line", 0,
     "d = 'cuda' if torch.cuda.is_available() else 'cpu'\nbackend = 'mps'\n"},
    {"a CUDA device choice without MPS anywhere", 1,
     "d = 'cuda' if torch.cuda.is_available() else 'cpu'\nx = 1\n"},
    {"the __main__ guard", 0,
     "d = DataLoader(s, num_workers=2)\nif __name__ == '__main__':\n    main()\n"},
    {"deep indentation", 1, NULL},
    {"tabs, form feeds and a final line without newline", 1,
     "if HAS_CUDA:\n\tif x:\n\t\ty.cuda()\n\f\tz = 1\nw = v.cuda()"},
    {"a device string in a keyword argument on a skipped-looking line", 1,
     "t = torch.zeros(3,\n    device='cuda')\n"},
    {"suppression comments on skipped and lexed lines", 1,
     "# gpuport: ignore[PY-DEV-001]\nx = y.cuda()\nz = 1  # gpuport: ignore\n"
     "w = v.cuda()  # gpuport: ignore[PY-DEV-001]\nu = t.cuda()\n"},
    {".cu source at the end of an unterminated string", 1,
     "from torch.utils.cpp_extension import load\nm = load('m', ['k.cu"},
};

static const struct {
    const char *name;
    size_t min;
    const char *text;
} c_cases[] = {
    {"lookbehind across lines", 1, "auto s = at::\ncuda::getCurrentCUDAStream();\n"},
    {"a finding right before a token that looks back, after a skip", 2,
     "int a;\nint b;\n__device__ wmma::fragment f;\n// c\n__shared__ is_cuda();\n"},
    {"at::cuda on one line after a skip", 2,
     "int a;\nint b;\nauto s = at::cuda::x();\nt.is_cuda();\n"},
    {"is_cuda first on its line", 1, "bool b = t.\nis_cuda();\nint c = cudaFree(0);\n"},
    {"include across a continuation", 1, "#include \\\n  <cuda_runtime.h>\nint x;\n"},
    {"words in comments, strings and raw strings", 1,
     "/* cudaMalloc(\n cudaFree */ const char *s = \"cudaFree\";\n"
     "auto r = R\"x(cudaFree\n)x\";\n// cudaMalloc\nint y = cudaFree(0);\n"},
    {"digit separators, prefixes and char literals", 1,
     "int a = 1'000'000;\nchar c = 'x';\nauto u = u8\"cuda\";\nint d = c - '0';\n"
     "double e = 1e+5;\nint f = 0x1'f;\ncudaFree(0);\n"},
    {"a number with digit separators at the end of a line", 1,
     "int a = 1'000\n;\nint b = 0x1'f\n;\n#include <cuda.h>\n"},
    {"numbers the skip is unsure of", 1, "double a = 1.'5';\nint b = x.R\"(y)\";\ncudaFree(0);\n"},
    {"#if 0 regions and guarded code", 2,
     "#if 0\ncudaFree(0);\n#endif\n#ifdef USE_CUDA\ncudaMalloc(0);\n#else\nint z;\n#endif\n"
     "cudaFree(0);\n"},
    {"a #define body and a continued line", 2,
     "#define F(x) \\\n  cudaFree(x)\nint v = f(a, \\\n  cudaMalloc(b));\n"},
    {"suppressions after the last word and on skipped lines", 1,
     "cudaFree(0); // gpuport: ignore[C-RT-001]\n/* gpuport: ignore */\ncudaMalloc(0);\n"
     "int x;\ncudaFree(1);\nint y; // gpuport: ignore\n"},
    {"a suppression after the last word", 1,
     "cudaMalloc(0);\nint x;\ncudaFree(1); /* a */ // gpuport: ignore\nint y;\n"},
    {"kernel launch and scopes", 3,
     "int a;\nk<<<1, 1>>>();\nthrust::sort(a);\nnvcuda::\nwmma::x y;\n"},
    {"a final line without newline", 1, "int a;\ncudaFree(0)"},
    {"a raw string and a comment ending on the line of a word", 2,
     "int a;\nauto r = R\"d(x\ny)d\" + cudaFree(1);\nint b; /* x\n */ cudaFree(2);\n"},
};

/* `head` + `count` names + `tail`: with hundreds of names, a logical line of over 1,024 tokens. */
static char *overlong(const char *head, int count, const char *tail)
{
    size_t cap = 64 * 1024;
    char *b = malloc(cap);
    assert_non_null(b);
    size_t k = (size_t)snprintf(b, cap, "%s", head);
    for (int i = 0; i < count; i++)
        k += (size_t)snprintf(b + k, cap - k, "a%d, ", i);
    snprintf(b + k, cap - k, "%s", tail);
    return b;
}

static char *deep_indent(void)
{
    size_t cap = 64 * 1024;
    char *b = malloc(cap);
    assert_non_null(b);
    size_t k = (size_t)snprintf(b, cap, "if use_cuda:\n");
    for (int i = 1; i < 80; i++)
        k += (size_t)snprintf(b + k, cap - k, "%*sfor i%d in r:\n", i, "", i);
    k += (size_t)snprintf(b + k, cap - k, "%*sx.cuda()\ny.cuda()\n", 80, "");
    (void)k;
    return b;
}

static size_t count_findings(gp_audit_lang lang, const char *text)
{
    gp_audit_result r;
    gp_audit_result_init(&r);
    scan_how(lang, lang == GP_AL_C ? "src/f.cc" : "pkg/f.py", text, strlen(text), false, &r);
    size_t n = r.nf;
    gp_audit_result_free(&r);
    return n;
}

static void test_python_edges(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof py_cases / sizeof py_cases[0]; i++) {
        char *own = NULL;
        const char *t = py_cases[i].text;
        if (!t)
            t = own = strstr(py_cases[i].name, "long")
                          ? overlong("x = [", 1500, "y.cuda()]\nz = w.cuda()\n")
                          : deep_indent();
        size_t n = count_findings(GP_AL_PYTHON, t);
        if (n < py_cases[i].min)
            fail_msg("%s: %zu finding(s) in full, expected %zu or more", py_cases[i].name, n,
                     py_cases[i].min);
        if (py_cases[i].min == 0 && strstr(py_cases[i].name, "MPS") && n != 0)
            fail_msg("%s: an MPS mention must drop the finding", py_cases[i].name);
        compare(py_cases[i].name, GP_AL_PYTHON, "pkg/f.py", t, strlen(t));
        free(own);
    }
}

static void test_c_edges(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof c_cases / sizeof c_cases[0]; i++) {
        const char *t = c_cases[i].text;
        size_t n = count_findings(GP_AL_C, t);
        if (n < c_cases[i].min)
            fail_msg("%s: %zu finding(s) in full, expected %zu or more", c_cases[i].name, n,
                     c_cases[i].min);
        compare(c_cases[i].name, GP_AL_C, "include/f.h", t, strlen(t));
    }
}

/* Conditions the shortcut reads from their bytes only (cond_may_guard): each source must give
 * exactly `guarded` guarded findings of `total` in full, and the same through the shortcut. */
static const struct {
    const char *name;
    size_t total, guarded;
    const char *text;
} py_guards[] = {
    {"a switch part inside a longer name", 1, 1,
     "if torch._use_cudnn_rnn_flatten_weight():\n    torch.backends.cudnn.x(1)\n"},
    {"switch words, a test that is none, elif and else", 4, 3,
     "if HAS_FLASH_ATTN:\n    a = x.cuda()\nif self.proj_size > 0:\n    b = x.cuda()\n"
     "elif is_built():\n    c = x.cuda()\nelse:\n    d = x.cuda()\n"},
    {"a guard through an alias of os.getenv", 1, 1,
     "from os import getenv as ge\nif ge('FAST'):\n    x.cuda()\n"},
    {"elif and else after a guard, with nothing of their own (they run without it)", 2, 0,
     "if HAS_APEX:\n    pass\nelif x:\n    a.cuda()\nelse:\n    b.cuda()\n"},
    {"elif and else after a negated guard (they run with it)", 3, 2,
     "if not torch.cuda.is_available():\n    a.cuda()\nelif x:\n    b.cuda()\nelse:\n"
     "    c.cuda()\n"},
    {"a distributed switch whose else raises, at the file's end", 1, 1,
     "import torch\nif args.distributed:\n    torch.cuda.set_device(x)\nelse:\n"
     "    raise NotImplementedError('only distributed training')\n"},
    {"a guard whose direction is unknown guards every branch", 2, 2,
     "if os.environ.get('FAST'):\n    a.cuda()\nelse:\n    b.cuda()\n"},
    {"conditions that test nothing CUDA", 3, 0,
     "if hasattr(x, 'y'):\n    a.cuda()\nwhile self.running:\n    b.cuda()\n"
     "if this_one or count_x:\n    c.cuda()\n"},
    {"device queries at the end of a chain", 2, 2,
     "if dist.is_initialized():\n    a.cuda()\nif n.device_count() > 1:\n    b.cuda()\n"},
    {"an environment switch and a device string", 2, 2,
     "if os.environ.get('X'):\n    a.cuda()\nif dev == 'mps':\n    pass\nelse:\n    b.cuda()\n"},
    {"an else after a guard with its body on the same line", 4, 2,
     "import torch\nif not torch.cuda.is_available(): x = 1\nelse: k = t.cuda()\n"
     "if HAS_APEX: y = a.cuda()\nelse:\n    z = b.cuda()\nw = c.cuda()\n"},
    {"an except ImportError after the last word", 2, 1,
     "a.cuda()\ntry:\n    import apex\n    x = 1\nexcept ImportError:\n    pass\n"},
    {"a try body with a word, its except far below", 1, 1,
     "try:\n    b.cuda()\n    y = 2\n    z = 3\n\n\nexcept (OSError, ValueError):\n    w = 4\n"},
    {"an except that catches nothing the rules know, below the last word", 1, 0,
     "try:\n    b.cuda()\n    y = 2\nexcept KeyError:\n    w = 4\n"},
    {"a DataLoader and the main guard below the last word", 0, 0,
     "d = DataLoader(s, num_workers=2)\nx = 1\nif __name__ == '__main__':\n    main()\n"},
    {"an overlong guard line ending with ':'", 1, 1, NULL},
    {"an overlong def", 0, 0, NULL},
};

static void test_python_guards(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof py_guards / sizeof py_guards[0]; i++) {
        char *own = NULL;
        const char *t = py_guards[i].text;
        if (!t && strstr(py_guards[i].name, "guard"))
            t = own = overlong("import torch\nif torch.cuda.is_available() and k in (", 700,
                               "b):\n    x.cuda()\n");
        else if (!t) /* in a def: no module-level DataLoader finding */
            t = own = overlong("def f(", 700, "b):\n    d = DataLoader(s, num_workers=2)\n");
        gp_audit_result r;
        gp_audit_result_init(&r);
        scan_how(GP_AL_PYTHON, "pkg/f.py", t, strlen(t), false, &r);
        size_t guarded = 0;
        for (size_t k = 0; k < r.nf; k++)
            guarded += r.f[k].guarded;
        if (r.nf != py_guards[i].total || guarded != py_guards[i].guarded)
            fail_msg("%s: %zu finding(s), %zu guarded; expected %zu, %zu guarded",
                     py_guards[i].name, r.nf, guarded, py_guards[i].total, py_guards[i].guarded);
        gp_audit_result_free(&r);
        compare(py_guards[i].name, GP_AL_PYTHON, "pkg/f.py", t, strlen(t));
        free(own);
    }
}

/* Files of 256 KiB and more are mapped and their pages released behind the reader: the
 * shortcut releases too (and maps a skipped stretch in again when it lexes it after all). */
static void compare_mapped(const char *what, gp_audit_lang lang, const char *text, size_t n)
{
    char path[] = "/tmp/gpuport-shortcut-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    assert_true(map != MAP_FAILED);
    /* the same bytes held in memory (nothing released), then mapped: in full and shortcut */
    gp_audit_result r[3];
    static const char *const how[] = {"held in memory", "mapped, in full", "mapped, shortcut"};
    for (int k = 0; k < 3; k++) {
        gp_audit_result_init(&r[k]);
        gp_audit_source s = {k ? map : text, n, 0, k > 0};
        if (lang == GP_AL_PYTHON) gp_audit_scan_python_how(&s, &r[k], false, "big.py", k != 1);
        if (lang == GP_AL_C) gp_audit_scan_c_how(&s, &r[k], false, "include/big.h", k != 1);
        gp_audit_apply_suppressions(&r[k]);
    }
    if (r[0].nf == 0) fail_msg("%s: no finding", what);
    for (int k = 1; k < 3; k++) {
        if (r[k].nf != r[0].nf)
            fail_msg("%s: %zu finding(s) %s, %zu %s", what, r[0].nf, how[0], r[k].nf, how[k]);
        for (size_t i = 0; i < r[0].nf; i++) {
            const gp_audit_finding *a = &r[0].f[i], *b = &r[k].f[i];
            if (a->rule != b->rule || a->line != b->line || a->col != b->col ||
                a->guarded != b->guarded || a->snip_len != b->snip_len ||
                memcmp(r[0].text.data + a->snip_off, r[k].text.data + b->snip_off, a->snip_len) !=
                    0)
                fail_msg("%s: finding %zu differs %s (line %u:%u, %u bytes of snippet) and %s "
                         "(%u:%u, %u bytes)",
                         what, i, how[0], a->line, a->col, a->snip_len, how[k], b->line, b->col,
                         b->snip_len);
        }
        if (r[k].facts.len != r[0].facts.len ||
            (r[0].facts.len && memcmp(r[0].facts.data, r[k].facts.data, r[0].facts.len) != 0))
            fail_msg("%s: the recorded facts differ (%zu bytes %s, %zu %s)", what, r[0].facts.len,
                     how[0], r[k].facts.len, how[k]);
    }
    for (int k = 0; k < 3; k++)
        gp_audit_result_free(&r[k]);
    munmap(map, n);
    close(fd);
    unlink(path);
}

static void test_mapped_files(void **state)
{
    (void)state;
    size_t cap = 8u << 20, n = 0;
    char *b = malloc(cap);
    assert_non_null(b);
    /* C: long stretches without words (comments and code), words between them, a rule that
     * looks back across a 2 MB skip, suppressions */
    for (int part = 0; part < 4; part++) {
        for (int i = 0; i < 20000; i++)
            n += (size_t)snprintf(b + n, cap - n, "/* doc %d */ int x%d = %d; // \xc3\xa9\n", i, i,
                                  i);
        n += (size_t)snprintf(b + n, cap - n,
                              "cudaFree(p%d); /* gpuport: ignore[C-RT-001] */ cudaMalloc(q);\n"
                              "auto s%d = at::\n",
                              part, part);
        for (int i = 0; i < 30000; i++)
            n += (size_t)snprintf(b + n, cap - n, "int y%d = %d;\n", i, i);
        n += (size_t)snprintf(b + n, cap - n, "cuda::getCurrentCUDAStream();\n");
    }
    compare_mapped("a large C header", GP_AL_C, b, n);
    /* Python: skipped lines between lexed ones, blocks, a guard far above a finding */
    n = 0;
    n += (size_t)snprintf(b + n, cap - n, "import torch\nif torch.cuda.is_available():\n");
    for (int i = 0; i < 40000; i++)
        n += (size_t)snprintf(b + n, cap - n, "    x%d = f(%d, 'a', [1, 2])  # note\n", i, i);
    n += (size_t)snprintf(b + n, cap - n, "    y = z.cuda()\nw = v.cuda()\n");
    for (int i = 0; i < 40000; i++)
        n += (size_t)snprintf(b + n, cap - n, "def g%d(a):\n    return a + %d\n", i, i);
    n += (size_t)snprintf(b + n, cap - n, "u = t.cuda()\n");
    compare_mapped("a large Python module", GP_AL_PYTHON, b, n);
    /* findings reported at the end of a logical line the reader has released behind it */
    n = (size_t)snprintf(b, cap, "x = [a.cuda(), '''");
    memset(b + n, 'z', 3u << 20);
    n += 3u << 20;
    n += (size_t)snprintf(b + n, cap - n, "''', b.cuda()]\ny = c.cuda()\n");
    compare_mapped("findings before a long string in their logical line", GP_AL_PYTHON, b, n);
    /* the searches that read the file again away from the tokenizer, over 1 MB apart in a
     * mapped file: the file's own cuda() method defined far below a call of it, a name's
     * assignment on a device far above its float64 cast, a float64 array passed to a function
     * defined far below that moves it */
    n = (size_t)snprintf(b, cap,
                         "import numpy as np\nimport torch\nclass Box:\n"
                         "    def go(self):\n        return self.cuda()\n");
    for (int i = 0; i < 40000; i++)
        n += (size_t)snprintf(b + n, cap - n, "    def h%d(self):\n        return %d\n", i, i);
    n += (size_t)snprintf(b + n, cap - n,
                          "    def cuda(self):\n        return self\n"
                          "def train(batch, device):\n    x = batch.to(device)\n");
    for (int i = 0; i < 20000; i++)
        n += (size_t)snprintf(b + n, cap - n, "    a%d = %d + 1\n", i, i);
    n += (size_t)snprintf(b + n, cap - n,
                          "    y = x.double()\n    return y\n"
                          "betas = np.linspace(0, 1, 10, dtype=np.float64)\nprepare(betas)\n");
    for (int i = 0; i < 15000; i++)
        n += (size_t)snprintf(b + n, cap - n, "def f%d(a):\n    return a + %d\n", i, i);
    n += (size_t)snprintf(b + n, cap - n,
                          "def prepare(arr):\n    return torch.from_numpy(arr).to('cuda')\n");
    compare_mapped("searches that read a large file again", GP_AL_PYTHON, b, n);
    gp_audit_result r;
    gp_audit_result_init(&r);
    gp_audit_source s = {b, n, 0, false};
    gp_audit_scan_python_how(&s, &r, false, "big.py", true);
    gp_audit_apply_suppressions(&r);
    int f64 = 0;
    for (size_t i = 0; i < r.nf; i++) {
        if (r.f[i].rule == GP_R_PY_DTYPE_001) f64++;
        if (r.f[i].line == 5) fail_msg("self.cuda() of the file's own method was reported");
    }
    assert_int_equal(f64, 2); /* y = x.double(), prepare(betas) */
    gp_audit_result_free(&r);
    free(b);
}

/* The skip and the token loop share one class of name bytes: letters, digits, '_', and every
 * byte from 0x80 (UTF-8 names and invalid bytes alike). */
static void test_name_chars(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        bool want = c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9');
        if (gp_py_is_name_char((unsigned char)c) != want)
            fail_msg("byte 0x%02x: name character %d, expected %d", c,
                     gp_py_is_name_char((unsigned char)c), want);
    }
}

/* Every part of the CUDA switch table makes a switch, whatever its case and wherever it stands
 * among '_'-separated parts (the check turns most words away by their first letter: a part
 * added to the table must pass that too). */
static void test_switch_parts(void **state)
{
    (void)state;
    size_t i = 0;
    for (const char *w; (w = gp_audit_cuda_switch_part(i)) != NULL; i++) {
        char buf[64], low[32];
        size_t n = strlen(w);
        assert_true(n < sizeof low);
        for (size_t k = 0; k <= n; k++)
            low[k] = (char)tolower((unsigned char)w[k]);
        const char *forms[] = {w, low};
        for (size_t f = 0; f < 2; f++) {
            snprintf(buf, sizeof buf, "USE_%s", forms[f]);
            if (!gp_audit_word_is_cuda_switch(forms[f], n) ||
                !gp_audit_word_is_cuda_switch(buf, strlen(buf)))
                fail_msg("switch part %s: %s or %s is not a switch", w, forms[f], buf);
        }
    }
    assert_true(i >= 10);
    assert_false(gp_audit_word_is_cuda_switch("USE_CPU", 7));
}

/* Every switch part makes a guard, in upper and lower case, through the full scan and the
 * shortcut: the CUDA parts (gp_audit_cuda_switch_part) and the Python scanner's own. The else
 * of a switch that selects CUDA, a GPU or a CUDA-only package runs without it; that of a switch
 * that names no device (HAS_X, X_AVAILABLE) or a toolkit part or another vendor (HAS_NVCC,
 * USE_CUDNN, WITH_HIP) is guarded too. */
static void test_switch_guards(void **state)
{
    (void)state;
    static const char *const py_parts[] = {"FLASH", "XFORMERS", "APEX", "AVAILABLE", "HAS", "HAVE"};
    static const size_t py_generic = 3; /* the last three name no device */
    size_t ncuda = 0;
    while (gp_audit_cuda_switch_part(ncuda))
        ncuda++;
    for (size_t i = 0; i < ncuda + sizeof py_parts / sizeof py_parts[0]; i++) {
        const char *w = i < ncuda ? gp_audit_cuda_switch_part(i) : py_parts[i - ncuda];
        char low[32], text[160];
        size_t n = strlen(w);
        assert_true(n < sizeof low);
        for (size_t k = 0; k <= n; k++)
            low[k] = (char)tolower((unsigned char)w[k]);
        for (int f = 0; f < 2; f++) {
            snprintf(text, sizeof text, "if %s_on:\n    x.cuda()\nelse:\n    y.cuda()\n",
                     f ? low : w);
            gp_audit_result r;
            gp_audit_result_init(&r);
            scan_how(GP_AL_PYTHON, "pkg/f.py", text, strlen(text), false, &r);
            /* (a switch on a toolkit part or another vendor, HAS_NVCC, tells neither way) */
            bool device =
                strcmp(w, "CUDA") == 0 || strcmp(w, "GPU") == 0 || strcmp(w, "GPUS") == 0 ||
                (i >= ncuda && !(i >= ncuda + sizeof py_parts / sizeof py_parts[0] - py_generic));
            bool generic = !device;
            if (r.nf != 2 || !r.f[0].guarded || r.f[1].guarded != generic)
                fail_msg("%s: %zu finding(s), the first %s guarded, the second %s", text, r.nf,
                         r.nf && r.f[0].guarded ? "" : "not",
                         r.nf > 1 && r.f[1].guarded ? "guarded" : "not");
            gp_audit_result_free(&r);
            compare(text, GP_AL_PYTHON, "pkg/f.py", text, strlen(text));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switch_guards), cmocka_unit_test(test_switch_parts),
        cmocka_unit_test(test_name_chars),    cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_python_edges),  cmocka_unit_test(test_python_guards),
        cmocka_unit_test(test_c_edges),       cmocka_unit_test(test_mapped_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
