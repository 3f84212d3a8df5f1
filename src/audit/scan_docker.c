/* scan_docker.c — Dockerfiles (instructions, continuation lines joined, comments dropped) and
 * compose files (YAML read line by line): NVIDIA base images, GPU runtimes and device requests
 * (DOCKER-001). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "audit/lines.h"
#include "audit/scanners.h"

static bool nvidia_image(const char *p, size_t n)
{
    static const char *const hubs[] = {"docker.io/", "index.docker.io/",
                                       "registry.hub.docker.com/"};
    for (size_t i = 0; i < sizeof hubs / sizeof hubs[0]; i++) { /* Docker Hub spelled out */
        size_t k = strlen(hubs[i]);
        if (n > k && memcmp(p, hubs[i], k) == 0) {
            p += k;
            n -= k;
            break;
        }
    }
    if (n >= 11 && memcmp(p, "nvidia/cuda", 11) == 0) return true;
    if (n >= 14 && memcmp(p, "nvcr.io/nvidia", 14) == 0) return true;
    /* framework images with a CUDA tag: pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime */
    const char *colon = memchr(p, ':', n);
    if (colon) {
        size_t k = n - (size_t)(colon - p);
        for (size_t i = 0; i + 4 <= k; i++)
            if (strncasecmp(colon + i, "cuda", 4) == 0) return true;
    }
    return false;
}

/* A word of a RUN instruction that installs CUDA wheels: an index URL of PyTorch's CUDA builds
 * (`.../whl/cu118`, also after `--index-url=`), NVIDIA's index, or a `+cuNNN` version. */
static bool cuda_wheel_word(const char *w, size_t n)
{
    for (size_t i = 0; i + 4 < n; i++) {
        if (memcmp(w + i, "/cu", 3) == 0 && isdigit((unsigned char)w[i + 3]) && i >= 4 &&
            memcmp(w + i - 4, "/whl", 4) == 0)
            return true;
        if (memcmp(w + i, "+cu", 3) == 0 && isdigit((unsigned char)w[i + 3])) return true;
    }
    for (size_t i = 0; i + 15 <= n; i++)
        if (memcmp(w + i, "pypi.nvidia.com", 15) == 0) return true;
    return false;
}

void gp_audit_scan_dockerfile(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, true);
    gp_line l;
    const char *d = s->data;
    while (gp_line_next(&lr, &l)) {
        size_t p = l.off, e = l.off + l.len;
        while (p < e && isspace((unsigned char)d[p]))
            p++;
        if (p >= e) continue;
        if (d[p] == '#') {
            gp_audit_note_comment(r, d + p, e - p, l.line, true);
            continue;
        }
        size_t ks = p;
        while (p < e && isalpha((unsigned char)d[p]))
            p++;
        size_t kn = p - ks;
        /* words of the instruction */
        while (p < e) {
            while (p < e && (isspace((unsigned char)d[p]) || d[p] == '\\' || d[p] == '"' ||
                             d[p] == '[' || d[p] == ']' || d[p] == ','))
                p++;
            size_t ws = p;
            while (p < e && !isspace((unsigned char)d[p]) && d[p] != '"' && d[p] != ',' &&
                   d[p] != ']')
                p++;
            size_t wn = p - ws;
            if (wn == 0) {
                p++;
                continue;
            }
            const char *w = d + ws;
            uint32_t line;
            size_t lo;
            gp_line_locate(s, &l, ws, &line, &lo);
            bool hit = false;
            if (kn == 4 && strncasecmp(d + ks, "FROM", 4) == 0 && w[0] != '-')
                hit = nvidia_image(w, wn);
            if ((wn == 6 && memcmp(w, "--gpus", 6) == 0) ||
                (wn > 7 && memcmp(w, "--gpus=", 7) == 0))
                hit = true;
            if (wn >= 22 && memcmp(w, "NVIDIA_VISIBLE_DEVICES", 22) == 0) hit = true;
            if (hit) gp_audit_add(r, s, GP_R_DOCKER_001, false, line, lo, ws, wn);
            /* RUN pip install ... --index-url https://download.pytorch.org/whl/cu118, or
             * torch==2.1.0+cu118: a CUDA wheel the image installs */
            if (kn == 3 && strncasecmp(d + ks, "RUN", 3) == 0 && cuda_wheel_word(w, wn))
                gp_audit_add(r, s, GP_R_REQ_001, false, line, lo, ws, wn);
            if (kn == 4 && strncasecmp(d + ks, "FROM", 4) == 0 && w[0] != '-')
                break; /* one image */
        }
    }
}

void gp_audit_scan_compose(gp_audit_source *s, gp_audit_result *r)
{
    gp_line_reader lr;
    gp_line_reader_init(&lr, s, false);
    gp_line l;
    const char *d = s->data;
    while (gp_line_next(&lr, &l)) {
        size_t p = l.off, e = l.off + l.len;
        while (p < e && (d[p] == ' ' || d[p] == '\t' || d[p] == '-'))
            p++;
        for (size_t i = p; i < e; i++)
            if (d[i] == '#' && (i == p || isspace((unsigned char)d[i - 1]))) {
                gp_audit_note_comment(r, d + i, e - i, l.line, i == p);
                e = i;
                break;
            }
        while (e > p && isspace((unsigned char)d[e - 1]))
            e--;
        if (p >= e) continue;
        const char *colon = memchr(d + p, ':', e - p);
        if (!colon) continue;
        size_t kn = (size_t)(colon - (d + p));
        size_t v = (size_t)(colon - d) + 1;
        while (v < e && (d[v] == ' ' || d[v] == '"' || d[v] == '\''))
            v++;
        size_t ve = e;
        while (ve > v && (d[ve - 1] == '"' || d[ve - 1] == '\''))
            ve--;
        const char *k = d + p;
        bool hit = false;
        if ((kn == 7 && memcmp(k, "runtime", 7) == 0) || (kn == 6 && memcmp(k, "driver", 6) == 0))
            hit = ve - v == 6 && memcmp(d + v, "nvidia", 6) == 0;
        else if (kn == 5 && memcmp(k, "image", 5) == 0)
            hit = nvidia_image(d + v, ve - v);
        else if (kn == 4 && memcmp(k, "gpus", 4) == 0) /* compose's `gpus: all` */
            hit = ve > v;
        else if (kn == 12 && memcmp(k, "capabilities", 12) == 0)
            for (size_t i = v; i + 3 <= ve; i++)
                if (memcmp(d + i, "gpu", 3) == 0) hit = true;
        if (hit) gp_audit_add(r, s, GP_R_DOCKER_001, false, l.line, l.off, p, e - p);
    }
}
