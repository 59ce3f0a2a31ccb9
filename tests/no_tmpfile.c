/* tests/no_tmpfile.c — preloaded under the command by test_cli: open(O_TMPFILE) fails as on a
 * file system without unnamed files, so the named temporary and its signal handlers are tested
 * too (cli/outfile.h). Built without sanitizers: it is loaded before their runtime. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>

typedef int (*open_fn)(const char *, int, ...);

static int refuse_or_open(const char *name, const char *path, int flags, va_list ap) {
    if ((flags & O_TMPFILE) == O_TMPFILE) return errno = EOPNOTSUPP, -1;
    open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
    return real(path, flags, (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0);
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    int fd = refuse_or_open("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    int fd = refuse_or_open("open64", path, flags, ap);
    va_end(ap);
    return fd;
}
