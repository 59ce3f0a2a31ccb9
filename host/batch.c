/* host/batch.c — batch entry points: argument checks, then the scalar loop or the OpenCL launches. */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "mink/sample.h"

/* What every batch checks before touching its arrays. */
mink_status mink__check_batch(mink_context *ctx, const char *fn, const void *in, size_t in_size,
                               void *out, size_t out_size, size_t count, float dt) {
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (count > 0 && (in == NULL || out == NULL))
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: %s is NULL with count %zu", fn,
                          in == NULL ? "the input" : "the output", count);
    if (count > SIZE_MAX / in_size || count > SIZE_MAX / out_size)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT,
                          "%s: count %zu overflows the byte count of its arrays", fn, count);
    if (!isfinite(dt) || dt < 0.0f)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: dt must be finite and >= 0, not %g",
                          fn, (double)dt);
    return MINK_OK;
}

/* Makes *buf at least `size` bytes (COPY transfers keep their buffers between calls). */
static mink_status reserve(mink_context *ctx, cl_mem *buf, size_t *have, size_t size, cl_mem_flags flags) {
    if (*have >= size) return MINK_OK;
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    if (*buf) clReleaseMemObject(*buf);
    *have = 0;
    *buf = clCreateBuffer(ctx->cl, flags, size, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateBuffer", err, fail);
    *have = size;
    return MINK_OK;
fail:
    *buf = NULL;
    return status;
}

mink_status mink__launch(mink_context *ctx, const mink_launch *l, size_t n, float dt,
                         const mink_rotating_desc *desc, double *kernel_ms) {
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    size_t arrays = l->n_in + l->n_out;
    cl_mem mem[MINK_MAX_ARRAYS] = {0};
    cl_event done = NULL;
    cl_kernel kernel = ctx->kernels[l->kernel];

    for (size_t j = 0; j < arrays; j++) {
        int is_in = j < l->n_in;
        size_t bytes = n * (is_in ? l->in_size[j] : l->out_size[j - l->n_in]);
        void *host = is_in ? (void *)l->in[j] : l->out[j - l->n_in];
        cl_mem_flags rw = is_in ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY;
        if (ctx->map_host_memory) {
            /* The device works on the caller's arrays: on a CPU device nothing is copied. */
            mem[j] = clCreateBuffer(ctx->cl, rw | CL_MEM_USE_HOST_PTR, bytes, host, &err);
            MINK_CL_CHECK(ctx, "clCreateBuffer", err, fail);
            continue;
        }
        status = reserve(ctx, &ctx->bufs[j], &ctx->buf_sizes[j], bytes, rw);
        if (status != MINK_OK) goto fail;
        mem[j] = ctx->bufs[j];
        /* Blocking: even if the calls after it fail, nothing queued reads the caller's array later. */
        if (is_in) MINK_CL_TRY(ctx, clEnqueueWriteBuffer(ctx->queue, mem[j], CL_TRUE, 0, bytes, host, 0, NULL, NULL), fail);
    }

    cl_uint count = (cl_uint)n, arg = (cl_uint)arrays;
    for (cl_uint j = 0; j < arg; j++) MINK_CL_TRY(ctx, clSetKernelArg(kernel, j, sizeof mem[j], &mem[j]), fail);
    MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg, sizeof count, &count), fail);
    MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 1, sizeof dt, &dt), fail);
    if (l->kernel == MINK_KERNEL_SWEEP_ROTATING) {
        cl_uint cap = desc->max_iterations;
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 2, sizeof desc->target, &desc->target), fail);
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 3, sizeof cap, &cap), fail);
    }
    size_t local = ctx->local_size[l->kernel];
    size_t items = (n + ctx->pairs_per_item[l->kernel] - 1) / ctx->pairs_per_item[l->kernel];
    size_t global = (items + local - 1) / local * local;
    MINK_CL_TRY(ctx, clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, &local, 0, NULL, &done), fail);

    /* With MAP, reading a USE_HOST_PTR buffer into its own host pointer is the one copy OpenCL
     * allows there (all else done, nothing mapped), and a CPU device skips it. Unlike map + unmap,
     * it leaves nothing mapped, so a failure half way can never strand the buffer. */
    for (size_t j = 0; j < l->n_out; j++)
        MINK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, mem[l->n_in + j], CL_TRUE, 0, n * l->out_size[j], l->out[j],
                                             0, NULL, NULL), fail);

    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS &&
        end >= start)
        *kernel_ms += (double)(end - start) * 1e-6;
fail:
    if (status != MINK_OK) clFinish(ctx->queue); /* nothing may still use the caller's arrays */
    if (done) clReleaseEvent(done);
    if (ctx->map_host_memory)
        for (size_t j = 0; j < arrays; j++)
            if (mem[j]) clReleaseMemObject(mem[j]);
    return status;
}

/* Splits a batch into launches that fit the device. */
mink_status mink__batch_opencl(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                               float dt, const mink_rotating_desc *desc, mink_hit *hits,
                               mink_batch_stats *st) {
    mink_launch l = {.kernel = kind->kernel, .n_in = 1, .n_out = 1};
    l.in_size[0] = kind->record_size;
    l.out_size[0] = sizeof *hits;
    for (size_t done = 0; done < count;) {
        size_t n = count - done;
        if (n > ctx->max_pairs_per_launch) n = ctx->max_pairs_per_launch;
        l.in[0] = (const char *)in + done * kind->record_size;
        l.out[0] = hits + done;
        mink_status status = mink__launch(ctx, &l, n, dt, desc, &st->kernel_ms);
        if (status != MINK_OK) return status;
        st->launches++;
        done += n;
    }
    return MINK_OK;
}

typedef struct batch_job {
    const mink_batch_kind *kind;
    const char *in;
    float dt;
    const mink_rotating_desc *desc;
    mink_hit *hits;
} batch_job;

static void scalar_range(void *job, size_t begin, size_t end) {
    const batch_job *j = job;
    j->kind->scalar(j->in + begin * j->kind->record_size, end - begin, j->dt, j->desc, j->hits + begin);
}

void mink__batch_scalar(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                        float dt, const mink_rotating_desc *desc, mink_hit *hits) {
    batch_job job = {kind, in, dt, desc, hits};
    mink__parallel(ctx->threads, count, MINK_PAIRS_PER_THREAD, scalar_range, &job);
}

static void sample_aabb(size_t n, void *out) { mink_sample_aabb_pairs(1, n, out); }
static void sample_circle(size_t n, void *out) { mink_sample_circle_pairs(1, n, out); }
static void sample_circle_aabb(size_t n, void *out) { mink_sample_circle_aabb_pairs(1, n, out); }
static void sample_polygon(size_t n, void *out) { mink_sample_polygon_pairs(1, n, 0, out); }
static void sample_polygon_aabb(size_t n, void *out) { mink_sample_polygon_aabb_pairs(1, n, out); }
static void sample_polygon_circle(size_t n, void *out) { mink_sample_polygon_circle_pairs(1, n, out); }
static void sample_pair(size_t n, void *out) { mink_sample_pairs(1, n, out); }
static void sample_rotating(size_t n, void *out) { mink_sample_rotating_pairs(1, n, out); }

/* Sample sizes: about a millisecond of scalar work each on a current CPU, enough to see the device's
 * per-pair cost above the noise of its fixed one. */
static const mink_batch_kind kind_aabb = {"mink_batch_sweep_aabb", MINK_KERNEL_SWEEP_AABB,
                                          sizeof(mink_aabb_pair), mink__scalar_sweep_aabb, sample_aabb, 32768};
static const mink_batch_kind kind_circle = {"mink_batch_sweep_circle", MINK_KERNEL_SWEEP_CIRCLE,
                                            sizeof(mink_circle_pair), mink__scalar_sweep_circle, sample_circle, 16384};
static const mink_batch_kind kind_circle_aabb = {"mink_batch_sweep_circle_aabb", MINK_KERNEL_SWEEP_CIRCLE_AABB,
                                                 sizeof(mink_circle_aabb_pair), mink__scalar_sweep_circle_aabb,
                                                 sample_circle_aabb, 16384};
static const mink_batch_kind kind_polygon = {"mink_batch_sweep_polygon", MINK_KERNEL_SWEEP_POLYGON,
                                             sizeof(mink_polygon_pair), mink__scalar_sweep_polygon, sample_polygon, 4096};
static const mink_batch_kind kind_polygon_aabb = {"mink_batch_sweep_polygon_aabb", MINK_KERNEL_SWEEP_POLYGON_AABB,
                                                  sizeof(mink_polygon_aabb_pair), mink__scalar_sweep_polygon_aabb,
                                                  sample_polygon_aabb, 4096};
static const mink_batch_kind kind_polygon_circle = {"mink_batch_sweep_polygon_circle", MINK_KERNEL_SWEEP_POLYGON_CIRCLE,
                                                    sizeof(mink_polygon_circle_pair), mink__scalar_sweep_polygon_circle,
                                                    sample_polygon_circle, 4096};
static const mink_batch_kind kind_pair = {"mink_batch_sweep", MINK_KERNEL_SWEEP_PAIR, sizeof(mink_pair),
                                          mink__scalar_sweep_pair, sample_pair, 16384};
static const mink_batch_kind kind_rotating = {"mink_batch_sweep_rotating", MINK_KERNEL_SWEEP_ROTATING,
                                              sizeof(mink_pair), mink__scalar_sweep_rotating, sample_rotating, 512};

/* Pairs [begin, end) of a batch on either path. */
static mink_status run_range(mink_context *ctx, void *job, mink_backend path, size_t begin, size_t end,
                             mink_batch_stats *st) {
    const batch_job *j = job;
    const char *in = j->in + begin * j->kind->record_size;
    if (path == MINK_BACKEND_OPENCL)
        return mink__batch_opencl(ctx, j->kind, in, end - begin, j->dt, j->desc, j->hits + begin, st);
    mink__batch_scalar(ctx, j->kind, in, end - begin, j->dt, j->desc, j->hits + begin);
    return MINK_OK;
}

static mink_status run_batch_with(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                                  float dt, const mink_rotating_desc *desc, mink_hit *hits) {
    mink_status status = mink__check_batch(ctx, kind->name, in, kind->record_size, hits, sizeof *hits, count, dt);
    if (status != MINK_OK) return status;
    size_t least = 0;
    if (ctx->backend == MINK_BACKEND_OPENCL && ctx->auto_pick && count > 0) {
        status = mink__auto_min_pairs(ctx, kind, &least);
        if (status != MINK_OK) return status;
    }
    batch_job job = {kind, in, dt, desc, hits};
    mink_batch_stats st = {0};
    mink_backend path;
    double t0 = mink__now_ms();
    status = mink__auto_run(ctx, kind->kernel, count, least, run_range, &job, &st, &path);
    if (status != MINK_OK) return status;
    mink__batch_done(ctx, path, count, kind->record_size, t0, &st);
    return MINK_OK;
}

void mink__batch_done(mink_context *ctx, mink_backend path, size_t count, size_t record_size, double t0,
                      mink_batch_stats *st) {
    st->total_ms = mink__now_ms() - t0;
    if (path != MINK_BACKEND_OPENCL) st->kernel_ms = st->total_ms;
    st->pairs = count;
    st->bytes_in = count * record_size;
    st->bytes_out = count * sizeof(mink_hit);
    st->backend = path;
    ctx->stats = *st;
}

static mink_status run_batch(mink_context *ctx, const mink_batch_kind *kind, const void *in, size_t count,
                             float dt, mink_hit *hits) {
    const mink_rotating_desc none = {0};
    return run_batch_with(ctx, kind, in, count, dt, &none, hits);
}

mink_status mink_batch_sweep_aabb(mink_context *ctx, const mink_aabb_pair *pairs, size_t count,
                                  float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_aabb, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_circle(mink_context *ctx, const mink_circle_pair *pairs, size_t count,
                                    float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_circle, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_circle_aabb(mink_context *ctx, const mink_circle_aabb_pair *pairs,
                                         size_t count, float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_circle_aabb, pairs, count, dt, hits);
}

mink_status mink_batch_sweep(mink_context *ctx, const mink_pair *pairs, size_t count, float dt,
                             mink_hit *hits) {
    return run_batch(ctx, &kind_pair, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_polygon(mink_context *ctx, const mink_polygon_pair *pairs, size_t count,
                                     float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_polygon, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_polygon_aabb(mink_context *ctx, const mink_polygon_aabb_pair *pairs,
                                          size_t count, float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_polygon_aabb, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_polygon_circle(mink_context *ctx, const mink_polygon_circle_pair *pairs,
                                            size_t count, float dt, mink_hit *hits) {
    return run_batch(ctx, &kind_polygon_circle, pairs, count, dt, hits);
}

mink_status mink_batch_sweep_rotating(mink_context *ctx, const mink_pair *pairs, size_t count, float dt,
                                      const mink_rotating_desc *desc, mink_hit *hits) {
    mink_rotating_desc d = {0};
    if (desc) d = *desc;
    if (ctx && (!isfinite(d.target) || d.target < 0.0f))
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT,
                          "mink_batch_sweep_rotating: desc->target must be finite and >= 0, not %g",
                          (double)d.target);
    return run_batch_with(ctx, &kind_rotating, pairs, count, dt, &d, hits);
}
