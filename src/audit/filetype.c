/* filetype.c — which reader a file gets, from its name alone (no content sniffing, so the walk
 * stays cheap). */
#include <string.h>
#include <strings.h>

#include "audit/source.h"

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcasecmp(s + n - k, suf) == 0;
}

static bool starts_with(const char *s, const char *pre)
{
    return strncasecmp(s, pre, strlen(pre)) == 0;
}

static bool is_yaml(const char *n)
{
    return ends_with(n, ".yml") || ends_with(n, ".yaml");
}

gp_audit_lang gp_audit_lang_of(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (strcmp(name, "setup.py") == 0) return GP_AL_SETUP_PY;
    if (strcmp(name, "CMakeLists.txt") == 0) return GP_AL_CMAKE;
    if (strcmp(name, "pyproject.toml") == 0) return GP_AL_PYPROJECT;
    if (strcmp(name, "setup.cfg") == 0) return GP_AL_SETUP_CFG;
    if (strcmp(name, "Makefile") == 0 || strcmp(name, "makefile") == 0 ||
        strcmp(name, "GNUmakefile") == 0)
        return GP_AL_MAKE;
    if (starts_with(name, "Dockerfile") || starts_with(name, "Containerfile") ||
        ends_with(name, ".dockerfile"))
        return GP_AL_DOCKERFILE;
    if (is_yaml(name) && (starts_with(name, "docker-compose") || starts_with(name, "compose")))
        return GP_AL_COMPOSE;
    if (is_yaml(name) && (starts_with(name, "environment") || starts_with(name, "conda") ||
                          starts_with(name, "env.") || strstr(name, ".conda.") ||
                          strstr(name, "-env.") || strstr(name, "_env.")))
        return GP_AL_CONDA;
    if ((starts_with(name, "requirements") || starts_with(name, "constraints") ||
         strstr(name, "requirements.") || strstr(name, "-requirements") ||
         strstr(name, "_requirements")) &&
        (ends_with(name, ".txt") || ends_with(name, ".in")))
        return GP_AL_REQUIREMENTS;
    if (!dot) return GP_AL_NONE;
    dot++;
    static const struct {
        const char *ext;
        gp_audit_lang lang;
    } exts[] = {{"py", GP_AL_PYTHON},  {"pyi", GP_AL_PYTHON}, {"ipynb", GP_AL_NOTEBOOK},
                {"c", GP_AL_C},        {"h", GP_AL_C},        {"cc", GP_AL_C},
                {"cpp", GP_AL_C},      {"cxx", GP_AL_C},      {"hpp", GP_AL_C},
                {"hh", GP_AL_C},       {"hxx", GP_AL_C},      {"inl", GP_AL_C},
                {"cu", GP_AL_CUDA},    {"cuh", GP_AL_CUDA},   {"cmake", GP_AL_CMAKE},
                {"mk", GP_AL_MAKE},    {"mak", GP_AL_MAKE},   {"sh", GP_AL_SHELL},
                {"bash", GP_AL_SHELL}, {"metal", GP_AL_METAL}};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (strcmp(dot, exts[i].ext) == 0) return exts[i].lang;
    return GP_AL_NONE;
}
