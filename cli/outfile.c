/* cli/outfile.c — output files put in place whole, or written through (see outfile.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the named temporary and the signals that must not leave it behind --------------------- */

/* One output is open at a time, so one name is enough; the handlers read it. */
static char tmp_name[CLI_PATH_MAX + 16];
static volatile sig_atomic_t tmp_live;
static int handlers_armed;

static void on_fatal_signal(int sig) {
    if (tmp_live) unlink(tmp_name); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig); /* delivered, with the default action, when the handler returns */
}

/* Every signal whose default action ends the process and that can be caught, crashes included.
 * A signal someone else already handles or ignores (a runtime, or a parent that ignores SIGPIPE)
 * keeps its disposition. Crashes on an overflowed stack need a stack of their own. */
static void arm_handlers(void) {
    if (handlers_armed) return;
    handlers_armed = 1;
    static const int fatal[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT,   SIGBUS,  SIGFPE,
                                SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,   SIGXCPU, SIGXFSZ,
                                SIGVTALRM, SIGPROF, SIGSYS, SIGIO,  SIGPWR,
#ifdef SIGSTKFLT
                                SIGSTKFLT,
#endif
    };
    static char alt_stack[1 << 16];
    stack_t old_stack;
    if (sigaltstack(NULL, &old_stack) == 0 && (old_stack.ss_flags & SS_DISABLE))
        sigaltstack(&(stack_t){.ss_sp = alt_stack, .ss_size = sizeof alt_stack}, NULL);
    struct sigaction sa = {.sa_handler = on_fatal_signal, .sa_flags = SA_ONSTACK};
    sigfillset(&sa.sa_mask);
    size_t n = sizeof fatal / sizeof fatal[0];
    for (int k = 0; k < (int)n + SIGRTMAX - SIGRTMIN + 1; k++) {
        int sig = k < (int)n ? fatal[k] : SIGRTMIN + (k - (int)n);
        struct sigaction old;
        if (sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
            sigaction(sig, &sa, NULL);
    }
}

/* Gives the temporary its name with every signal held, so a handler never sees a name half set.
 * Returns what the namer returns: a descriptor or 0, or -1 with errno set. */
typedef int (*namer)(int fd, char *name);

static int name_tmp(int fd, namer make) {
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int rc = make(fd, tmp_name);
    if (rc >= 0) tmp_live = 1;
    int saved = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return rc;
}

static int make_named(int fd, char *name) {
    (void)fd;
    return mkstemp(name);
}

/* ---- what a path names ---------------------------------------------------------------------- */

static int fail(char *err, size_t size, const char *path, const char *why) {
    snprintf(err, size, "%s: %s", path, why);
    return -1;
}

/* Follows symbolic links one at a time (a relative one from its own folder), so that a link to
 * a file that does not exist yet still names where the file will be. */
static int resolve_links(const char *path, char *out) {
    if (strlen(path) >= CLI_PATH_MAX) return errno = ENAMETOOLONG, -1;
    strcpy(out, path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0) return errno == ENOENT ? 0 : -1;
        if (!S_ISLNK(st.st_mode)) return 0;
        if (hops == 40) return errno = ELOOP, -1;
        char link[CLI_PATH_MAX];
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0) return -1;
        link[n] = '\0';
        char *slash = strrchr(out, '/');
        size_t dir = link[0] == '/' || slash == NULL ? 0 : (size_t)(slash - out) + 1;
        if (dir + (size_t)n >= CLI_PATH_MAX) return errno = ENAMETOOLONG, -1;
        memcpy(out + dir, link, (size_t)n + 1);
    }
}

static void folder_of(const char *path, char *dir) {
    const char *slash = strrchr(path, '/');
    if (slash == NULL) strcpy(dir, ".");
    else if (slash == path) strcpy(dir, "/");
    else memcpy(dir, path, (size_t)(slash - path)), dir[slash - path] = '\0';
}

/* ---- opening -------------------------------------------------------------------------------- */

/* An unnamed file in the target's folder, if the file system has them and /proc can name it. */
static int open_unnamed(const char *target) {
    char dir[CLI_PATH_MAX], proc[64];
    folder_of(target, dir);
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0) return -1;
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (access(proc, F_OK) != 0) return close(fd), -1;
    return fd;
}

static int unnamed_fd = -1; /* the unnamed file's descriptor, kept open until it is linked */

static int open_replacing(cli_outfile *o, char *err, size_t err_size) {
    int fd = open_unnamed(o->target);
    if (fd >= 0) {
        unnamed_fd = fd;
    } else {
        if ((size_t)snprintf(tmp_name, sizeof tmp_name, "%s.XXXXXX", o->target) >= sizeof tmp_name)
            return fail(err, err_size, o->path, strerror(ENAMETOOLONG));
        arm_handlers();
        fd = name_tmp(-1, make_named);
        if (fd < 0) return snprintf(err, err_size, "cannot write beside %s: %s", o->path, strerror(errno)), -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, o->mode >= 0 ? (mode_t)o->mode : 0666 & ~mask); /* as the file it replaces, or as fopen */
    o->file = fdopen(fd, "wb");
    if (o->file == NULL) {
        int saved = errno;
        cli_outfile_discard(o);
        close(fd);
        return fail(err, err_size, o->path, strerror(saved));
    }
    return 0;
}

int cli_outfile_open(cli_outfile *o, const char *path, char *err, size_t err_size) {
    memset(o, 0, sizeof *o);
    o->path = path;
    o->mode = -1;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return fail(err, err_size, path, strerror(EISDIR));
        if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
            int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC); /* a FIFO waits for its reader here */
            o->file = fd >= 0 ? fdopen(fd, "wb") : NULL;
            if (o->file == NULL) {
                int saved = errno;
                if (fd >= 0) close(fd);
                return fail(err, err_size, path, strerror(saved));
            }
            o->through = 1;
            return 0;
        }
        if (!S_ISREG(st.st_mode)) return fail(err, err_size, path, "not a regular file, FIFO or character device");
        o->mode = (int)(st.st_mode & 07777);
    } else if (errno != ENOENT) {
        return fail(err, err_size, path, strerror(errno));
    }
    if (resolve_links(path, o->target) != 0) return fail(err, err_size, path, strerror(errno));
    return open_replacing(o, err, err_size);
}

/* ---- putting it in place -------------------------------------------------------------------- */

/* Links the unnamed file at a fresh temporary name beside the target (then renamed over it). */
static int make_linked(int fd, char *name) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    static unsigned counter;
    for (int tries = 0; tries < 100; tries++) {
        size_t len = strlen(name);
        snprintf(name + len, 16, ".%06lx", ((unsigned long)getpid() * 7919u + (unsigned long)time(NULL) + counter++) & 0xffffffu);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) return 0;
        name[len] = '\0';
        if (errno != EEXIST) return -1;
    }
    return -1;
}

int cli_outfile_commit(cli_outfile *o, char *err, size_t err_size) {
    FILE *f = o->file;
    o->file = NULL;
    int ok = fflush(f) == 0 && !ferror(f), saved = errno;
    if (ok && unnamed_fd >= 0) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", unnamed_fd);
        /* A new path gets its name at once; an existing one through a temporary and a rename. */
        if (linkat(AT_FDCWD, proc, AT_FDCWD, o->target, AT_SYMLINK_FOLLOW) != 0) {
            arm_handlers();
            strcpy(tmp_name, o->target);
            ok = errno == EEXIST && name_tmp(unnamed_fd, make_linked) == 0;
            saved = errno;
        }
    }
    unnamed_fd = -1;
    if (fclose(f) != 0 && ok) ok = 0, saved = errno;
    if (ok && tmp_live && rename(tmp_name, o->target) != 0) ok = 0, saved = errno;
    if (tmp_live) {
        if (!ok) unlink(tmp_name);
        tmp_live = 0;
    }
    if (!ok) return snprintf(err, err_size, "writing %s: %s", o->path, strerror(saved)), -1;
    return 0;
}

void cli_outfile_discard(cli_outfile *o) {
    if (o->file != NULL) fclose(o->file);
    o->file = NULL;
    unnamed_fd = -1;
    if (tmp_live) unlink(tmp_name);
    tmp_live = 0;
}
