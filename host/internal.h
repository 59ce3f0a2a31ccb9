/* host/internal.h — what the host files share and nobody else sees. */
#ifndef MINK_INTERNAL_H
#define MINK_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#ifdef MINK_FAULT_SEAM
#include "seam.h" /* the test-only build: OpenCL calls go through a counter that can fail them */
#endif

#include "core/body.h" /* the shared math, inline: the scalar loops call it */
#include "mink/mink.h"

/* Layouts the kernels rely on: the same bytes on the host and the device. */
_Static_assert(sizeof(mink_vec2) == 8, "mink_vec2 must be two packed floats");
_Static_assert(sizeof(mink_aabb) == 16, "mink_aabb must be 16 bytes");
_Static_assert(sizeof(mink_hit) == 32, "mink_hit must be 32 bytes");
_Static_assert(sizeof(mink_aabb_pair) == 48, "mink_aabb_pair must be 48 bytes");
_Static_assert(sizeof(mink_circle) == 12, "mink_circle must be 12 bytes");
_Static_assert(sizeof(mink_circle_pair) == 40, "mink_circle_pair must be 40 bytes");
_Static_assert(sizeof(mink_circle_aabb_pair) == 44, "mink_circle_aabb_pair must be 44 bytes");
_Static_assert(sizeof(mink_polygon) == 148, "mink_polygon must be 148 bytes");
_Static_assert(sizeof(mink_polygon_pair) == 312, "mink_polygon_pair must be 312 bytes");
_Static_assert(sizeof(mink_polygon_aabb_pair) == 180, "mink_polygon_aabb_pair must be 180 bytes");
_Static_assert(sizeof(mink_polygon_circle_pair) == 176, "mink_polygon_circle_pair must be 176 bytes");
_Static_assert(sizeof(mink_body) == 164, "mink_body must be 164 bytes");
_Static_assert(sizeof(mink_pair) == 328, "mink_pair must be 328 bytes");

/* The largest batch record: the per-launch pair limit keeps every buffer under the device's
 * allocation limit for it. */
#define MINK_MAX_RECORD_SIZE sizeof(mink_pair)

/* The most arrays a batch passes to its kernel: box columns, 12 in and 8 out. */
#define MINK_MAX_ARRAYS 20

/* The work-group size launches ask for (lowered to a kernel's own limit). */
#define MINK_LOCAL_SIZE 256

/* One kernel per batch kind; the table in program.c names them. */
typedef enum mink_kernel_id {
    MINK_KERNEL_SWEEP_AABB,
    MINK_KERNEL_SWEEP_CIRCLE,
    MINK_KERNEL_SWEEP_CIRCLE_AABB,
    MINK_KERNEL_SWEEP_POLYGON,
    MINK_KERNEL_SWEEP_POLYGON_AABB,
    MINK_KERNEL_SWEEP_POLYGON_CIRCLE,
    MINK_KERNEL_SWEEP_PAIR,
    MINK_KERNEL_SWEEP_ROTATING,
    MINK_KERNEL_SWEEP_AABB_SOA,
    MINK_KERNEL_SWEEP_CIRCLE_SOA,
    MINK_KERNEL_LAYOUT,
    /* The world's passes (kernels/world.cl). */
    MINK_KERNEL_WORLD_BOUNDS,
    MINK_KERNEL_MEASURE,
    MINK_KERNEL_MEASURE_TOP,
    MINK_KERNEL_RADIX_COUNT,
    MINK_KERNEL_RADIX_SCATTER,
    MINK_KERNEL_SCAN_SUM,
    MINK_KERNEL_SCAN_TOP,
    MINK_KERNEL_SCAN_APPLY,
    MINK_KERNEL_GRID_COUNT,
    MINK_KERNEL_GRID_EMIT,
    MINK_KERNEL_GRID_GATHER,
    MINK_KERNEL_GRID_PAIRS,
    MINK_KERNEL_WORLD_NARROW, /* boxes and circles; + 1: any shapes (kernels/world.cl) */
    MINK_KERNEL_WORLD_NARROW_POLYGON,
    MINK_KERNEL_WORLD_DEGREE,
    MINK_KERNEL_WORLD_RESOLVE,
    MINK_KERNEL_WORLD_RESOLVE_POLYGON,
    MINK_KERNEL_WORLD_SCATTER,
    MINK_KERNEL_WORLD_GATHER,
    MINK_KERNEL_WORLD_LAYOUT,
    MINK_KERNEL_COUNT
} mink_kernel_id;

struct mink_context {
    mink_backend backend;
    char device[300];
    char *error; /* heap: a build log can be long */
    mink_batch_stats stats;
    unsigned threads; /* for scalar-path batches: 1 or more */

    /* OpenCL; all NULL on the scalar path. */
    cl_device_id cl_device;
    cl_context cl;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernels[MINK_KERNEL_COUNT];
    int map_host_memory;         /* MINK_TRANSFER_MAP in effect */
    int world_layout_checked;    /* the world's records were checked against the device's */
    size_t max_pairs_per_launch; /* from the desc and the device's allocation limit */
    size_t local_size[MINK_KERNEL_COUNT]; /* work-group size per kernel; global sizes are its multiples */
    size_t pairs_per_item[MINK_KERNEL_COUNT]; /* batch pairs one work-item sweeps (MINK_RUN or 1) */
    /* MINK_TRANSFER_COPY: kept between calls, grown as needed; a batch's inputs first, then its
     * outputs (one each for records, 12 or 10 and 8 for columns). */
    cl_mem bufs[MINK_MAX_ARRAYS];
    size_t buf_sizes[MINK_MAX_ARRAYS];

    /* MINK_BACKEND_AUTO on a device: batches below auto_min[kernel] pairs take the scalar path.
     * auto_fixed: the desc gave one count for every kind; else each is measured on first use. */
    int auto_pick;
    int auto_fixed;
    size_t auto_min[MINK_KERNEL_LAYOUT];
    unsigned char auto_known[MINK_KERNEL_LAYOUT];
    /* Batches of MINK_AUTO_LARGE pairs or more: 0 not yet timed, else the path that won. */
    unsigned char auto_large[MINK_KERNEL_LAYOUT];
};

/* status.c: errors. Each sets the thread's last error and, if ctx is not NULL, the context's. */
mink_status mink__fail(mink_context *ctx, mink_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* An OpenCL call failed: the message names the call and the error, e.g. CL_OUT_OF_RESOURCES. */
mink_status mink__fail_cl(mink_context *ctx, const char *call, cl_int err);
const char *mink__cl_error_name(cl_int err);
/* Stores a note (not a failure) in the context's message. */
void mink__note(mink_context *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Checks an OpenCL error code; on failure records which call failed and with what error, and
 * jumps to `label` with `status` set. The _TRY form wraps a call that returns its error. */
#define MINK_CL_CHECK(ctx, name, err, label)                                                       \
    do {                                                                                           \
        if ((err) != CL_SUCCESS) {                                                                 \
            status = mink__fail_cl((ctx), (name), (err));                                          \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)
#define MINK_CL_TRY(ctx, call, label)                                                              \
    do {                                                                                           \
        cl_int mink_err_ = (call);                                                                 \
        MINK_CL_CHECK(ctx, #call, mink_err_, label);                                               \
    } while (0)

/* device.c: finds the device a desc asks for. On MINK_OK, *device is NULL only when AUTO found
 * no OpenCL platform or device (the scalar path), with the reason in `note`. */
mink_status mink__select_device(const mink_context_desc *desc, cl_device_id *device,
                                char *note, size_t note_size);
/* "device (platform)" */
void mink__device_label(cl_device_id device, char *out, size_t size);

/* program.c: builds the embedded program and its kernels into ctx. */
mink_status mink__program_build(mink_context *ctx);
/* Runs layout kernel id once: the device must agree with the host on each of the n record sizes
 * (MINK_KERNEL_LAYOUT: the batches' records, at build; MINK_KERNEL_WORLD_LAYOUT: the world's, at
 * its first world). MINK_ERR_NO_DEVICE with a message naming the record when they differ. */
mink_status mink__check_layout(mink_context *ctx, mink_kernel_id id, const cl_uint *host, int n);

/* scalar.c: the scalar path, one loop per batch kind. Only the rotating one reads desc. */
typedef void mink_scalar_fn(const void *in, size_t count, float dt, const mink_rotating_desc *desc,
                            mink_hit *hits);
mink_scalar_fn mink__scalar_sweep_aabb, mink__scalar_sweep_circle, mink__scalar_sweep_circle_aabb,
    mink__scalar_sweep_polygon, mink__scalar_sweep_polygon_aabb, mink__scalar_sweep_polygon_circle,
    mink__scalar_sweep_pair, mink__scalar_sweep_rotating;

/* scalar.c: pairs [0, n) of a columns batch, from in[k] to out[k] (each at the first pair):
 * 12 box or 10 circle columns in, mink_hit_soa's 8 out. */
typedef void mink_columns_fn(size_t n, float dt, const float *const *in, void *const *out);
mink_columns_fn mink__scalar_aabb_columns, mink__scalar_circle_columns;

/* threads.c: fn over [0, count) in contiguous runs on up to `threads` threads, the calling one
 * included, each run at least min_each long. A thread that cannot be started leaves its run to
 * the calling thread: the work is always done. */
typedef void mink_range_fn(void *job, size_t begin, size_t end);
void mink__parallel(unsigned threads, size_t count, size_t min_each, mink_range_fn *fn, void *job);

/* Pairs a scalar-path thread takes at least: starting one costs tens of microseconds, what a
 * core sweeps of the cheapest kind (boxes) in about as long. */
#define MINK_PAIRS_PER_THREAD 16384

/* What differs between batch kinds (batch.c's table): the rest is common code. */
typedef struct mink_batch_kind {
    const char *name;         /* the public function, for messages */
    mink_kernel_id kernel;    /* also the kind's index in the AUTO tables */
    size_t record_size;
    mink_scalar_fn *scalar;
    void (*sample)(size_t count, void *out); /* mink/sample.h pairs of this kind, for measuring */
    size_t sample_pairs;      /* how many to measure with: about a millisecond of scalar work */
} mink_batch_kind;

/* batch.c: one launch of kernel k over n pairs, from n_in arrays to n_out arrays whose elements
 * are in_size[j] and out_size[j] bytes, each pointer at the launch's first pair. */
typedef struct mink_launch {
    mink_kernel_id kernel;
    size_t n_in, n_out;
    const void *in[MINK_MAX_ARRAYS];
    void *out[MINK_MAX_ARRAYS];
    size_t in_size[MINK_MAX_ARRAYS], out_size[MINK_MAX_ARRAYS];
} mink_launch;
mink_status mink__launch(mink_context *ctx, const mink_launch *l, size_t n, float dt,
                         const mink_rotating_desc *desc, double *kernel_ms);

/* batch.c: the batch on the device, split into launches that fit it. */
mink_status mink__batch_opencl(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                               float dt, const mink_rotating_desc *desc, mink_hit *hits,
                               mink_batch_stats *stats);

/* batch.c: what every batch checks before touching its arrays. */
mink_status mink__check_batch(mink_context *ctx, const char *fn, const void *in, size_t in_size, void *out,
                              size_t out_size, size_t count, float dt);
/* batch.c: records a successful call's figures (begun at t0 on `path`) as the context's stats. */
void mink__batch_done(mink_context *ctx, mink_backend path, size_t count, size_t record_size, double t0,
                      mink_batch_stats *st);

/* batch.c: the batch on the scalar path, over the context's threads. */
void mink__batch_scalar(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                        float dt, const mink_rotating_desc *desc, mink_hit *hits);

/* auto.c: the pair count from which AUTO sends batches of this kind to the device (measured on
 * first use unless the desc fixed it). */
mink_status mink__auto_min_pairs(mink_context *ctx, const mink_batch_kind *kind, size_t *out);
/* The same for any batch: run(job, on_device, n) answers n of the job's m sample pairs on the
 * device or the scalar path; `slot` is the batch's kernel. */
typedef mink_status mink_auto_run_fn(mink_context *ctx, void *job, int on_device, size_t n);
mink_status mink__auto_measure(mink_context *ctx, mink_kernel_id slot, size_t m, mink_auto_run_fn *run,
                               void *job, size_t *out);

/* A batch's pairs [begin, end) on `path`, with launches and kernel time added to *st. */
typedef mink_status mink_range_run_fn(mink_context *ctx, void *job, mink_backend path, size_t begin, size_t end,
                                      mink_batch_stats *st);
/* auto.c: runs a batch of `count` pairs: on the context's backend, or for AUTO on the scalar path
 * below `least` pairs (mink__auto_min_pairs) and on the device above, except that from
 * MINK_AUTO_LARGE pairs on the path that was faster on the first such batch of the kind. *path is
 * the one that answered the last pairs. */
#define MINK_AUTO_LARGE ((size_t)1 << 20)
mink_status mink__auto_run(mink_context *ctx, mink_kernel_id slot, size_t count, size_t least, mink_range_run_fn *run,
                           void *job, mink_batch_stats *st, mink_backend *path);

/* status.c: monotonic milliseconds. */
double mink__now_ms(void);

#endif /* MINK_INTERNAL_H */
