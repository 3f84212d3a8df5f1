/* userdirs.h — the per-user folders where gpuport keeps things, each platform's own:
 *   cache   $XDG_CACHE_HOME or ~/.cache (Linux), ~/Library/Caches (macOS), %LOCALAPPDATA%
 *   config  $XDG_CONFIG_HOME or ~/.config (Linux), ~/Library/Application Support (macOS),
 *           %APPDATA% (Windows: the roaming profile, which follows the user between PCs)
 * POSIX side in userdirs_posix.c, Windows side (the known-folder API) in userdirs_win.c.
 * The folders are the base; each user of them adds "gpuport". */
#ifndef GP_UTIL_USERDIRS_H
#define GP_UTIL_USERDIRS_H

#include <stddef.h>

/* The variable a user sets to move the cache folder, for messages. */
#if defined(_WIN32)
#define GP_USER_CACHE_VAR "LOCALAPPDATA"
#elif defined(__APPLE__)
#define GP_USER_CACHE_VAR "HOME"
#else
#define GP_USER_CACHE_VAR "HOME"
#endif

/* The folder as a heap string (free() it), or NULL with the reason in err ("HOME is not set"). */
char *gp_user_cache_dir(char *err, size_t errlen);
char *gp_user_config_dir(char *err, size_t errlen);
/* The user's home folder ($HOME, else the account's; Windows: %USERPROFILE%), or NULL. */
char *gp_user_home(void);

#endif
