/* fuzz_remote_lists.c — the NUL-separated lists the remote side sends back to `gpuport remote`
 * (the sync manifest in src/remote/sync.c, the fetch listing in src/remote/fetch.c, split by
 * the run's mark): any bytes must yield only safe relative paths or a refusal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/fetch.h"
#include "remote/sync.h"
#include "remote/worktree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_all_safe(const gp_strbuf *sb)
{
    for (size_t off = 0; off < sb->len; off += strlen(sb->data + off) + 1)
        if (!gp_worktree_path_safe(sb->data + off)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    gp_strbuf out = GP_STRBUF_INIT;
    char bad[256];
    if (gp_remote_fetch_parse(text, size, &out, bad, sizeof bad) >= 0) check_all_safe(&out);
    gp_strbuf_free(&out);
    /* The listing with a run's mark: split, then each part parsed as above. */
    gp_strbuf fresh = GP_STRBUF_INIT, stale = GP_STRBUF_INIT;
    size_t per[4];
    if (gp_remote_fetch_split(text, size, 4, &fresh, &stale, per) == 0) {
        if (gp_remote_fetch_parse(fresh.data, fresh.len, &out, bad, sizeof bad) >= 0)
            check_all_safe(&out);
        gp_strbuf_free(&out);
        if (gp_remote_fetch_parse(stale.data, stale.len, &out, bad, sizeof bad) >= 0)
            check_all_safe(&out);
        gp_strbuf_free(&out);
    }
    gp_strbuf_free(&fresh);
    gp_strbuf_free(&stale);
    /* The first half is the old manifest, the second the current list. */
    static const char now[] = "a\0b/c\0";
    gp_remote_sync_removed(text, size, now, sizeof now - 1, &out);
    check_all_safe(&out);
    gp_strbuf_free(&out);
    return 0;
}
