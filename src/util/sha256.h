/* sha256.h — SHA-256 through OpenSSL's libcrypto (which uses the CPU's SHA extensions). */
#ifndef GP_UTIL_SHA256_H
#define GP_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_sha256 gp_sha256;

gp_sha256 *gp_sha256_new(void);
void gp_sha256_update(gp_sha256 *h, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL into hex[65], and frees h. */
void gp_sha256_final_hex(gp_sha256 *h, char hex[65]);
/* One-shot digest of a buffer, as hex. */
void gp_sha256_hex(const void *data, size_t len, char hex[65]);
/* Digest of a whole regular file (gp_open_regular), read in large blocks. 0, or -1 with
 * "PATH: reason" in err. */
int gp_sha256_file(const char *path, char hex[65], uint64_t *size, char *err, size_t errlen);

#endif
