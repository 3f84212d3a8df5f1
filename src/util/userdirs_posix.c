/* userdirs_posix.c — see userdirs.h: XDG on Linux and the BSDs, ~/Library on macOS. An XDG
 * variable counts only when it holds an absolute path, as the XDG spec says. */
#if !defined(_WIN32)
#include "util/userdirs.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"

char *gp_user_home(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home) {
        struct passwd *pw = getpwuid(getuid());
        home = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
    }
    return home ? strdup(home) : NULL;
}

static char *gp_user_dir(const char *xdg_var, const char *xdg_default, const char *mac, char *err,
                         size_t errlen)
{
#if defined(__APPLE__)
    (void)xdg_var;
    (void)xdg_default;
    const char *below = mac;
#else
    (void)mac;
    const char *xdg = getenv(xdg_var);
    if (xdg && xdg[0] == '/') return strdup(xdg);
    const char *below = xdg_default;
#endif
    char *home = gp_user_home();
    if (!home) {
        snprintf(err, errlen, "HOME is not set");
        return NULL;
    }
    char *dir = gp_path_join(home, below);
    free(home);
    if (!dir) snprintf(err, errlen, "out of memory");
    return dir;
}

char *gp_user_cache_dir(char *err, size_t errlen)
{
    return gp_user_dir("XDG_CACHE_HOME", ".cache", "Library/Caches", err, errlen);
}

char *gp_user_config_dir(char *err, size_t errlen)
{
    return gp_user_dir("XDG_CONFIG_HOME", ".config", "Library/Application Support", err, errlen);
}
#endif
