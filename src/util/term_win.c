/* term_win.c — see term.h: Windows consoles. A console shows colour once its virtual terminal
 * mode is on (Windows 10 1511 and later); an older console, or a handle that is a pipe or a file,
 * gets none. */
#if defined(_WIN32)
#include "util/term.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>

#include "util/win.h"

static HANDLE gp_term_handle(FILE *f)
{
    intptr_t h = _get_osfhandle(_fileno(f));
    return h == -1 ? NULL : (HANDLE)h;
}

bool gp_term_reader_gone(FILE *f)
{
    if (errno == EPIPE) return true;
    /* The C runtime reports a write to a pipe whose reader closed (ERROR_NO_DATA) as EINVAL, and
     * errno may have moved on by the time the writer looks: a failed write to a pipe is taken for
     * its reader gone (a pipe write fails for little else). */
    HANDLE h = gp_term_handle(f);
    return h && GetFileType(h) == FILE_TYPE_PIPE;
}

bool gp_term_is_terminal(FILE *f)
{
    DWORD mode;
    HANDLE h = gp_term_handle(f);
    return h && _isatty(_fileno(f)) && GetConsoleMode(h, &mode);
}

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

bool gp_term_enable_vt(FILE *f)
{
    DWORD mode;
    HANDLE h = gp_term_handle(f);
    if (!h || !GetConsoleMode(h, &mode)) return false;
    if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return true;
    return SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

void gp_term_init(void)
{
    SetConsoleOutputCP(CP_UTF8);
    /* bytes as written: "\n" stays "\n" (a console shows it the same), and binary output and
     * input pass unchanged, as on POSIX */
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
}
#endif
