/* fuzz_audit_mapped.c — large files are mapped and their pages released behind the reader (and
 * read again where the shortcut goes back to tokenize a stretch it skipped): the Python and C/C++
 * scanners on a mapped copy of the input, with and without their shortcuts, must find exactly
 * what the full scan finds in the same bytes held in memory. Fuzz builds scale the bounds of
 * mapped reading down 256 times (GP_AUDIT_SCALE_DOWN), so inputs of tens of KiB take the release,
 * rewind and span-at-a-time paths. A difference aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/scanners.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void scan(int which, gp_audit_source *s, bool shortcut, gp_audit_result *r)
{
    if (which == 0)
        gp_audit_scan_python_how(s, r, false, "mod.py", shortcut);
    else
        gp_audit_scan_c_how(s, r, false, "include/mod.h", shortcut);
    gp_audit_apply_suppressions(r);
}

static void same(const gp_audit_result *a, const gp_audit_result *b)
{
    if (a->nf != b->nf || a->has_main_guard != b->has_main_guard || a->cpu_impl != b->cpu_impl ||
        a->dropped != b->dropped || a->cuda_dispatch != b->cuda_dispatch ||
        a->dist_required != b->dist_required || a->facts.len != b->facts.len ||
        (a->facts.len && memcmp(a->facts.data, b->facts.data, a->facts.len) != 0))
        abort();
    for (size_t i = 0; i < a->nf; i++) {
        const gp_audit_finding *x = &a->f[i], *y = &b->f[i];
        if (x->rule != y->rule || x->severity != y->severity || x->guarded != y->guarded ||
            x->line != y->line || x->col != y->col || x->snip_len != y->snip_len ||
            memcmp(a->text.data + x->snip_off, b->text.data + y->snip_off, x->snip_len) != 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    if (fd < 0) {
        char path[] = "/tmp/gpuport-fuzz-mapped-XXXXXX";
        fd = mkstemp(path);
        if (fd < 0) abort();
        unlink(path); /* the descriptor keeps it while the fuzzer runs */
    }
    if (size == 0) return 0;
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) abort();
    for (int which = 0; which < 2; which++) {
        gp_audit_result held, full, fast;
        gp_audit_result_init(&held);
        gp_audit_result_init(&full);
        gp_audit_result_init(&fast);
        gp_audit_source s0 = {(const char *)data, size, 0, false};
        scan(which, &s0, false, &held);
        gp_audit_source s1 = {map, size, 0, true};
        scan(which, &s1, false, &full);
        gp_audit_source s2 = {map, size, 0, true};
        scan(which, &s2, true, &fast);
        same(&held, &full);
        same(&held, &fast);
        gp_audit_result_free(&held);
        gp_audit_result_free(&full);
        gp_audit_result_free(&fast);
    }
    munmap(map, size);
    return 0;
}
