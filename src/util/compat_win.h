/* compat_win.h — the POSIX functions and constants that gpuport's tools call and the Windows C
 * runtimes (MinGW-w64's, Microsoft's) lack, in their Windows form, so that the tools compile
 * unchanged. CMake includes this header first in every file of a Windows build (-include, /FI);
 * it is never included by hand. The larger differences (threads, libraries, mappings,
 * processes, folders, terminals) have an API of their own in src/util/ instead.
 * Semantics that differ, on purpose:
 *  - lstat is stat (a Windows link is reported as what it points to), S_ISLNK is never true;
 *  - readlink fails with EINVAL (no link is ever found), symlink creates a Windows symbolic
 *    link when the system allows it (Developer Mode or the privilege), else fails with EPERM;
 *  - realpath answers with forward slashes ("C:/Users/ann/proj"), as the tools join paths;
 *  - mkdir's mode is ignored (a new folder inherits its parent's access control list);
 *  - O_CLOEXEC and FD_CLOEXEC mean "not inherited by child processes", as they do on POSIX;
 *  - open and fopen never translate line ends (as on POSIX: every reader accepts CRLF itself);
 *  - the file functions take UTF-8 paths, whatever the process's code page, and paths longer
 *    than MAX_PATH (the \\?\ form), through the system's UTF-16 calls;
 *  - rename replaces an existing file, as rename(2) does;
 *  - access(X_OK) asks whether the file exists (Windows has no execute bit). */
#ifndef GP_UTIL_COMPAT_WIN_H
#define GP_UTIL_COMPAT_WIN_H
#if defined(_WIN32)

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#if defined(__MINGW32__)
#include <unistd.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#ifndef O_BINARY
#define O_BINARY _O_BINARY
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#define F_GETFD    1
#define F_SETFD    2
#define F_GETFL    3 /* the status flags: O_RDONLY (Windows has no O_NONBLOCK on files) */
#define F_SETFL    4 /* accepted, and nothing to set */
#define FD_CLOEXEC 1
int gp_compat_fcntl(int fd, int cmd, ...);
#define fcntl gp_compat_fcntl

#ifndef S_ISSOCK
#define S_ISSOCK(m) 0
#endif
#ifndef S_ISLNK
#define S_ISLNK(m) 0
#endif
#ifndef S_IFLNK
#define S_IFLNK 0
#endif
int gp_compat_lstat(const char *path, struct stat *st);
#define lstat gp_compat_lstat
ssize_t gp_compat_readlink(const char *path, char *buf, size_t n);
#define readlink gp_compat_readlink
int gp_compat_symlink(const char *target, const char *link);
#define symlink gp_compat_symlink
char *gp_compat_realpath(const char *path, char *resolved);
#define realpath gp_compat_realpath
int gp_compat_mkdir(const char *path, int mode);
#define mkdir(p, m) gp_compat_mkdir((p), (m))
char *gp_compat_mkdtemp(char *tmpl);
#define mkdtemp gp_compat_mkdtemp
/* MinGW's dirent has no d_type: every entry's type is unknown (see GP_DIRENT_TYPE in fs.h)
 * and a folder has no descriptor of its own */
#ifndef DT_UNKNOWN
#define DT_UNKNOWN 0
#define DT_DIR     4
#define DT_REG     8
#define DT_LNK     10
#endif
#define dirfd(d) ((void)(d), -1)
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

int gp_compat_open(const char *path, int flags, ...);
#define open(...) gp_compat_open(__VA_ARGS__)
FILE *gp_compat_fopen(const char *path, const char *mode);
#define fopen(p, m) gp_compat_fopen((p), (m))
int gp_compat_rename(const char *from, const char *to);
#define rename(a, b) gp_compat_rename((a), (b))
int gp_compat_unlink(const char *path);
#define unlink(p) gp_compat_unlink(p)
int gp_compat_remove(const char *path);
#define remove(p) gp_compat_remove(p)
int gp_compat_rmdir(const char *path);
#define rmdir(p) gp_compat_rmdir(p)
int gp_compat_access(const char *path, int mode);
#define access(p, m) gp_compat_access((p), (m))
#ifndef X_OK
#define X_OK 1
#endif
/* stat is _stat64 (64-bit sizes, _FILE_OFFSET_BITS=64); its calls go through UTF-16 too */
#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && defined(__MINGW32__)
int gp_compat_stat64(const char *path, struct _stat64 *st);
#define _stat64(p, s) gp_compat_stat64((p), (s))
#endif

int gp_compat_setenv(const char *name, const char *value, int overwrite);
int gp_compat_unsetenv(const char *name);
#define setenv   gp_compat_setenv
#define unsetenv gp_compat_unsetenv
char *gp_compat_strndup(const char *s, size_t n);
#define strndup gp_compat_strndup

/* a pipe of C descriptors, binary and not inherited (as O_CLOEXEC) */
#define pipe(fds) _pipe((fds), 65536, _O_BINARY | _O_NOINHERIT)

#define _SC_NPROCESSORS_ONLN 1
#define _SC_PHYS_PAGES       2
#define _SC_PAGESIZE         3
#define _SC_PAGE_SIZE        _SC_PAGESIZE
long gp_compat_sysconf(int name);
#define sysconf gp_compat_sysconf

#ifdef __cplusplus
}
#endif

#endif
#endif
