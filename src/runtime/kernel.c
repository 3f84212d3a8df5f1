/* kernel.c — kernels and launches. Every launch is checked against the signature parsed from the
 * kernel's GP_KERNEL declaration and against the device's and the kernel's group limits before
 * the backend sees it, so a wrong argument is a message naming the parameter on every backend,
 * never a crash on one of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"
#include "runtime/trace.h"
#include "util/strbuf.h"

static const char *gp_arg_kind_name(int k)
{
    switch (k) {
    case GP_ARG_BUFFER:
        return "a buffer (GP_BUF)";
    case GP_ARG_CONST_BUFFER:
        return "a buffer (GP_CBUF)";
    case GP_ARG_VALUE:
        return "a value (GP_VAL)";
    case GP_ARG_DYN_SHARED:
        return "dynamic shared memory (GP_DYN_SHARED)";
    }
    return "an unknown kind";
}

gp_status gp_kernel_create(gp_program *program, const char *name, gp_kernel **out)
{
    if (!program || !name || !out)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_create: NULL argument");
    *out = NULL;
    uint32_t idx = program->num_kernels;
    for (uint32_t i = 0; i < program->num_kernels; i++)
        if (!strcmp(program->kernels[i].name, name)) idx = i;
    size_t nlen = strlen(name);
    for (const char *u = program->untranslated; idx == program->num_kernels && u && *u;) {
        const char *tab = strchr(u, '\t'), *nl = tab ? strchr(tab, '\n') : NULL;
        if (!tab || !nl) break;
        if ((size_t)(tab - u) == nlen && !memcmp(u, name, nlen))
            return gp_error_set(GP_ERR_NOT_FOUND,
                                "kernel '%s' of %s was not translated from CUDA (gpuport "
                                "translate --partial left it out, as comments): %.*s",
                                name, program->source_name, (int)(nl - tab - 1), tab + 1);
        u = nl + 1;
    }
    if (idx == program->num_kernels) {
        gp_strbuf sb = GP_STRBUF_INIT;
        for (uint32_t i = 0; i < program->num_kernels; i++)
            gp_strbuf_printf(&sb, "%s%s", i ? ", " : "", program->kernels[i].name);
        gp_status st = gp_error_set(GP_ERR_NOT_FOUND, "no kernel '%s' in the program; it has: %s",
                                    name, gp_strbuf_cstr(&sb));
        gp_strbuf_free(&sb);
        return st;
    }
    gp_kernel *k = calloc(1, sizeof *k);
    if (!k) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    k->program = program;
    k->sig = &program->kernels[idx];
    k->sig_index = idx;
    gp_device_state *dev = program->dev;
    gp_status st = dev->ops->kernel_create(k);
    if (st != GP_OK) {
        free(k);
        return st;
    }
    if (!k->max_group_size || k->max_group_size > dev->info.max_group_size)
        k->max_group_size = dev->info.max_group_size;
    gp_mutex_lock(&dev->lock);
    program->refs++;
    gp_mutex_unlock(&dev->lock);
    gp_device_state_ref(dev);
    *out = k;
    return GP_OK;
}

gp_status gp_kernel_release(gp_kernel *kernel)
{
    if (!kernel) return GP_OK;
    gp_device_state *dev = kernel->program->dev;
    dev->ops->kernel_release(kernel);
    gp_mutex_lock(&dev->lock);
    kernel->program->refs--;
    gp_mutex_unlock(&dev->lock);
    free(kernel);
    gp_device_state_unref(dev);
    return GP_OK;
}

gp_status gp_kernel_arg_count(const gp_kernel *kernel, uint32_t *count)
{
    if (!kernel || !count)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_arg_count: NULL argument");
    *count = kernel->sig->num_args;
    return GP_OK;
}

gp_status gp_kernel_arg_info(const gp_kernel *kernel, uint32_t index, gp_arg_info *info)
{
    if (!kernel || !info)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_arg_info: NULL argument");
    if (index >= kernel->sig->num_args)
        return gp_error_set(GP_ERR_NOT_FOUND, "kernel '%s' has %u parameter(s), no index %u",
                            kernel->sig->name, kernel->sig->num_args, index);
    *info = kernel->sig->args[index];
    return GP_OK;
}

gp_status gp_kernel_max_group_size(const gp_kernel *kernel, uint32_t *size)
{
    if (!kernel || !size)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_max_group_size: NULL argument");
    *size = kernel->max_group_size;
    return GP_OK;
}

static gp_status gp_check_args(const gp_kernel *k, uint32_t n, const gp_arg *args, size_t *dyn)
{
    const gp_kernel_sig *s = k->sig;
    gp_device_state *dev = k->program->dev;
    if (n != s->num_args) {
        gp_strbuf sb = GP_STRBUF_INIT;
        for (uint32_t i = 0; i < s->num_args; i++)
            gp_strbuf_printf(&sb, "%s%s", i ? ", " : "", s->args[i].name);
        gp_status st = gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                    "kernel '%s' takes %u argument(s) (%s), the launch passed %u",
                                    s->name, s->num_args, gp_strbuf_cstr(&sb), n);
        gp_strbuf_free(&sb);
        return st;
    }
    if (n && !args) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_launch: NULL args");
    *dyn = 0;
    for (uint32_t i = 0; i < n; i++) {
        const gp_arg_info *p = &s->args[i];
        const gp_arg *a = &args[i];
        int want = p->kind == GP_ARG_CONST_BUFFER ? GP_ARG_BUFFER : p->kind;
        int got = a->kind == GP_ARG_CONST_BUFFER ? GP_ARG_BUFFER : a->kind;
        if (want != got)
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "kernel '%s' argument %u '%s' (%s) needs %s, got %s", s->name, i,
                                p->name, p->type_name, gp_arg_kind_name(p->kind),
                                gp_arg_kind_name(a->kind));
        if (want == GP_ARG_BUFFER) {
            if (!a->buffer && (a->flags & GP_ARG_FLAG_NULL) && (s->indexed_only >> i & 1u) &&
                !(k->program->checks & GP_CHECK_MEMCHECK)) /* checked: memcheck reports it */
                return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                    "kernel '%s' argument %u '%s': no buffer (None / "
                                    "gp_arg_null()), but the kernel never tests '%s' before it "
                                    "indexes it; pass a buffer, or make it optional in the "
                                    "kernel (`if (%s != 0) ...`)",
                                    s->name, i, p->name, p->name, p->name);
            if (!a->buffer && (a->flags & GP_ARG_FLAG_NULL)) continue; /* gp_arg_null() */
            if (!a->buffer)
                return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                    "kernel '%s' argument %u '%s': NULL buffer (pass "
                                    "gp_arg_null() for an optional buffer the kernel tests)",
                                    s->name, i, p->name);
            if (a->buffer->dev != dev)
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT,
                    "kernel '%s' argument %u '%s': the buffer is on %s, the kernel on %s", s->name,
                    i, p->name, a->buffer->dev->info.spec, dev->info.spec);
            if (a->buffer->mapped)
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT,
                    "kernel '%s' argument %u '%s': the buffer is mapped; unmap it first", s->name,
                    i, p->name);
        } else if (want == GP_ARG_VALUE) {
            if (!a->value)
                return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                    "kernel '%s' argument %u '%s': NULL value", s->name, i,
                                    p->name);
            if ((p->size && a->size != p->size) || a->size == 0 || a->size > 256)
                return gp_error_set(
                    GP_ERR_INVALID_ARGUMENT,
                    "kernel '%s' argument %u '%s' is %s (%u bytes), the launch passed %zu bytes",
                    s->name, i, p->name, p->type_name, p->size, a->size);
        } else {
            if (a->size > dev->info.max_shared_memory)
                return gp_error_set(
                    GP_ERR_LAUNCH,
                    "kernel '%s' argument %u '%s': %zu bytes of dynamic shared memory, "
                    "%s allows %llu per group",
                    s->name, i, p->name, a->size, dev->info.spec,
                    (unsigned long long)dev->info.max_shared_memory);
            *dyn = a->size;
        }
    }
    return GP_OK;
}

/* The runtime's choice when the caller gives no group: about 256 work-items, never more than
 * the grid in a dimension, within the kernel's and the device's limits. */
static void gp_auto_group(const gp_kernel *k, uint32_t dims, const size_t *global, uint32_t g[3])
{
    const gp_device_info *in = &k->program->dev->info;
    static const uint32_t pref[3][3] = {{256, 1, 1}, {16, 16, 1}, {8, 8, 4}};
    uint32_t limit = k->max_group_size;
    for (uint32_t d = 0; d < 3; d++) {
        g[d] = d < dims ? pref[dims - 1][d] : 1;
        if (d < dims && global[d] < g[d]) g[d] = (uint32_t)global[d];
        if (in->max_group_dims[d] && g[d] > in->max_group_dims[d]) g[d] = in->max_group_dims[d];
        if (g[d] == 0) g[d] = 1;
    }
    while ((uint64_t)g[0] * g[1] * g[2] > limit) {
        int d = g[0] >= g[1] && g[0] >= g[2] ? 0 : (g[1] >= g[2] ? 1 : 2);
        g[d] = (g[d] + 1) / 2;
    }
    /* SIMD-group operations need whole SIMD groups: the dimension with the most grid left to
     * cover grows to the next size that makes the group a multiple of the width (extra
     * work-items fall outside the grid, as in any last group, and the kernel's bounds check
     * skips them); the others shrink if that goes over the limit */
    uint32_t w = in->simd_group_width;
    if (!k->sig->uses_simd || !w || ((uint64_t)g[0] * g[1] * g[2]) % w == 0) return;
    uint32_t d = 0;
    double room = 0;
    for (uint32_t i = 0; i < dims; i++)
        if ((double)global[i] / g[i] > room) room = (double)global[i] / g[i], d = i;
    for (;;) {
        uint64_t other = (uint64_t)g[0] * g[1] * g[2] / g[d];
        uint64_t step = w, a = other % w, b = w; /* step = w / gcd(other, w) */
        while (a) {
            uint64_t t = b % a;
            b = a;
            a = t;
        }
        step = w / b;
        uint64_t m = (g[d] + step - 1) / step * step;
        if (m * other <= limit || other == 1) {
            if (m * other <= limit) g[d] = (uint32_t)m;
            return;
        }
        uint32_t e = d == 0 ? (g[1] >= g[2] ? 1 : 2)
                            : (d == 1 ? (g[0] >= g[2] ? 0 : 2) : (g[0] >= g[1] ? 0 : 1));
        g[e] = (g[e] + 1) / 2;
    }
}

gp_status gp_kernel_auto_group(const gp_kernel *kernel, uint32_t dims, const size_t *global,
                               size_t group[3])
{
    if (!kernel || !global || !group)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT, "gp_kernel_auto_group: NULL argument");
    if (dims < 1 || dims > 3)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_kernel_auto_group: %u dimensions (use 1, 2 or 3)", dims);
    uint32_t g[3];
    gp_auto_group(kernel, dims, global, g);
    for (uint32_t d = 0; d < 3; d++) /* the group the kernel requires, where it says one */
        group[d] = kernel->sig->req_group[0] ? kernel->sig->req_group[d] : g[d];
    return GP_OK;
}

static gp_status gp_check_group(const gp_kernel *k, uint32_t dims, const size_t *group,
                                uint32_t g[3])
{
    const gp_device_info *in = &k->program->dev->info;
    uint64_t total = 1;
    for (uint32_t d = 0; d < 3; d++) {
        size_t v = d < dims ? group[d] : 1;
        if (v == 0) return gp_error_set(GP_ERR_INVALID_ARGUMENT, "group size 0 in dimension %u", d);
        if (in->max_group_dims[d] && v > in->max_group_dims[d])
            return gp_error_set(GP_ERR_LAUNCH,
                                "group size %zu in dimension %u is above the limit of %s (%u)", v,
                                d, in->spec, in->max_group_dims[d]);
        if (v > UINT32_MAX) return gp_error_set(GP_ERR_LAUNCH, "group size %zu is too large", v);
        g[d] = (uint32_t)v;
        total *= v;
    }
    if (total > k->max_group_size)
        return gp_error_set(GP_ERR_LAUNCH,
                            "a group of %llu work-items is above the limit of %u for kernel '%s' "
                            "on %s (%s); use a smaller group or pass NULL to let gpuport choose",
                            (unsigned long long)total, k->max_group_size, k->sig->name, in->spec,
                            in->name);
    return GP_OK;
}

gp_status gp_kernel_launch(gp_queue *queue, gp_kernel *kernel, uint32_t dims, const size_t *global,
                           const size_t *group, uint32_t num_args, const gp_arg *args)
{
    if (!kernel || !global)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_kernel_launch: NULL kernel or global size");
    gp_device_state *dev = kernel->program->dev;
    if (!queue) queue = dev->default_queue;
    if (queue->dev != dev)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_kernel_launch: the queue is on %s, the kernel on %s",
                            queue->dev->info.spec, dev->info.spec);
    if (dims < 1 || dims > 3)
        return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                            "gp_kernel_launch: %u dimensions (use 1, 2 or 3)", dims);
    for (uint32_t d = 0; d < dims; d++)
        if (global[d] == 0 || global[d] > 0x7fffffffu)
            return gp_error_set(GP_ERR_INVALID_ARGUMENT,
                                "gp_kernel_launch: global size %zu in dimension %u (use 1..2^31-1)",
                                global[d], d);
    gp_launch l = {0};
    gp_status st = gp_check_args(kernel, num_args, args, &l.dyn_shared_bytes);
    if (st != GP_OK) return st;
    const uint32_t *req = kernel->sig->req_group;
    if (req[0]) {
        /* a kernel written for one group shape (GP_REQUIRES_GROUP_SIZE): that one, or refused */
        size_t want[3] = {req[0], req[1], req[2]};
        for (uint32_t d = dims; d < 3; d++)
            if (req[d] != 1)
                return gp_error_set(GP_ERR_LAUNCH,
                                    "kernel '%s' requires a group of %u x %u x %u work-items "
                                    "(GP_REQUIRES_GROUP_SIZE): launch it in %u dimensions",
                                    kernel->sig->name, req[0], req[1], req[2], d + 1);
        for (uint32_t d = 0; group && d < dims; d++)
            if (group[d] != want[d])
                return gp_error_set(GP_ERR_LAUNCH,
                                    "kernel '%s' requires a group of %u x %u x %u work-items "
                                    "(GP_REQUIRES_GROUP_SIZE: its code relies on that shape), "
                                    "launched with %zu in dimension %u",
                                    kernel->sig->name, req[0], req[1], req[2], group[d], d);
        st = gp_check_group(kernel, dims, want, l.group);
    } else if (group)
        st = gp_check_group(kernel, dims, group, l.group);
    else
        gp_auto_group(kernel, dims, global, l.group);
    if (st != GP_OK) return st;
    const gp_device_info *in = &dev->info;
    uint64_t total = (uint64_t)l.group[0] * l.group[1] * l.group[2];
    if (kernel->sig->uses_simd && in->simd_group_width && total % in->simd_group_width)
        return gp_error_set(GP_ERR_LAUNCH,
                            "kernel '%s' uses SIMD-group operations, so its group must hold whole "
                            "SIMD groups: %llu work-items is not a multiple of %u, the SIMD width "
                            "of %s (%s)",
                            kernel->sig->name, (unsigned long long)total, in->simd_group_width,
                            in->spec, in->name);
    l.dims = dims;
    for (uint32_t d = 0; d < 3; d++) {
        size_t gsz = d < dims ? global[d] : 1;
        l.num_groups[d] = (uint32_t)((gsz + l.group[d] - 1) / l.group[d]);
    }
    l.num_args = num_args;
    l.args = args;
    if (!gp_tracing()) return dev->ops->kernel_launch(queue, kernel, &l);
    gp_trace_span sp;
    gp_trace_cmd_begin(queue, &sp);
    st = dev->ops->kernel_launch(queue, kernel, &l);
    gp_trace_cmd_end(queue, &sp, st, GP_TRACE_LAUNCH, kernel->sig->name, &kernel->trace_name, 0,
                     l.num_groups, l.group);
    return st;
}
