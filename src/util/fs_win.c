/* fs_win.c — see fs.h: the mapping primitives with CreateFileMapping and MapViewOfFile. The
 * mapping object is closed at once: the view keeps it, and the file, alive. "Don't need" is
 * VirtualUnlock on pages that were never locked, which takes them out of the working set.
 * Folders are listed with FindFirstFileExW, in UTF-16, so any name comes back as UTF-8. A folder
 * is the user's alone when its owner and its access list say so (GetNamedSecurityInfo). */
#if defined(_WIN32)
#include "util/fs.h"

#include <aclapi.h>
#include <errno.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "util/sys.h"
#include "util/win.h"

int gp_stat_entry(int dfd, const char *name, const char *path, struct stat *st)
{
    (void)dfd;
    (void)name;
    return lstat(path, st);
}

void *gp_map_fd(int fd, size_t len)
{
    intptr_t fh = _get_osfhandle(fd);
    if (fh == -1) {
        errno = EBADF;
        return NULL;
    }
    unsigned long long size = len;
    HANDLE m =
        CreateFileMappingW((HANDLE)fh, NULL, PAGE_READONLY, (DWORD)(size >> 32), (DWORD)size, NULL);
    if (!m) {
        errno = gp_win_errno(GetLastError());
        return NULL;
    }
    void *p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, len);
    DWORD code = p ? 0 : GetLastError();
    CloseHandle(m);
    if (!p) errno = gp_win_errno(code);
    return p;
}

void gp_unmap(const void *p, size_t len)
{
    (void)len;
    if (p) UnmapViewOfFile(p);
}

void gp_map_advise(const void *p, size_t len, gp_map_advice advice)
{
    uintptr_t page = gp_page_size(), a = (uintptr_t)p & ~(page - 1), b = (uintptr_t)p + len;
    if (!p || b <= a || advice != GP_MAP_DONTNEED) return;
    VirtualUnlock((void *)a, b - a);
}

int gp_dir_names(const char *dir, char ***names, size_t *count, char *err, size_t errlen)
{
    *names = NULL;
    *count = 0;
    size_t dl = strlen(dir);
    char *pattern = malloc(dl + 3);
    if (!pattern) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    memcpy(pattern, dir, dl);
    memcpy(pattern + dl, dl && (dir[dl - 1] == '/' || dir[dl - 1] == '\\') ? "*" : "/*", 3);
    wchar_t *w = gp_win_path(pattern);
    free(pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = w ? FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch, NULL, 0)
                 : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD code = GetLastError();
        /* an existing empty folder has no entries at all; a file is not a folder */
        char why[256];
        gp_win_error_text(code, why, sizeof why);
        snprintf(err, errlen, "%s: %s", dir,
                 code == ERROR_DIRECTORY || code == ERROR_PATH_NOT_FOUND ||
                         code == ERROR_FILE_NOT_FOUND
                     ? (gp_path_is_file(dir) ? "Not a directory" : "No such file or directory")
                     : why);
        return -1;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    do {
        if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 32;
            char **g = realloc(v, nc * sizeof *g);
            if (!g) {
                rc = -1;
                break;
            }
            v = g;
            cap = nc;
        }
        if (!(v[n] = gp_win_utf8(fd.cFileName))) {
            rc = -1;
            break;
        }
        n++;
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    if (rc != 0) {
        snprintf(err, errlen, "%s: out of memory", dir);
        gp_dir_names_free(v, n);
        return -1;
    }
    if (n) qsort(v, n, sizeof *v, gp_dir_name_cmp);
    *names = v;
    *count = n;
    return 0;
}
/* The groups that stand for "other users": everyone, every signed-in user, the machine's users,
 * guests, anonymous logons. */
static const char *gp_broad_group(PSID sid)
{
    static const struct {
        WELL_KNOWN_SID_TYPE type;
        const char *name;
    } groups[] = {{WinWorldSid, "Everyone"},
                  {WinAuthenticatedUserSid, "Authenticated Users"},
                  {WinBuiltinUsersSid, "Users"},
                  {WinBuiltinGuestsSid, "Guests"},
                  {WinAnonymousSid, "Anonymous"}};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (IsWellKnownSid(sid, groups[i].type)) return groups[i].name;
    return NULL;
}

/* Whoever owns `sid` may change its access list: only the user, the administrators and the
 * system are trusted owners. */
static bool gp_trusted_owner(PSID sid, PSID me)
{
    return EqualSid(sid, me) || IsWellKnownSid(sid, WinBuiltinAdministratorsSid) ||
           IsWellKnownSid(sid, WinLocalSystemSid);
}

/* One file or folder: its owner, then each grant (not only inherited by what it holds) of
 * `rights` to a broad group. 0 when it is trusted, else -1 with the reason in why. */
static int gp_acl_check(const char *path, PSID me, DWORD rights, const char *what, char *why,
                        size_t n)
{
    wchar_t *w = gp_win_path(path);
    if (!w) {
        snprintf(why, n, "%s, %s, has a name Windows cannot take", what, path);
        return -1;
    }
    PSID owner = NULL;
    PACL dacl = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    DWORD rc = GetNamedSecurityInfoW(w, SE_FILE_OBJECT,
                                     OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &owner,
                                     NULL, &dacl, NULL, &sd);
    free(w);
    if (rc != ERROR_SUCCESS) {
        snprintf(why, n, "%s, %s, does not say who may write there (error %lu)", what, path,
                 (unsigned long)rc);
        return -1;
    }
    int bad = 0;
    if (!owner || !gp_trusted_owner(owner, me)) {
        snprintf(why, n, "%s, %s, is owned by another user", what, path);
        bad = -1;
    } else if (!dacl) {
        snprintf(why, n, "%s, %s, has no access list: everyone may write there", what, path);
        bad = -1;
    } else {
        for (DWORD i = 0; i < dacl->AceCount && !bad; i++) {
            ACE_HEADER *ace = NULL;
            if (!GetAce(dacl, i, (void **)&ace) || ace->AceType != ACCESS_ALLOWED_ACE_TYPE ||
                (ace->AceFlags & INHERIT_ONLY_ACE))
                continue;
            ACCESS_ALLOWED_ACE *allow = (ACCESS_ALLOWED_ACE *)ace;
            const char *group = gp_broad_group((PSID)&allow->SidStart);
            if (group && (allow->Mask & rights)) {
                snprintf(why, n, "%s, %s, lets %s write there (its access list)", what, path,
                         group);
                bad = -1;
            }
        }
    }
    LocalFree(sd);
    return bad;
}

/* The user this process runs as, into `buf`; NULL with the reason in why. */
static PSID gp_process_user(void *buf, DWORD size, char *why, size_t n)
{
    HANDLE token = NULL;
    DWORD len = 0;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token) ||
        !GetTokenInformation(token, TokenUser, buf, size, &len)) {
        if (token) CloseHandle(token);
        snprintf(why, n, "this process's user cannot be told (error %lu)",
                 (unsigned long)GetLastError());
        return NULL;
    }
    CloseHandle(token);
    return ((TOKEN_USER *)buf)->User.Sid;
}

typedef union {
    TOKEN_USER user;
    unsigned char bytes[256];
} gp_token_user;

#define GP_RIGHTS_CHANGE (FILE_DELETE_CHILD | WRITE_DAC | WRITE_OWNER | GENERIC_ALL)
#define GP_RIGHTS_WRITE                                                                            \
    (GP_RIGHTS_CHANGE | FILE_WRITE_DATA | FILE_APPEND_DATA | DELETE | GENERIC_WRITE)

/* The folder: no other user may add, replace or remove what it holds, nor change who may.
 * Each folder above, up to the drive's: no other user may replace or remove what it holds, nor
 * change who may (adding beside it, as every user may in C:\, is harmless). */
void gp_dir_untrusted_why(const char *real, char *why, size_t n)
{
    why[0] = '\0';
    if (!gp_path_is_dir(real)) {
        snprintf(why, n, "it is not a folder");
        return;
    }
    gp_token_user tu;
    PSID me = gp_process_user(&tu, sizeof tu, why, n);
    if (!me || gp_acl_check(real, me, GP_RIGHTS_WRITE, "the folder", why, n) != 0) return;
    char *up = strdup(real);
    if (!up) {
        snprintf(why, n, "out of memory");
        return;
    }
    for (char *c = up; *c; c++)
        if (*c == '\\') *c = '/';
    /* stops below the root: "C:/x" is the last one checked */
    for (char *slash = strrchr(up, '/'); slash && slash > up + 2; slash = strrchr(up, '/')) {
        *slash = '\0';
        if (strchr(up, '/') == NULL) break; /* "C:" or "//server": the root itself */
        if (gp_acl_check(up, me, GP_RIGHTS_CHANGE, "the folder above it", why, n) != 0) break;
    }
    free(up);
}

void gp_file_untrusted_why(const char *path, char *why, size_t n)
{
    why[0] = '\0';
    struct stat st;
    if (lstat(path, &st) != 0) {
        snprintf(why, n, "%s", strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, n, "it is not a regular file");
        return;
    }
    gp_token_user tu;
    PSID me = gp_process_user(&tu, sizeof tu, why, n);
    if (me) gp_acl_check(path, me, GP_RIGHTS_WRITE, "the file", why, n);
}

#endif
