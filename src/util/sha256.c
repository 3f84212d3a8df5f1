/* sha256.c — see sha256.h. A thin wrapper over OpenSSL's EVP (Windows: the system's CNG) so the
 * rest of gpuport never sees either. */
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#if defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>
#else
#include <openssl/evp.h>
#include <unistd.h>
#endif

#include "util/thread.h"

#if defined(_WIN32)
/* Windows: the system's CNG (bcrypt.dll), so the Windows build needs no OpenSSL. */
struct gp_sha256 {
    BCRYPT_HASH_HANDLE hash;
};

/* one provider for the process, opened on first use and kept */
static gp_once gp_sha256_once = GP_ONCE_INIT;
static BCRYPT_ALG_HANDLE gp_sha256_alg;

static void gp_sha256_open_alg(void)
{
    if (!BCRYPT_SUCCESS(
            BCryptOpenAlgorithmProvider(&gp_sha256_alg, BCRYPT_SHA256_ALGORITHM, NULL, 0)))
        gp_sha256_alg = NULL;
}

gp_sha256 *gp_sha256_new(void)
{
    gp_once_call(&gp_sha256_once, gp_sha256_open_alg);
    if (!gp_sha256_alg) return NULL;
    gp_sha256 *h = malloc(sizeof *h);
    if (!h) return NULL;
    if (!BCRYPT_SUCCESS(BCryptCreateHash(gp_sha256_alg, &h->hash, NULL, 0, NULL, 0, 0))) {
        free(h);
        return NULL;
    }
    return h;
}

void gp_sha256_update(gp_sha256 *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len) {
        ULONG n = len > 0x40000000u ? 0x40000000u : (ULONG)len;
        BCryptHashData(h->hash, (PUCHAR)p, n, 0);
        p += n;
        len -= n;
    }
}

void gp_sha256_final_hex(gp_sha256 *h, char hex[65])
{
    unsigned char md[32] = {0};
    BCryptFinishHash(h->hash, md, sizeof md, 0);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    BCryptDestroyHash(h->hash);
    free(h);
}
#else
struct gp_sha256 {
    EVP_MD_CTX *ctx;
};

gp_sha256 *gp_sha256_new(void)
{
    gp_sha256 *h = malloc(sizeof *h);
    if (!h) return NULL;
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(h->ctx);
        free(h);
        return NULL;
    }
    return h;
}

void gp_sha256_update(gp_sha256 *h, const void *data, size_t len)
{
    if (len) EVP_DigestUpdate(h->ctx, data, len);
}

void gp_sha256_final_hex(gp_sha256 *h, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(h->ctx, md, &n);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    EVP_MD_CTX_free(h->ctx);
    free(h);
}

#endif

void gp_sha256_hex(const void *data, size_t len, char hex[65])
{
    gp_sha256 *h = gp_sha256_new();
    if (!h) {
        memset(hex, '0', 64);
        hex[64] = '\0';
        return;
    }
    gp_sha256_update(h, data, len);
    gp_sha256_final_hex(h, hex);
}

int gp_sha256_file(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen)
{
    int fd = gp_open_regular(path, 0, NULL, err, errlen);
    if (fd < 0) return -1;
#if defined(POSIX_FADV_SEQUENTIAL)
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    enum { BLOCK = 1 << 20 };
    unsigned char *buf = malloc(BLOCK);
    gp_sha256 *h = gp_sha256_new();
    if (!buf || !h) {
        free(buf);
        if (h) gp_sha256_final_hex(h, hex);
        close(fd);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, BLOCK);
        if (n < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            gp_sha256_final_hex(h, hex);
            free(buf);
            close(fd);
            snprintf(err, errlen, "%s: %s", path, strerror(e));
            return -1;
        }
        if (n == 0) break;
        gp_sha256_update(h, buf, (size_t)n);
        total += (uint64_t)n;
    }
    gp_sha256_final_hex(h, hex);
    free(buf);
    close(fd);
    if (size) *size = total;
    return 0;
}
