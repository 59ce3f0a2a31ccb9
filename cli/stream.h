/* cli/stream.h — the machine's own memory bandwidth, measured the way STREAM does.
 *
 * Copy (c[i] = a[i]: 16 bytes an element) and triad (a[i] = b[i] + s*c[i]: 24 bytes) over arrays
 * far larger than the last-level cache, with 1 thread and with `threads` threads each on its own
 * slice (first touched by that thread). Bytes are counted as STREAM counts them: what the loop
 * reads and writes, not the cache's write-allocate reads. Best of `reps` runs, as STREAM reports. */
#ifndef MINK_CLI_STREAM_H
#define MINK_CLI_STREAM_H

#include <stddef.h>

typedef struct stream_result {
    double copy_gbs, triad_gbs; /* 1e9 bytes per second */
} stream_result;

/* Measures with arrays of `elements` doubles each (three arrays). Returns 0 when out of memory or
 * when a thread could not start. */
int stream_measure(size_t elements, int threads, int reps, stream_result *out);

#endif /* MINK_CLI_STREAM_H */
