/* host/world_opencl.c — the OpenCL backend of a world step (world_step.c): the passes of
 * core/step.h as kernels, the world's arrays as device buffers. The host reads back a few words a
 * step (the measure, the entry, pair and event counts) to size the buffers that follow; nothing
 * else leaves the device unless asked. */
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

/* A kernel argument: a buffer of the world, or a small value. */
typedef struct karg {
    size_t size;
    const void *value;
} karg;
#define ARG_BUF(w, b) ((karg){sizeof(cl_mem), &(w)->buf[b].mem})
#define ARG_U32(x) ((karg){sizeof(cl_uint), &(cl_uint){(cl_uint)(x)}})
#define ARGS(...) (const karg[]){__VA_ARGS__}, sizeof((const karg[]){__VA_ARGS__}) / sizeof(karg)

#ifdef MINK_PASS_PROFILE
/* A developer's build (cmake -DMINK_PASS_PROFILE=ON): each world kernel timed with the queue
 * drained before and after it (so the sum exceeds a normal step by the drains), each blocking read
 * too; the table, per step, goes to stderr at exit. One world at a time. */
#include <stdio.h>
static struct {
    char name[MINK_KERNEL_COUNT + 1][48];
    double ms[MINK_KERNEL_COUNT + 1];
    unsigned long calls[MINK_KERNEL_COUNT + 1];
} profile;

static void profile_print(void) {
    double steps = (double)profile.calls[MINK_KERNEL_WORLD_BOUNDS], total = 0.0;
    if (steps == 0.0) return;
    fprintf(stderr, "pass profile, %.0f steps (queue drained around each): ms a step, calls a step\n", steps);
    for (int k = 0; k <= MINK_KERNEL_COUNT; k++)
        if (profile.calls[k] > 0) {
            fprintf(stderr, "  %-36s %8.3f %7.1f\n", profile.name[k], profile.ms[k] / steps, profile.calls[k] / steps);
            total += profile.ms[k] / steps;
        }
    fprintf(stderr, "  %-36s %8.3f\n", "all", total);
}

static void profile_add(mink_world *w, int k, double ms) {
    static int registered;
    if (!registered) registered = 1, atexit(profile_print);
    if (profile.calls[k]++ == 0) {
        if (k == MINK_KERNEL_COUNT)
            snprintf(profile.name[k], sizeof profile.name[k], "(blocking reads of counts)");
        else
            clGetKernelInfo(w->ctx->kernels[k], CL_KERNEL_FUNCTION_NAME, sizeof profile.name[k] - 1, profile.name[k],
                            NULL);
    }
    profile.ms[k] += ms;
}
#define PROFILE_BEGIN(w) (clFinish((w)->ctx->queue), mink__now_ms())
#define PROFILE_END(w, k, t0) (clFinish((w)->ctx->queue), profile_add((w), (k), mink__now_ms() - (t0)))
#else
#define PROFILE_BEGIN(w) 0.0
#define PROFILE_END(w, k, t0) ((void)(t0))
#endif

/* Runs kernel k over `items` work-items (rounded up to whole work-groups), its arguments set. */
static mink_status launch(mink_world *w, mink_kernel_id k, size_t items) {
    double t0 = PROFILE_BEGIN(w);
    mink_context *ctx = w->ctx;
    mink_status status = MINK_OK;
    size_t local = ctx->local_size[k];
    /* The block kernels keep 256 (or 132) counters per work-item: small groups keep PoCL's stack small. */
    if ((k == MINK_KERNEL_RADIX_COUNT || k == MINK_KERNEL_RADIX_SCATTER || k == MINK_KERNEL_MEASURE) && local > 8)
        local = 8;
    size_t global = (items + local - 1) / local * local;
    MINK_CL_TRY(ctx, clEnqueueNDRangeKernel(ctx->queue, ctx->kernels[k], 1, NULL, &global, &local, 0, NULL, NULL),
                fail);
    PROFILE_END(w, k, t0);
fail:
    return status;
}

/* Whether kernel k takes n arguments; a message naming both counts if not. */
static mink_status check_args(mink_context *ctx, mink_kernel_id k, size_t n) {
    mink_status status = MINK_OK;
    cl_uint has = 0;
    char name[64] = "";
    MINK_CL_TRY(ctx, clGetKernelInfo(ctx->kernels[k], CL_KERNEL_NUM_ARGS, sizeof has, &has, NULL), fail);
    if (has == n) return MINK_OK;
    clGetKernelInfo(ctx->kernels[k], CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL);
    return mink__fail(ctx, MINK_ERR_BUILD, "mink_world: kernel %s takes %u arguments, the host passes %zu", name,
                      (unsigned)has, n);
fail:
    return status;
}

#define MINK_COUNT_ONE(NAME, field, type) +1
_Static_assert(0 MINK_WORLD_ARRAYS(MINK_COUNT_ONE) <= MINK_WORLD_BOUND_ARGS, "MINK_WORLD_BOUND_ARGS is too small");

void mink__world_cl_forget(mink_context *ctx) { memset(ctx->world_bound, 0, sizeof ctx->world_bound); }

mink_status mink__world_cl_build(mink_context *ctx, int part) {
    static const mink_kernel_id passes[] = {
        MINK_KERNEL_WORLD_BOUNDS, MINK_KERNEL_MEASURE,       MINK_KERNEL_MEASURE_TOP,          MINK_KERNEL_GRID_COUNT,
        MINK_KERNEL_GRID_EMIT,    MINK_KERNEL_GRID_GATHER,   MINK_KERNEL_GRID_PAIRS,           MINK_KERNEL_WORLD_DEGREE,
        MINK_KERNEL_WORLD_NARROW, MINK_KERNEL_WORLD_NARROW_POLYGONS, MINK_KERNEL_WORLD_NARROW_HULLS,
        MINK_KERNEL_WORLD_RESOLVE, MINK_KERNEL_WORLD_RESOLVE_POLYGONS, MINK_KERNEL_WORLD_RESOLVE_HULLS,
        MINK_KERNEL_WORLD_PICK, MINK_KERNEL_WORLD_PICK_POLYGONS, MINK_KERNEL_WORLD_PICK_HULLS,
        MINK_KERNEL_WORLD_RESWEEP, MINK_KERNEL_WORLD_RESWEEP_POLYGONS, MINK_KERNEL_WORLD_RESWEEP_HULLS,
        MINK_KERNEL_WORLD_FIRE, MINK_KERNEL_WORLD_SAFETY, MINK_KERNEL_WORLD_SAFETY_POLYGONS,
        MINK_KERNEL_WORLD_SAFETY_HULLS, MINK_KERNEL_WORLD_PLACE, MINK_KERNEL_WORLD_FINAL_BOUNDS,
        MINK_KERNEL_WORLD_IMPULSE_ROUNDS, MINK_KERNEL_WORLD_IMPULSE_ROUNDS_POLYGONS,
        MINK_KERNEL_WORLD_IMPULSE_ROUNDS_HULLS, MINK_KERNEL_WORLD_SAFETY_ROUNDS,
        MINK_KERNEL_WORLD_SAFETY_ROUNDS_POLYGONS, MINK_KERNEL_WORLD_SAFETY_ROUNDS_HULLS,
        MINK_KERNEL_ORDER_KEY, MINK_KERNEL_ORDER_GATHER,
        MINK_KERNEL_QUERY_BOUNDS, MINK_KERNEL_QUERY, MINK_KERNEL_QUERY_POLYGONS, MINK_KERNEL_QUERY_HULLS,
        MINK_KERNEL_QUERY_MOVE, MINK_KERNEL_QUERY_MOVE_POLYGONS, MINK_KERNEL_QUERY_MOVE_HULLS};
    static const cl_uint sizes[13] = {sizeof(mink_shape),      sizeof(mink_body_props), sizeof(mink_event),
                                      sizeof(mink_world_pair), sizeof(mink_grid_entry), sizeof(mink_contact),
                                      sizeof(mink_step_state), sizeof(mink_solve_body), sizeof(mink_place),
                                      sizeof(mink_world_query), sizeof(mink_world_hit), sizeof(mink_world_move),
                                      sizeof(mink_solve_motion)};
    if (part < MINK_PART_WORLD || part >= MINK_PART_COUNT)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "no world part %d of the program", part);
    if (ctx->programs[part] != NULL) return MINK_OK;
    mink_status status = mink__context_kernels(ctx, part);
    size_t arrays = 0 MINK_WORLD_ARRAYS(MINK_COUNT_ONE);
    for (size_t i = 0; i < sizeof passes / sizeof *passes && status == MINK_OK; i++)
        if (mink__kernel_part(passes[i]) == part) status = check_args(ctx, passes[i], arrays + 1);
    if (status == MINK_OK && part == MINK_PART_WORLD)
        status = mink__check_layout(ctx, ctx->kernels[MINK_KERNEL_WORLD_LAYOUT], "world", sizes, 13);
    if (status != MINK_OK) mink__context_forget(ctx, part);
    return status;
}

/* Kernel k, its part built on first use: a world of boxes and circles never builds the passes for
 * polygons or capsules. */
static mink_status ready(mink_context *ctx, mink_kernel_id k) {
    return ctx->kernels[k] != NULL ? MINK_OK : mink__world_cl_build(ctx, mink__kernel_part(k));
}

/* A helper kernel (scan, sort, transfer) with its own arguments, in kernels/world.cl's order,
 * their count checked against the kernel's. */
static mink_status run(mink_world *w, mink_kernel_id k, size_t items, const karg *args, size_t nargs) {
    mink_context *ctx = w->ctx;
    if (items == 0) return MINK_OK;
    mink_status status = ready(ctx, k);
    if (status == MINK_OK) status = check_args(ctx, k, nargs);
    if (status != MINK_OK) return status;
    cl_kernel kernel = ctx->kernels[k];
    for (size_t a = 0; a < nargs; a++)
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, (cl_uint)a, args[a].size, args[a].value), fail);
    status = launch(w, k, items);
fail:
    return status;
}

/* A pass kernel: every array of MINK_WORLD_ARRAYS in its order, then the state by value, the same
 * list kernels/world.cl declares its parameters from. An array not yet made passes as NULL. */
static mink_status run_pass(mink_world *w, mink_kernel_id k, size_t items, const mink_step_state *s) {
    mink_context *ctx = w->ctx;
    cl_mem *bound = ctx->world_bound[k];
    cl_uint arg = 0;
    if (items == 0) return MINK_OK;
    mink_status status = ready(ctx, k);
    if (status != MINK_OK) return status;
    cl_kernel kernel = ctx->kernels[k];
    /* Only what changed since this kernel's last launch: a step launches dozens of passes, each
     * with every array. (An array not made yet, NULL, is bound each time: forgotten is NULL too.) */
#define MINK_BIND(NAME, field, type)                                                                                \
    if (bound[arg] != w->buf[MINK_WB_##NAME].mem || bound[arg] == NULL) {                                           \
        bound[arg] = NULL;                                                                                          \
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg, sizeof(cl_mem), &w->buf[MINK_WB_##NAME].mem), fail);          \
        bound[arg] = w->buf[MINK_WB_##NAME].mem;                                                                    \
    }                                                                                                               \
    arg++;
    MINK_WORLD_ARRAYS(MINK_BIND)
#undef MINK_BIND
    MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg, sizeof *s, s), fail);
    status = launch(w, k, items);
fail:
    return status;
}

/* The arrays' names, for messages: the field names of MINK_WORLD_ARRAYS, then the scratch. */
#define MINK_WB_NAME(NAME, field, type) #field,
static const char *const array_names[] = {MINK_WORLD_ARRAYS(MINK_WB_NAME) "keys2", "order2", "pairs2", "radix", "sums",
                                          "stage"};
#undef MINK_WB_NAME
_Static_assert(sizeof array_names / sizeof array_names[0] == MINK_WB_COUNT, "a name for every array");

mink_status mink__world_cl_reserve(mink_world *w, mink_world_buf b, size_t bytes, size_t keep) {
    mink_context *ctx = w->ctx;
    mink_world_array *a = &w->buf[b];
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    cl_ulong max_alloc = 0;
    MINK_CL_TRY(ctx, clGetDeviceInfo(ctx->cl_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
                fail);
    if (bytes > max_alloc)
        return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY,
                          "mink_world: its %s array, %zu bytes, is over %s's allocation limit of %llu bytes",
                          array_names[b], bytes, ctx->device, (unsigned long long)max_alloc);
    /* Grow by half again, so a growing world reallocates rarely. */
    size_t want = bytes + bytes / 2 < max_alloc ? bytes + bytes / 2 : bytes;
    cl_mem mem = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, want, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateBuffer", err, fail);
    if (keep > 0 && a->mem) {
        err = clEnqueueCopyBuffer(ctx->queue, a->mem, mem, 0, 0, keep < a->bytes ? keep : a->bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clFinish(ctx->queue);
        if (err != CL_SUCCESS) {
            clReleaseMemObject(mem);
            MINK_CL_CHECK(ctx, "clEnqueueCopyBuffer", err, fail);
        }
    }
    if (a->mem) clReleaseMemObject(a->mem);
    mink__world_cl_forget(ctx);
    a->mem = mem;
    a->bytes = want;
fail:
    return status;
}

static mink_status read_at(mink_world *w, mink_world_buf b, size_t offset, size_t bytes, void *out) {
    mink_status status = MINK_OK;
    MINK_CL_TRY(w->ctx, clEnqueueReadBuffer(w->ctx->queue, w->buf[b].mem, CL_TRUE, offset, bytes, out, 0, NULL, NULL),
                fail);
fail:
    return status;
}

mink_status mink__world_cl_read_array(mink_world *w, mink_world_buf b, size_t bytes, void *out) {
    return read_at(w, b, 0, bytes, out);
}

/* The stage holds count handles, then count values from word `at` (handles rounded up to 4 words,
 * so values of 8 bytes stay aligned). Writes from the caller's arrays block: once a call returns,
 * failed or not, no queued command still reads memory the caller may free. */
static mink_status stage(mink_world *w, const uint32_t *handles, size_t count, size_t size, size_t *at) {
    *at = (count + 3) / 4 * 4;
    mink_status status = mink__world_reserve(w, MINK_WB_STAGE, *at * 4 + count * size, 0);
    if (status != MINK_OK) return status;
    MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[MINK_WB_STAGE].mem, CL_TRUE, 0, count * 4,
                                             handles, 0, NULL, NULL), fail);
fail:
    return status;
}

mink_status mink__world_cl_write(mink_world *w, mink_world_buf field, const uint32_t *handles, size_t count,
                                 const void *values) {
    size_t size = mink__world_field_size(field), at = 0;
    mink_status status = stage(w, handles, count, size, &at);
    if (status != MINK_OK) return status;
    MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[MINK_WB_STAGE].mem, CL_TRUE, at * 4,
                                             count * size, values, 0, NULL, NULL), fail);
    status = run(w, MINK_KERNEL_WORLD_SCATTER, count,
                 ARGS(ARG_BUF(w, field), ARG_BUF(w, MINK_WB_STAGE), ARG_U32(count), ARG_U32(size / 4), ARG_U32(at)));
    if (status == MINK_OK) MINK_CL_TRY(w->ctx, clFinish(w->ctx->queue), fail);
fail:
    return status;
}

mink_status mink__world_cl_read(mink_world *w, mink_world_buf field, const uint32_t *handles, size_t count,
                                void *values) {
    size_t size = mink__world_field_size(field), at = 0;
    if (handles == NULL) return mink__world_cl_read_array(w, field, count * size, values);
    mink_status status = stage(w, handles, count, size, &at);
    if (status == MINK_OK)
        status = run(w, MINK_KERNEL_WORLD_GATHER, count,
                     ARGS(ARG_BUF(w, field), ARG_BUF(w, MINK_WB_STAGE), ARG_U32(count), ARG_U32(size / 4), ARG_U32(at)));
    if (status != MINK_OK) return status;
    MINK_CL_TRY(w->ctx, clEnqueueReadBuffer(w->ctx->queue, w->buf[MINK_WB_STAGE].mem, CL_TRUE, at * 4, count * size,
                                            values, 0, NULL, NULL), fail);
fail:
    return status;
}

/* Blocks for the block-serial passes: enough for every compute unit many times over, few enough
 * that their counts stay small. */
static uint32_t blocks_for(size_t n, size_t per, uint32_t most) {
    size_t b = n / per;
    if (b < 1) b = 1;
    if (b > most) b = most;
    return (uint32_t)b;
}

/* An exclusive scan of a[0 .. n) on the device, the total to a[n]. A short one is one launch of
 * mink_scan_top over a itself, one work-item (the same sums: the scan saturates alike in any
 * grouping): the blocked scan's three launches cost more than its work, at a step's radix counts
 * and at 10^4 bodies. A CPU device does so up to 2^15 entries, a GPU, whose one work-item is slow,
 * only up to what the blocked scan gives one block. */
static mink_status scan(mink_world *w, mink_world_buf a, uint32_t n) {
    if (n <= (w->ctx->cpu_device ? 32768u : 2047u))
        return run(w, MINK_KERNEL_SCAN_TOP, 1, ARGS(ARG_BUF(w, a), ARG_U32(n)));
    uint32_t blocks = blocks_for(n, 1024, 1024);
    mink_status status = mink__world_reserve(w, MINK_WB_SUMS, ((size_t)blocks + 1) * 4, 0);
    if (status == MINK_OK)
        status = run(w, MINK_KERNEL_SCAN_SUM, blocks,
                     ARGS(ARG_BUF(w, a), ARG_BUF(w, MINK_WB_SUMS), ARG_U32(n), ARG_U32(blocks)));
    if (status == MINK_OK)
        status = run(w, MINK_KERNEL_SCAN_TOP, 1, ARGS(ARG_BUF(w, MINK_WB_SUMS), ARG_U32(blocks)));
    if (status == MINK_OK)
        status = run(w, MINK_KERNEL_SCAN_APPLY, blocks,
                     ARGS(ARG_BUF(w, a), ARG_BUF(w, MINK_WB_SUMS), ARG_U32(n), ARG_U32(blocks)));
    return status;
}

/* Sorts the grid entries by cell (stable), `passes` bytes of key. */
static mink_status sort(mink_world *w, uint32_t n, uint32_t passes) {
    uint32_t blocks = blocks_for(n, 2048, 256);
    size_t m = (size_t)MINK_RADIX_BINS * blocks;
    mink_status status = mink__world_reserve(w, MINK_WB_RADIX, (m + 1) * 4, 0);
    for (uint32_t shift = 0; shift < passes * 8 && status == MINK_OK; shift += 8) {
        status = run(w, MINK_KERNEL_RADIX_COUNT, blocks,
                     ARGS(ARG_BUF(w, MINK_WB_KEYS), ARG_BUF(w, MINK_WB_RADIX), ARG_U32(n), ARG_U32(shift),
                          ARG_U32(blocks)));
        if (status == MINK_OK) status = scan(w, MINK_WB_RADIX, (uint32_t)m);
        if (status == MINK_OK)
            status = run(w, MINK_KERNEL_RADIX_SCATTER, blocks,
                         ARGS(ARG_BUF(w, MINK_WB_KEYS), ARG_BUF(w, MINK_WB_ORDER), ARG_BUF(w, MINK_WB_RADIX),
                              ARG_BUF(w, MINK_WB_KEYS2), ARG_BUF(w, MINK_WB_ORDER2), ARG_U32(n), ARG_U32(shift),
                              ARG_U32(blocks)));
        mink__world_swap(w, MINK_WB_KEYS, MINK_WB_KEYS2);
        mink__world_swap(w, MINK_WB_ORDER, MINK_WB_ORDER2);
    }
    return status;
}

/* Zeroes bytes [offset, offset + bytes) of a buffer. */
static mink_status zero(mink_world *w, mink_world_buf b, size_t offset, size_t bytes) {
    mink_status status = MINK_OK;
    cl_uint z = 0;
    if (bytes == 0) return MINK_OK;
    MINK_CL_TRY(w->ctx, clEnqueueFillBuffer(w->ctx->queue, w->buf[b].mem, &z, sizeof z, offset, bytes, 0, NULL, NULL),
                fail);
fail:
    return status;
}

/* Writes the first bytes of a buffer from the caller's memory, blocking: once it returns, the
 * caller may change or free it. */
static mink_status write_array(mink_world *w, mink_world_buf b, size_t bytes, const void *from) {
    mink_status status = MINK_OK;
    if (bytes == 0) return MINK_OK;
    MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[b].mem, CL_TRUE, 0, bytes, from, 0, NULL, NULL),
                fail);
fail:
    return status;
}

/* Reads words of a buffer (blocking) once the queue is done; the read itself goes to the step's
 * transfer share. */
static mink_status read_words(mink_world *w, mink_world_buf b, size_t index, size_t count, uint32_t *out) {
    mink_status status = MINK_OK;
    MINK_CL_TRY(w->ctx, clFinish(w->ctx->queue), fail);
    double t = mink__now_ms();
    status = read_at(w, b, index * 4, count * 4, out);
    w->stats.transfer_ms += mink__now_ms() - t;
    PROFILE_END(w, MINK_KERNEL_COUNT, t);
fail:
    return status;
}

/* The step's stages are timed by markers in the queue, not by waiting for it after each: two waits
 * a step fewer, never slower (docs/benchmarks.md, "Figures behind the code").
 * stage_marks[k] completes when stage k has; the shares are the gaps between their end times. */
static mink_status cl_mark(mink_world *w, int stage) {
    mink_status status = MINK_OK;
    cl_event *ev = &w->stage_marks[stage];
    if (*ev) clReleaseEvent(*ev); /* the resolution's, marked again after a retry */
    *ev = NULL;
    MINK_CL_TRY(w->ctx, clEnqueueMarkerWithWaitList(w->ctx->queue, 0, NULL, ev), fail);
fail:
    return status;
}

/* The stages' shares from their markers, all complete (the last read waited for the queue); none
 * if the device does not time them. After a failure, the queue is drained first. */
static void cl_end(mink_world *w, mink_status status) {
    cl_event *marks = w->stage_marks;
    cl_ulong end[MINK_STAGE_COUNT];
    int timed = status == MINK_OK;
    if (status != MINK_OK) clFinish(w->ctx->queue);
    /* The last marker has no read after it: wait for it, or its times are not there yet. */
    if (timed && marks[MINK_STAGE_COUNT - 1]) timed = clWaitForEvents(1, &marks[MINK_STAGE_COUNT - 1]) == CL_SUCCESS;
    for (int k = 0; k < MINK_STAGE_COUNT && timed; k++)
        timed = marks[k] && clGetEventProfilingInfo(marks[k], CL_PROFILING_COMMAND_END, sizeof end[k], &end[k],
                                                    NULL) == CL_SUCCESS && (k == 0 || end[k] >= end[k - 1]);
    double *share[MINK_STAGE_COUNT] = {NULL, &w->stats.bounds_ms, &w->stats.broadphase_ms, &w->stats.narrowphase_ms,
                                       &w->stats.resolution_ms};
    for (int k = 1; k < MINK_STAGE_COUNT && timed; k++) *share[k] = (double)(end[k] - end[k - 1]) * 1e-6;
    for (int k = 0; k < MINK_STAGE_COUNT; k++) {
        if (marks[k]) clReleaseEvent(marks[k]);
        marks[k] = NULL;
    }
}

/* The measure: per block of bodies, then the blocks merged. */
static mink_status measure(mink_world *w, const mink_step_state *s) {
    mink_step_state m = *s;
    m.blocks = blocks_for(s->slots, 4096, 64);
    mink_status status = mink__world_reserve(w, MINK_WB_PARTIAL, (size_t)m.blocks * MINK_MEASURE_WORDS * 4, 0);
    if (status == MINK_OK) status = run_pass(w, MINK_KERNEL_MEASURE, m.blocks, &m);
    if (status == MINK_OK) status = run_pass(w, MINK_KERNEL_MEASURE_TOP, 1, &m);
    return status;
}

/* The pairs, counted (emit 0) or written (emit 1). */
static mink_status pairs(mink_world *w, const mink_step_state *s, uint32_t emit) {
    mink_step_state p = *s;
    p.emit = emit;
    return run_pass(w, MINK_KERNEL_GRID_PAIRS, s->items, &p);
}

/* Each pass that sweeps has three builds, in this order (kernels/world.cl). */
#define MINK_THREE_BUILDS(k) \
    _Static_assert(k##_POLYGONS == k + 1 && k##_HULLS == k + 2, #k ": its builds in order")
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_NARROW);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_RESWEEP);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_PICK);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_RESOLVE);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_SAFETY);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_IMPULSE_ROUNDS);
MINK_THREE_BUILDS(MINK_KERNEL_WORLD_SAFETY_ROUNDS);
MINK_THREE_BUILDS(MINK_KERNEL_QUERY);
MINK_THREE_BUILDS(MINK_KERNEL_QUERY_MOVE);

/* A pass as its kernel. */
static mink_status cl_pass(mink_world *w, mink_world_pass pass, const mink_step_state *s) {
    /* The build for the shapes the world holds: + 0 boxes and circles, + 1 polygons, + 2 capsules. */
    int v = s->params.hulls == 0 ? 0 : (s->params.hulls & MINK_HULLS_CAPSULES) ? 2 : 1;
    switch (pass) {
    case MINK_PASS_BOUNDS: return run_pass(w, MINK_KERNEL_WORLD_BOUNDS, s->slots, s);
    case MINK_PASS_MEASURE: return measure(w, s);
    case MINK_PASS_GRID_COUNT: return run_pass(w, MINK_KERNEL_GRID_COUNT, s->slots, s);
    case MINK_PASS_GRID_EMIT: return run_pass(w, MINK_KERNEL_GRID_EMIT, s->slots, s);
    case MINK_PASS_GRID_GATHER: return run_pass(w, MINK_KERNEL_GRID_GATHER, s->entries, s);
    case MINK_PASS_PAIRS_COUNT: return pairs(w, s, 0);
    case MINK_PASS_PAIRS_WRITE: return pairs(w, s, 1);
    case MINK_PASS_DEGREE: return run_pass(w, MINK_KERNEL_WORLD_DEGREE, s->pairs, s);
    case MINK_PASS_NARROW:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_NARROW + v), s->pairs, s);
    case MINK_PASS_RESWEEP:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_RESWEEP + v), s->listed, s);
    case MINK_PASS_PICK:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_PICK + v),
                        s->round == 0 ? s->slots : s->listed, s);
    case MINK_PASS_FIRE: return run_pass(w, MINK_KERNEL_WORLD_FIRE, s->listed, s);
    case MINK_PASS_RESOLVE:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_RESOLVE + v), s->slots, s);
    case MINK_PASS_FINAL_BOUNDS: return run_pass(w, MINK_KERNEL_WORLD_FINAL_BOUNDS, s->slots, s);
    case MINK_PASS_ORDER_KEY: return run_pass(w, MINK_KERNEL_ORDER_KEY, s->slots, s);
    case MINK_PASS_ORDER_GATHER: return run_pass(w, MINK_KERNEL_ORDER_GATHER, s->slots, s);
    case MINK_PASS_SAFETY:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_SAFETY + v), s->pairs, s);
    case MINK_PASS_PLACE: return run_pass(w, MINK_KERNEL_WORLD_PLACE, s->listed, s);
    case MINK_PASS_IMPULSE_ROUNDS: /* built empty for a GPU (kernels/world.cl): never run there */
        if (!w->ctx->cpu_device)
            return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world: the rounds in one work-item on a GPU");
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_IMPULSE_ROUNDS + v), 1, s);
    case MINK_PASS_SAFETY_ROUNDS: /* the same */
        if (!w->ctx->cpu_device)
            return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world: the rounds in one work-item on a GPU");
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_WORLD_SAFETY_ROUNDS + v), 1, s);
    case MINK_PASS_QUERY_BOUNDS: return run_pass(w, MINK_KERNEL_QUERY_BOUNDS, s->slots, s);
    case MINK_PASS_QUERY:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_QUERY + v), s->query.count, s);
    case MINK_PASS_QUERY_MOVE:
        return run_pass(w, (mink_kernel_id)(MINK_KERNEL_QUERY_MOVE + v), s->query.count, s);
    }
    return MINK_OK;
}

const mink_world_backend mink__world_opencl = {cl_pass, scan, sort, read_words, zero, write_array, cl_mark, cl_end};
