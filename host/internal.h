/* host/internal.h — what the host files share and nobody else sees. */
#ifndef MINK_INTERNAL_H
#define MINK_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef MINK_FAULT_SEAM
#include "seam.h" /* the test-only build: OpenCL calls go through a counter that can fail them */
#endif

#include "core/body.h"  /* the shared math, inline: the scalar loops call it */
#include "core/parts.h" /* the batch kinds, and the parts of the device program */

/* Room for the world's arrays as kernel arguments (MINK_WORLD_ARRAYS; world_opencl.c checks). */
#define MINK_WORLD_BOUND_ARGS 40
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
_Static_assert(sizeof(mink_capsule_pair) == 56, "mink_capsule_pair must be 56 bytes");
_Static_assert(sizeof(mink_capsule_circle_pair) == 48, "mink_capsule_circle_pair must be 48 bytes");
_Static_assert(sizeof(mink_body) == 164, "mink_body must be 164 bytes");
_Static_assert(sizeof(mink_pair) == 328, "mink_pair must be 328 bytes");

/* The largest batch record: the per-launch pair limit keeps every buffer under the device's
 * allocation limit for it. */
#define MINK_MAX_RECORD_SIZE sizeof(mink_pair)

/* The most arrays a batch passes to its kernel: 12 box columns in, mink_hit_soa's 8 out. */
#define MINK_MAX_IN 12
#define MINK_MAX_OUT 8
#define MINK_MAX_ARRAYS (MINK_MAX_IN + MINK_MAX_OUT)

/* The work-group size launches ask for (lowered to a kernel's own limit), and for the kernels
 * whose work-items hold whole bodies and hulls (context.c says why). */
#define MINK_LOCAL_SIZE 256
/* MINK_TRANSFER_COPY batches: the sets of buffers their chunks alternate between, and the most
 * pairs a chunk (fewer when max_pairs_per_launch says so): enough to hide a launch's cost,
 * few enough that a batch of millions is many chunks, each transfer beside a kernel. */
#define MINK_COPY_SLOTS 2
#define MINK_COPY_CHUNK ((size_t)1 << 18)
#define MINK_LOCAL_SIZE_BODIES 64

/* One kernel per batch kind (core/kinds.h), then the layout check and the world's passes; the
 * table in program.c names them. A batch kind's kernel id is also its index in the kinds' tables. */
#define MINK_KIND_ID(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    MINK_KERNEL_SWEEP_##KIND,
typedef enum mink_kernel_id {
    MINK_BATCH_KINDS(MINK_KIND_ID)
    MINK_KERNEL_LAYOUT, /* also the number of batch kinds */
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
    MINK_KERNEL_WORLD_NARROW, /* boxes and circles; + 1: and polygons; + 2: any shapes (kernels/world.cl) */
    MINK_KERNEL_WORLD_NARROW_POLYGONS,
    MINK_KERNEL_WORLD_NARROW_HULLS,
    MINK_KERNEL_WORLD_DEGREE,
    MINK_KERNEL_WORLD_RESOLVE,
    MINK_KERNEL_WORLD_RESOLVE_POLYGONS,
    MINK_KERNEL_WORLD_RESOLVE_HULLS,
    MINK_KERNEL_WORLD_RESWEEP, /* + 1, + 2: as the narrowphase */
    MINK_KERNEL_WORLD_RESWEEP_POLYGONS,
    MINK_KERNEL_WORLD_RESWEEP_HULLS,
    MINK_KERNEL_WORLD_PICK,
    MINK_KERNEL_WORLD_PICK_POLYGONS,
    MINK_KERNEL_WORLD_PICK_HULLS,
    MINK_KERNEL_WORLD_FIRE,
    MINK_KERNEL_WORLD_SAFETY, /* + 1, + 2 */
    MINK_KERNEL_WORLD_SAFETY_POLYGONS,
    MINK_KERNEL_WORLD_SAFETY_HULLS,
    MINK_KERNEL_WORLD_PLACE,
    MINK_KERNEL_WORLD_IMPULSE_ROUNDS, /* + 1, + 2: a short list's rounds in one work-item */
    MINK_KERNEL_WORLD_IMPULSE_ROUNDS_POLYGONS,
    MINK_KERNEL_WORLD_IMPULSE_ROUNDS_HULLS,
    MINK_KERNEL_WORLD_SAFETY_ROUNDS, /* + 1, + 2: few pairs' safety rounds in one work-item */
    MINK_KERNEL_WORLD_SAFETY_ROUNDS_POLYGONS,
    MINK_KERNEL_WORLD_SAFETY_ROUNDS_HULLS,
    MINK_KERNEL_WORLD_FINAL_BOUNDS,
    MINK_KERNEL_ORDER_KEY,
    MINK_KERNEL_ORDER_GATHER,
    MINK_KERNEL_QUERY_BOUNDS,
    MINK_KERNEL_QUERY, /* + 1, + 2 */
    MINK_KERNEL_QUERY_POLYGONS,
    MINK_KERNEL_QUERY_HULLS,
    MINK_KERNEL_QUERY_MOVE, /* + 1, + 2 */
    MINK_KERNEL_QUERY_MOVE_POLYGONS,
    MINK_KERNEL_QUERY_MOVE_HULLS,
    MINK_KERNEL_WORLD_SCATTER,
    MINK_KERNEL_WORLD_GATHER,
    MINK_KERNEL_WORLD_LAYOUT,
    MINK_KERNEL_COUNT
} mink_kernel_id;
#undef MINK_KIND_ID
#define MINK_BATCH_KIND_COUNT MINK_KERNEL_LAYOUT

/* A call submitted with mink_batch_submit (async.c): at most one a context. */
typedef struct mink_async {
    mink_batch_desc desc;
    pthread_t thread;
    int running;        /* its thread started and not yet joined */
    int pending;        /* submitted and not yet waited for: the context is the call's */
    atomic_int done;    /* the call is over */
    mink_status status; /* its status, and its failure's message (heap), for the wait */
    char *message;
    uint64_t ticket;    /* the last submitted call's */
} mink_async;

typedef struct mink_pool mink_pool; /* threads.c */

struct mink_context {
    mink_backend backend;
    char device[300];
    char *error; /* heap: a build log can be long */
    mink_batch_stats stats;
    unsigned threads; /* for scalar-path batches and world passes: 1 or more */
    mink_pool *pool;  /* their threads besides the caller's, from the first split call (mink__split) */
    int pool_failed;  /* none would start: each call starts its own */
    void (*on_build)(const mink_build_info *, void *); /* the desc's, and its user pointer */
    void *on_build_user;

    /* OpenCL; all NULL on the scalar path. */
    cl_device_id cl_device;
    cl_context cl;
    cl_command_queue queue;
    /* The program's parts (core/parts.h), each built on its first use (mink__context_kernels),
     * and the kernels of those built; NULL until then. */
    cl_program programs[MINK_PART_COUNT];
    cl_kernel kernels[MINK_KERNEL_COUNT];
    /* The buffers a world pass kernel has bound (world_opencl.c's run_pass sets only the arguments
     * that changed); forgotten whenever a world buffer is made or freed. */
    cl_mem world_bound[MINK_KERNEL_COUNT][MINK_WORLD_BOUND_ARGS];
    int map_host_memory;         /* MINK_TRANSFER_MAP in effect */
    int cpu_device;              /* the device is a CPU (PoCL): one work-item runs as fast as any */
    int batch_layout_checked;    /* the batches' records were checked against the device's */
    size_t max_pairs_per_launch; /* from the desc and the device's allocation limit */
    size_t local_size[MINK_KERNEL_COUNT]; /* work-group size per kernel; global sizes are its multiples */
    size_t pairs_per_item[MINK_KERNEL_COUNT]; /* batch pairs one work-item sweeps (MINK_RUN or 1) */
    /* MINK_TRANSFER_COPY: a batch's chunks alternate between two sets of buffers, the second set
     * on a queue of its own (made when a batch first needs it), so that one chunk's transfers
     * overlap another's kernel. Kept between calls, grown as needed; a set holds a batch's inputs
     * first, then its outputs (one each for records, 12 or 10 and 8 for columns). */
    cl_command_queue queue2;
    cl_mem bufs[MINK_COPY_SLOTS][MINK_MAX_ARRAYS];
    size_t buf_sizes[MINK_COPY_SLOTS][MINK_MAX_ARRAYS];

    /* MINK_BACKEND_AUTO on a device: batches below auto_min[kernel] pairs take the scalar path.
     * auto_fixed: the desc gave one count for every kind; else each is measured on first use. */
    int auto_pick;
    int auto_fixed;
    size_t auto_min[MINK_BATCH_KIND_COUNT];
    unsigned char auto_known[MINK_BATCH_KIND_COUNT];
    /* Batches that are their own measurement (MINK_AUTO_LARGE pairs or more, MINK_AUTO_LARGE_MIXED
     * for mixed and turning ones: host/auto.c): 0 not yet timed, else the path that won; each
     * path's milliseconds a pair when last timed, and the large batches taken since. */
    unsigned char auto_large[MINK_BATCH_KIND_COUNT];
    double auto_rate[MINK_BATCH_KIND_COUNT][2];
    unsigned auto_since[MINK_BATCH_KIND_COUNT];
    mink_async async;
};

/* async.c: MINK_ERR_INVALID_ARGUMENT (the message naming fn) while a submitted call is in flight
 * on ctx, unless this is that call's own thread; settle joins the call's thread (the wait still
 * returns its status); release settles and forgets it (the context is going). */
mink_status mink__async_guard(mink_context *ctx, const char *fn);
void mink__async_settle(mink_context *ctx);
void mink__async_release(mink_context *ctx);

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

/* program.c: builds part `part` of the embedded program (core/parts.h) and its kernels into ctx;
 * the first batch part also checks the batches' records (the caller releases what a failure
 * leaves). */
mink_status mink__program_build(mink_context *ctx, int part);
/* program.c: the part kernel id is built in (-1: the batch layout check, in every batch part). */
int mink__kernel_part(mink_kernel_id id);
/* context.c: a part of the program and its kernels, built on the first call that needs them (a
 * batch of that kind on the device, AUTO's measurement, a world, a world step with polygons or
 * capsules): a context builds only what it uses, and never waits for a build it does not need. */
mink_status mink__context_kernels(mink_context *ctx, int part);
/* context.c: releases part `part` and its kernels (nothing half-built is kept: the next call that
 * needs the part builds it again). */
void mink__context_forget(mink_context *ctx, int part);
/* Runs layout kernel k once: the device must agree with the host on each of the n record sizes
 * ("batch": mink_layout_kernel, at the first batch part built; "world": mink_world_layout_kernel,
 * when the world's part is built). MINK_ERR_NO_DEVICE with a message naming the record when they
 * differ. */
mink_status mink__check_layout(mink_context *ctx, cl_kernel k, const char *what, const cl_uint *host, int n);

/* threads.c: fn over [0, count) in contiguous runs on up to `threads` threads, the calling one
 * included, each run at least min_each long. A thread that cannot be started leaves its run to
 * the calling thread: the work is always done. */
typedef void mink_range_fn(void *job, size_t begin, size_t end);
void mink__parallel(unsigned threads, size_t count, size_t min_each, mink_range_fn *fn, void *job);
/* threads.c: threads a context keeps for its scalar-path batches and world passes, from the first
 * call worth splitting to mink_context_destroy. mink__pool_create starts threads − 1 of them (NULL
 * when none would start); mink__pool_run is mink__parallel on them and the calling thread, one
 * caller at a time (a context runs one call at a time). mink__split: fn over [0, count) on the
 * context's threads, its pool's when it has one. */
mink_pool *mink__pool_create(unsigned threads);
void mink__pool_run(mink_pool *p, size_t count, size_t min_each, mink_range_fn *fn, void *job);
void mink__pool_destroy(mink_pool *p);
void mink__split(mink_context *ctx, size_t count, size_t min_each, mink_range_fn *fn, void *job);
/* threads.c: the cores the machine has online (at least 1, at most MINK_MAX_THREADS). */
unsigned mink__cores(void);

/* Pairs a scalar-path thread takes at least: starting one costs about what a core takes to sweep
 * this many pairs of the cheapest kind (boxes). */
#define MINK_PAIRS_PER_THREAD 16384

/* turning.c: mink__sweep_rotating and mink__sweep_bodies in the build for this processor (the
 * same bits in every build). */
mink_hit mink__built_sweep_rotating(mink_body a, mink_body b, float dt, mink_rotating_desc desc, uint32_t *iterations);
mink_hit mink__built_sweep_bodies(const mink_body *a, const mink_body *b, float dt);

/* A batch kind (core/kinds.h; the table in kinds.c): what differs between kinds. */
typedef void mink_scalar_fn(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                            void *const *out);
typedef struct mink_batch_kind {
    const char *name;      /* the public function, for messages */
    mink_kernel_id kernel; /* also the kind's index in the AUTO tables */
    size_t record_size;    /* bytes a pair takes in, as a record or across its columns */
    size_t arrays;         /* 1: records in, mink_hit out; n: n float columns in, 8 out */
    mink_scalar_fn *scalar; /* pairs [0, n) of the arrays, each pointer at the first pair */
    void (*sample)(size_t count, void *records); /* mink/sample.h records, for measuring */
    size_t sample_pairs;
    int runs;    /* the kernel sweeps MINK_RUN pairs per work-item */
    int turning; /* the kernel takes mink_rotating_desc's fields */
} mink_batch_kind;
extern const mink_batch_kind mink__batch_kinds[MINK_BATCH_KIND_COUNT];

/* scalar.c: the scalar loops, named after the kinds. */
#define MINK_KIND_SCALAR(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    mink_scalar_fn mink__scalar_##kind;
MINK_BATCH_KINDS(MINK_KIND_SCALAR)
#undef MINK_KIND_SCALAR

/* One batch, as the pipeline (batch.c) carries it: its arrays, each at the first pair. */
typedef struct mink_batch_job {
    const mink_batch_kind *kind;
    const void *in[MINK_MAX_IN];
    void *out[MINK_MAX_OUT];
    float dt;
    mink_rotating_desc desc;
} mink_batch_job;

/* batch.c: the one pipeline every batch takes. run: checks the arguments (`pairs` and `hits` are
 * what the caller passed, for the NULL checks' messages), asks AUTO for the path, sweeps, records
 * the figures. range: pairs [begin, end) on one path, launches and kernel time added to *st. */
mink_status mink__batch_run(mink_context *ctx, mink_batch_job *job, const void *pairs, const void *hits,
                            size_t count);
mink_status mink__batch_range(mink_context *ctx, const mink_batch_job *job, mink_backend path, size_t begin,
                              size_t end, mink_batch_stats *st);
/* The bytes a pair takes in input array k (out: output array k) of a kind. */
size_t mink__batch_in_size(const mink_batch_kind *kind);
size_t mink__batch_out_size(const mink_batch_kind *kind);
size_t mink__batch_outputs(const mink_batch_kind *kind);

/* auto.c: MINK_BACKEND_AUTO, the policy the pipeline asks where each slice of a batch goes.
 * begin measures the kind's threshold on its first batch (unless the desc fixed it); next gives
 * the path and end of the slice from `done`; took tells it how long that slice took. */
#define MINK_AUTO_LARGE ((size_t)1 << 20)
/* Mixed and turning batches are timed themselves from this size (host/auto.c, large_from). */
#define MINK_AUTO_LARGE_MIXED ((size_t)1 << 16)
/* AUTO sends batches of fewer pairs to the scalar path without measuring anything (so without
 * building the device's program): a few dozen microseconds of scalar work at most, less than a
 * device's round trip. */
#define MINK_AUTO_FLOOR 16u
#define MINK_AUTO_TURNS 4 /* slices of a first large batch timed on each path (host/auto.c) */
typedef struct mink_auto_plan {
    mink_kernel_id kind;
    size_t count, least, slice;
    int turn, measuring;
    double ms[2][MINK_AUTO_TURNS]; /* each slice's time, per path (scalar, device) */
} mink_auto_plan;
mink_status mink__auto_begin(mink_context *ctx, const mink_batch_job *job, size_t count, mink_auto_plan *plan);
void mink__auto_next(mink_context *ctx, mink_auto_plan *plan, size_t done, mink_backend *path, size_t *end);
void mink__auto_took(mink_context *ctx, mink_auto_plan *plan, mink_backend path, size_t pairs, double ms);

/* status.c: monotonic milliseconds. */
double mink__now_ms(void);

#endif /* MINK_INTERNAL_H */
