/* mink/mink.h — the runtime: contexts on an OpenCL device or the scalar path, and batches.
 *
 * A context is one device (or the scalar path) with its program, each part built once, when first
 * needed. Batches answer many queries in one call; their results are bit-identical on every
 * backend.
 *
 * Threads: a context is used by one thread at a time. Separate contexts may be created, used and
 * destroyed from separate threads at once, with the same results as on one thread (mink
 * serializes device discovery, whose first calls race in real ICD loaders). Errors are per
 * thread (mink_last_error) and per context. The functions in geom.h, polygon.h, rotating.h and body.h are pure and may be called
 * from anywhere.
 *
 * Errors: every function that can fail returns a mink_status. Its message is kept in the context
 * (mink_context_error) and, for every failure including those without a context, per thread
 * (mink_last_error). The library never prints and never aborts.
 */
#ifndef MINK_MINK_H
#define MINK_MINK_H

#include <stddef.h>
#include <stdint.h>

#include "mink/body.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MINK_VERSION_MAJOR 0
#define MINK_VERSION_MINOR 2
#define MINK_VERSION_PATCH 0

/// Every status with its message, in one list so that none can lack its text.
#define MINK_STATUS_LIST(X)                                                                        \
    X(MINK_OK, "ok")                                                                               \
    X(MINK_ERR_INVALID_ARGUMENT, "invalid argument")                                               \
    X(MINK_ERR_OUT_OF_MEMORY, "out of host memory")                                                \
    X(MINK_ERR_NO_DEVICE, "no usable OpenCL device")                                               \
    X(MINK_ERR_BUILD, "the OpenCL program did not build")                                          \
    X(MINK_ERR_OPENCL, "an OpenCL call failed")                                                    \
    X(MINK_ERR_CAPACITY, "a world step needs more pairs than its max_pairs allows")

typedef enum mink_status {
#define MINK_STATUS_ENUM_(name, text) name,
    MINK_STATUS_LIST(MINK_STATUS_ENUM_)
#undef MINK_STATUS_ENUM_
} mink_status;

typedef enum mink_backend {
    MINK_BACKEND_AUTO = 0, ///< the best OpenCL device (GPU before CPU), and the scalar path for batches too
                           ///< small to repay a launch (see auto_min_pairs); only the scalar path if there is no platform
    MINK_BACKEND_SCALAR,   ///< plain C on the calling thread (or more: see mink_context_desc.threads)
    MINK_BACKEND_OPENCL,   ///< an OpenCL device, or MINK_ERR_NO_DEVICE
} mink_backend;

/// How batch data reaches an OpenCL device.
typedef enum mink_transfer {
    MINK_TRANSFER_AUTO = 0, ///< MAP on devices that share host memory (CPUs), COPY on the others
    MINK_TRANSFER_MAP,      ///< wrap the caller's arrays (CL_MEM_USE_HOST_PTR): no copies on a CPU
    MINK_TRANSFER_COPY,     ///< copy through device buffers kept by the context
} mink_transfer;

/// What mink_context_desc.on_build hears: a part of the device's program starting to build, and
/// ending (done 1, with the build's seconds and status).
typedef struct mink_build_info {
    const char *part;   ///< what the part serves: a batch function's name, "mink_world_step", ...
    int done;           ///< 0: starting; 1: ended
    double seconds;     ///< the build's wall time, when done
    mink_status status; ///< when done: MINK_OK, or what the call that needed it returns
} mink_build_info;

/// Zeroed fields mean defaults; a NULL desc means all defaults.
typedef struct mink_context_desc {
    mink_backend backend;        ///< default MINK_BACKEND_AUTO
    const char *device;          ///< NULL: any; else a case-insensitive part of "device (platform)"
    size_t max_pairs_per_launch; ///< 0: what the device's allocation limit allows; smaller splits more
    mink_transfer transfer;      ///< default MINK_TRANSFER_AUTO
    /// With MINK_BACKEND_AUTO on a device: batches of fewer pairs than this run on the scalar path
    /// (the same bits, without a launch's fixed cost). 0: measured for each batch kind on its first
    /// AUTO batch, as the size where the device starts to win, or never when the scalar path (with
    /// `threads`) is faster a pair (a few milliseconds, once). Batches of 2^20 pairs or more, which
    /// stream through memory where the sample sat in the caches (2^16 or more for mixed and
    /// turning pairs, whose cost a pair depends on what the batch holds), take the path that was
    /// faster when such a batch of their kind was last timed (in eighths, on each path in turn):
    /// the first, then again after 16, or after one that ran 1.25 times slower a pair than the
    /// other path had. The bits are the same on either path. Any other value: that count, for
    /// every kind and size; 1: always the device. Ignored by the other backends.
    size_t auto_min_pairs;
    /// Threads a scalar-path batch is split over, the calling one included, each taking a
    /// contiguous run of pairs (the bits do not depend on it). 0: one a core the process may run
    /// on; 1: the calling thread only. Batches too small to repay waking a thread use fewer. A
    /// world on the scalar path splits each pass of its steps the same way. The context starts
    /// its threads at the first call worth splitting and keeps them until mink_context_destroy:
    /// between calls they wait, using no core. At most MINK_MAX_THREADS.
    unsigned threads;
    /// Called when a part of the device's program starts and ends building (see
    /// mink_context_create: each part on its first use, seconds on PoCL with an empty cache), on
    /// the thread of the call that needs it (a submitted call's own thread, for
    /// mink_batch_submit), with `on_build_user`: for a progress line or a loading screen. It
    /// must not call mink on this context. NULL: not called.
    void (*on_build)(const mink_build_info *info, void *user);
    void *on_build_user;
} mink_context_desc;

/// The most threads a context may use.
#define MINK_MAX_THREADS 256u

/// Box pairs as columns (a structure of arrays): pair i is box a from (a_min_x[i], a_min_y[i]) to
/// (a_max_x[i], a_max_y[i]) moving with (va_x[i], va_y[i]), and box b likewise: the fields of
/// mink_aabb_pair, one array each. Every array holds at least `count` floats of the call.
typedef struct mink_aabb_pair_soa {
    const float *a_min_x, *a_min_y, *a_max_x, *a_max_y;
    const float *va_x, *va_y;
    const float *b_min_x, *b_min_y, *b_max_x, *b_max_y;
    const float *vb_x, *vb_y;
} mink_aabb_pair_soa;

/// Circle pairs as columns: pair i is circle a at (a_x[i], a_y[i]) of radius a_radius[i] moving
/// with (va_x[i], va_y[i]), and circle b likewise: the fields of mink_circle_pair, one array each.
typedef struct mink_circle_pair_soa {
    const float *a_x, *a_y, *a_radius, *va_x, *va_y;
    const float *b_x, *b_y, *b_radius, *vb_x, *vb_y;
} mink_circle_pair_soa;

/// Circle–box pairs as columns: pair i is circle a at (a_x[i], a_y[i]) of radius a_radius[i]
/// moving with (va_x[i], va_y[i]) against box b from (b_min_x[i], b_min_y[i]) to (b_max_x[i],
/// b_max_y[i]) moving with (vb_x[i], vb_y[i]): the fields of mink_circle_aabb_pair, one array each.
typedef struct mink_circle_aabb_pair_soa {
    const float *a_x, *a_y, *a_radius, *va_x, *va_y;
    const float *b_min_x, *b_min_y, *b_max_x, *b_max_y, *vb_x, *vb_y;
} mink_circle_aabb_pair_soa;

/// Results as columns: element i of each array is that field of pair i's mink_hit. The arrays
/// must not overlap each other or the input.
///
/// Speed: separate large allocations start at the same offset in their pages, where the arrays
/// contend for the same cache sets; arrays that each start a 64-byte line further into the page
/// than the one before (or one block cut so) stream up to twice as fast. Without AVX-512, mink
/// copies crowded box columns a block at a time, which recovers part of it (docs/benchmarks.md,
/// "column layout").
/// The answers do not depend on the layout.
typedef struct mink_hit_soa {
    float *t, *normal_x, *normal_y, *depth, *point_x, *point_y, *t_exit;
    uint32_t *flags;
} mink_hit_soa;

typedef struct mink_context mink_context;

/// Figures from the last batch call on a context.
typedef struct mink_batch_stats {
    size_t pairs;      ///< queries answered
    size_t launches;   ///< kernel launches (chunks); 0 on the scalar path
    double kernel_ms;  ///< time in the kernels (OpenCL profiling), or in the scalar loop
    double total_ms;   ///< wall time of the whole call, transfers included
    size_t bytes_in;   ///< bytes of input records read
    size_t bytes_out;  ///< bytes of results written
    mink_backend backend; ///< the path that answered (the last pairs, for AUTO's first large batch of a
                          ///< kind): MINK_BACKEND_SCALAR or MINK_BACKEND_OPENCL
} mink_batch_stats;

/// One OpenCL device as mink sees it.
typedef struct mink_device_info {
    char name[128];         ///< CL_DEVICE_NAME
    char platform[128];     ///< CL_PLATFORM_NAME
    char version[128];      ///< CL_DEVICE_VERSION
    int is_gpu;             ///< CL_DEVICE_TYPE_GPU
    int usable;             ///< 0 when mink cannot give bit-identical results on it (see reason)
    int is_default;         ///< the device MINK_BACKEND_AUTO picks
    uint32_t compute_units; ///< CL_DEVICE_MAX_COMPUTE_UNITS
    uint64_t global_mem;    ///< bytes, CL_DEVICE_GLOBAL_MEM_SIZE
    uint64_t max_alloc;     ///< bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE
    char reason[128];       ///< why not usable, or ""
} mink_device_info;

/// The status's name and meaning, e.g. "MINK_ERR_OPENCL: an OpenCL call failed". Never NULL.
const char *mink_status_string(mink_status status);

/// The message of the last failure of a mink call on this thread, or "". Never NULL.
const char *mink_last_error(void);

/// Lists the OpenCL devices. Writes up to `capacity` entries to `out` (which may be NULL when
/// capacity is 0) and the total number found to `*count`. No OpenCL platform is not an error:
/// `*count` is 0 then.
mink_status mink_device_list(mink_device_info *out, size_t capacity, size_t *count);

/// Creates a context; `desc` may be NULL. On failure `*out` is NULL and mink_last_error() says why.
/// The device's program is built in parts, each on its first use, not here: a batch kind's kernel
/// at the first batch of that kind sent to the device (or AUTO's first measurement of it), a
/// world's passes at its first world, those for polygons and capsules at the first step that has
/// them, the queries at the first query. That call takes the build's time (seconds on PoCL with an
/// empty kernel cache; `mink devices` says where the cache is; mink_context_desc.on_build hears
/// each build start and end), or fails with MINK_ERR_BUILD and
/// the compiler's log, leaving everything as it was, and the next call tries again. Under AUTO,
/// batches of fewer than 16 pairs take the scalar path and build nothing.
mink_status mink_context_create(const mink_context_desc *desc, mink_context **out);
/// Releases everything the context holds. NULL is ignored.
void mink_context_destroy(mink_context *ctx);
/// MINK_BACKEND_SCALAR or MINK_BACKEND_OPENCL: what AUTO chose. An AUTO context on a device still
/// answers small batches on the scalar path; mink_batch_stats.backend says which path a call took.
mink_backend mink_context_backend(const mink_context *ctx);
/// "scalar", or "device name (platform name)".
const char *mink_context_device(const mink_context *ctx);
/// The last error on this context in words, with any build log; or a note such as AUTO falling
/// back to the scalar path; or "". Never NULL.
const char *mink_context_error(const mink_context *ctx);
/// Figures from the last successful batch call.
mink_batch_stats mink_context_stats(const mink_context *ctx);

/// Sweeps `count` box pairs over a step of `dt` (finite, >= 0) and writes one hit per pair, in
/// order. Batches of any size are split to fit the device. count == 0 is fine. A pair with invalid
/// geometry gets a MINK_HIT_INVALID result and leaves the others untouched; bad arguments (NULL
/// with count > 0, a bad dt, a byte count that overflows) return MINK_ERR_INVALID_ARGUMENT.
/// Every batch, of every kind: the hits (or hit columns) must not overlap the pairs (or pair
/// columns). In place is refused with MINK_ERR_INVALID_ARGUMENT and nothing is written: a batch
/// reads its pairs in blocks and runs, so hits written over pairs not yet read would change answers.
mink_status mink_batch_sweep_aabb(mink_context *ctx, const mink_aabb_pair *pairs, size_t count,
                                  float dt, mink_hit *hits);

/// mink_batch_sweep_aabb on columns: the same answers, bit for bit, written field by field. A
/// record per pair keeps a CPU from sweeping several pairs per instruction; columns let it (see
/// docs/benchmarks.md for what that is worth). The same argument checks, and a NULL array in either
/// struct with count > 0 is MINK_ERR_INVALID_ARGUMENT.
mink_status mink_batch_sweep_aabb_soa(mink_context *ctx, const mink_aabb_pair_soa *pairs, size_t count,
                                      float dt, const mink_hit_soa *hits);

/// The same for circle pairs (mink_sweep_circle on each).
mink_status mink_batch_sweep_circle(mink_context *ctx, const mink_circle_pair *pairs, size_t count,
                                    float dt, mink_hit *hits);

/// mink_batch_sweep_circle on columns, as mink_batch_sweep_aabb_soa is for boxes: the same
/// answers, bit for bit, the same checks.
mink_status mink_batch_sweep_circle_soa(mink_context *ctx, const mink_circle_pair_soa *pairs, size_t count,
                                        float dt, const mink_hit_soa *hits);

/// The same for circle–box pairs (mink_sweep_circle_aabb on each).
mink_status mink_batch_sweep_circle_aabb(mink_context *ctx, const mink_circle_aabb_pair *pairs,
                                         size_t count, float dt, mink_hit *hits);

/// mink_batch_sweep_circle_aabb on columns, as mink_batch_sweep_aabb_soa is for boxes: the same
/// answers, bit for bit, the same checks.
mink_status mink_batch_sweep_circle_aabb_soa(mink_context *ctx, const mink_circle_aabb_pair_soa *pairs,
                                             size_t count, float dt, const mink_hit_soa *hits);

/// A mixed batch: each pair holds two tagged bodies of any shape, in either order (a box–circle
/// pair gives the mirror of circle–box: the normal reversed). Results come back in input order.
/// A pair where a box, polygon or capsule turns is answered by conservative advancement with the default
/// mink_rotating_desc (see mink_sweep_bodies).
mink_status mink_batch_sweep(mink_context *ctx, const mink_pair *pairs, size_t count, float dt,
                             mink_hit *hits);

/// The same for polygon pairs (mink_sweep_polygon on each: swept SAT, no turning). Polygons of
/// any vertex counts may share a batch.
mink_status mink_batch_sweep_polygon(mink_context *ctx, const mink_polygon_pair *pairs, size_t count,
                                     float dt, mink_hit *hits);

/// The same for polygon–box pairs (mink_sweep_polygon_aabb on each).
mink_status mink_batch_sweep_polygon_aabb(mink_context *ctx, const mink_polygon_aabb_pair *pairs,
                                          size_t count, float dt, mink_hit *hits);

/// The same for polygon–circle pairs (mink_sweep_polygon_circle on each).
mink_status mink_batch_sweep_polygon_circle(mink_context *ctx, const mink_polygon_circle_pair *pairs,
                                            size_t count, float dt, mink_hit *hits);

/// The same for capsule pairs (mink_sweep_capsule on each): smaller records than the mixed
/// batch's and no branch on the shapes (docs/benchmarks.md says what that is worth).
mink_status mink_batch_sweep_capsule(mink_context *ctx, const mink_capsule_pair *pairs, size_t count,
                                     float dt, mink_hit *hits);

/// The same for capsule–circle pairs (mink_sweep_capsule_circle on each).
mink_status mink_batch_sweep_capsule_circle(mink_context *ctx, const mink_capsule_circle_pair *pairs,
                                            size_t count, float dt, mink_hit *hits);

/// Turning bodies: mink_sweep_rotating on each pair, with `desc` (NULL: all defaults) for every
/// pair. A desc whose target is negative or not finite is MINK_ERR_INVALID_ARGUMENT.
mink_status mink_batch_sweep_rotating(mink_context *ctx, const mink_pair *pairs, size_t count, float dt,
                                      const mink_rotating_desc *desc, mink_hit *hits);

/// Rays against bodies: mink_cast_ray on each record (mink/body.h says what a hit means: the ray
/// is a point swept along it, the body stands still). A ray's bad input (NaN, infinity, an
/// invalid body) marks its own hit INVALID.
mink_status mink_batch_cast_ray(mink_context *ctx, const mink_ray_cast *casts, size_t count, mink_hit *hits);

/* ---- batches that don't block -------------------------------------------------------------------
 * A game hands over a frame's batch and goes on with its own work: mink_batch_submit starts the
 * call on a thread of its own and returns a ticket; mink_batch_wait returns the call's status once
 * it is done (mink_batch_poll says whether it is). The call is the blocking one, so its answers
 * are the same bits. Until the wait, the inputs must stay alive and unchanged, the outputs must
 * not be read, and the context (and a stepped world) belong to the call: any other call on them
 * fails with MINK_ERR_INVALID_ARGUMENT and changes nothing (the stats read as zeros, the context's
 * error as a note that a call is in flight); one call is in flight a context. Destroying the
 * context, or a world of it, waits for the call first. */

/// Which blocking call mink_batch_submit makes.
typedef enum mink_batch_call {
    MINK_CALL_SWEEP_AABB = 1,     ///< mink_batch_sweep_aabb
    MINK_CALL_SWEEP_AABB_SOA,     ///< mink_batch_sweep_aabb_soa (pairs: a mink_aabb_pair_soa, hits_soa)
    MINK_CALL_SWEEP_CIRCLE,       ///< mink_batch_sweep_circle
    MINK_CALL_SWEEP_CIRCLE_SOA,   ///< mink_batch_sweep_circle_soa (pairs: a mink_circle_pair_soa, hits_soa)
    MINK_CALL_SWEEP_CIRCLE_AABB,  ///< mink_batch_sweep_circle_aabb
    MINK_CALL_SWEEP,              ///< mink_batch_sweep
    MINK_CALL_SWEEP_POLYGON,      ///< mink_batch_sweep_polygon
    MINK_CALL_SWEEP_POLYGON_AABB, ///< mink_batch_sweep_polygon_aabb
    MINK_CALL_SWEEP_POLYGON_CIRCLE, ///< mink_batch_sweep_polygon_circle
    MINK_CALL_SWEEP_ROTATING,     ///< mink_batch_sweep_rotating (with `rotating`)
    MINK_CALL_CAST_RAY,           ///< mink_batch_cast_ray
    MINK_CALL_WORLD_STEP,         ///< mink_world_step of `world` (on this context) by dt
    MINK_CALL_SWEEP_CAPSULE,      ///< mink_batch_sweep_capsule
    MINK_CALL_SWEEP_CAPSULE_CIRCLE, ///< mink_batch_sweep_capsule_circle
    MINK_CALL_SWEEP_CIRCLE_AABB_SOA, ///< mink_batch_sweep_circle_aabb_soa (a mink_circle_aabb_pair_soa, hits_soa)
    MINK_CALL_COUNT
} mink_batch_call;

/// One call for mink_batch_submit: its arguments as the blocking function takes them.
typedef struct mink_batch_desc {
    mink_batch_call call;
    const void *pairs;           ///< the records, or the columns' struct
    size_t count;
    float dt;
    mink_hit *hits;              ///< a records call's hits
    const mink_hit_soa *hits_soa; ///< a columns call's hits
    mink_rotating_desc rotating; ///< MINK_CALL_SWEEP_ROTATING's (zeroed: defaults)
    struct mink_world *world;    ///< MINK_CALL_WORLD_STEP's (mink/world.h)
} mink_batch_desc;

/// A submitted call, for mink_batch_wait and mink_batch_poll. Never 0.
typedef struct mink_ticket {
    uint64_t id;
} mink_ticket;

/// Starts the call on a thread of its own (or, if no thread can start, makes it now) and writes
/// its ticket. Fails with nothing started when the desc is bad (an unknown call, NULL, a world of
/// another context) or a call is still in flight on the context.
mink_status mink_batch_submit(mink_context *ctx, const mink_batch_desc *batch, mink_ticket *ticket);
/// Waits for the call, then returns its status (its message in mink_context_error and
/// mink_last_error, as the blocking call leaves them). A ticket is waited for once.
mink_status mink_batch_wait(mink_context *ctx, mink_ticket ticket);
/// *done = 1 when the call is over (mink_batch_wait then returns at once), else 0.
mink_status mink_batch_poll(mink_context *ctx, mink_ticket ticket, int *done);

#ifdef __cplusplus
}
#endif

#endif /* MINK_MINK_H */
