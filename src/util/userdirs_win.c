/* userdirs_win.c — see userdirs.h: the known folders (SHGetKnownFolderPath), which answer even
 * where %LOCALAPPDATA% is not in the environment (a service, a scrubbed environment); the
 * variables are the fallback. Paths come back with '/' separators, as gpuport joins them. */
#if defined(_WIN32)
#include "util/userdirs.h"

#include <initguid.h>
#include <knownfolders.h>
#include <shlobj.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/win.h"

static char *gp_slashes(char *s)
{
    for (char *p = s; p && *p; p++)
        if (*p == '\\') *p = '/';
    return s;
}

static char *gp_known_folder(REFKNOWNFOLDERID id, const char *var, char *err, size_t errlen)
{
    PWSTR w = NULL;
    char *s = NULL;
    if (SUCCEEDED(SHGetKnownFolderPath(id, KF_FLAG_DEFAULT, NULL, &w)) && w) s = gp_win_utf8(w);
    CoTaskMemFree(w);
    if (!s) {
        const char *env = getenv(var);
        if (env && *env) s = _strdup(env);
    }
    if (!s) snprintf(err, errlen, "%%%s%% is not set and Windows did not name the folder", var);
    return gp_slashes(s);
}

char *gp_user_cache_dir(char *err, size_t errlen)
{
    return gp_known_folder(&FOLDERID_LocalAppData, "LOCALAPPDATA", err, errlen);
}

char *gp_user_config_dir(char *err, size_t errlen)
{
    return gp_known_folder(&FOLDERID_RoamingAppData, "APPDATA", err, errlen);
}

char *gp_user_home(void)
{
    char err[64];
    return gp_known_folder(&FOLDERID_Profile, "USERPROFILE", err, sizeof err);
}
#endif
