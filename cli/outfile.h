/* cli/outfile.h — the files a user names for the command's output (`run -o`, `sample -o`,
 * `demo --out`) are opened here, so that what a path names decides how it is written:
 *
 * - a regular file, or a path that does not exist yet: the output is built where no one sees it
 *   and put in place whole only on success; a failure or a signal leaves what was there before;
 * - a symbolic link: the same, for the file it points to (the link itself is left as it is);
 * - a FIFO, a character device or a terminal: written through, as `cat > PATH` would; renaming
 *   over one would turn /dev/null into a regular file or leave a FIFO's reader blocked forever;
 * - a directory, a socket or a block device: refused with a message.
 *
 * "Where no one sees it" is an unnamed file (Linux's O_TMPFILE) given its name only once it is
 * complete, so nothing survives even SIGKILL or a power cut; on a file system without unnamed
 * files it is a named temporary PATH.XXXXXX, removed on failure and by a handler of every signal
 * that can be caught and would end the process (crashes included). */
#ifndef MINK_CLI_OUTFILE_H
#define MINK_CLI_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

enum { CLI_PATH_MAX = 4096 };

typedef struct cli_outfile {
    FILE *file;                    ///< write here
    const char *path;              ///< as the user gave it, for messages
    char target[CLI_PATH_MAX];     ///< where the output lands: the path, or the file its links name
    int through;                   ///< 1: written in place (FIFO, device, terminal)
    int mode;                      ///< the mode of the file it replaces, or -1 for the umask's
} cli_outfile;

/// Opens PATH for writing as above. 0, or -1 with a message in err (the path and the reason).
int cli_outfile_open(cli_outfile *o, const char *path, char *err, size_t err_size);
/// Flushes and closes, then puts the output in place. 0, or -1 with a message in err; either
/// way the outfile is closed and no temporary is left.
int cli_outfile_commit(cli_outfile *o, char *err, size_t err_size);
/// Closes without putting anything in place (a file written through keeps what it was sent).
void cli_outfile_discard(cli_outfile *o);

#endif /* MINK_CLI_OUTFILE_H */
