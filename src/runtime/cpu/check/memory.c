/* memory.c — buffers of a checked CPU device: each allocation has a red zone on both sides (an
 * overrun through a computed pointer falls into no other buffer, and the checker reports it
 * against the buffer it left) and, for initcheck, one bit per 4-byte word that the host's writes
 * and the kernels' stores set. The bits live as long as the buffer: 1/32 of its size. */
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/check/check.h"
#include "util/sys.h"

gp_status gp_ck_buffer_create(gp_buffer *b)
{
    gp_ck_buffer *c = calloc(1, sizeof *c);
    if (!c) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    size_t total = b->size + 2 * GP_CK_RED_ZONE;
    if (total < b->size || !(c->alloc = gp_aligned_alloc(total, 4096))) {
        free(c);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY,
                            "cannot allocate a %zu-byte buffer (with its red zones) in host memory",
                            b->size);
    }
    c->words = (b->size + 3) / 4;
    if (b->checks & GP_CHECK_INITCHECK) {
        c->init = calloc((c->words + 31) / 32, sizeof *c->init);
        if (!c->init) {
            gp_aligned_free(c->alloc);
            free(c);
            return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory for initcheck's bits");
        }
    }
    b->impl = (char *)c->alloc + GP_CK_RED_ZONE;
    b->host_ptr = b->impl;
    b->check = c;
    return GP_OK;
}

void gp_ck_buffer_release(gp_buffer *b)
{
    gp_ck_buffer *c = b->check;
    if (!c) return;
    gp_aligned_free(c->alloc);
    free(c->init);
    free(c);
    b->check = NULL;
    b->impl = NULL;
}

void gp_ck_buffer_written(gp_buffer *b, size_t off, size_t n)
{
    gp_ck_buffer *c = b->check;
    if (!c || !c->init || n == 0) return;
    size_t w0 = off / 4, w1 = (off + n - 1) / 4;
    for (size_t w = w0; w <= w1 && w < c->words; w++) {
        if ((w & 31) == 0 && w + 32 <= w1 + 1) {
            __atomic_store_n(&c->init[w >> 5], 0xffffffffu, __ATOMIC_RELAXED);
            w += 31;
            continue;
        }
        __atomic_fetch_or(&c->init[w >> 5], 1u << (w & 31), __ATOMIC_RELAXED);
    }
}
