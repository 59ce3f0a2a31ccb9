/* host/batch.c — the one pipeline every batch takes, records and columns alike: the argument
 * checks, the path AUTO picks, the scalar loop over threads or the launches on the device, and
 * the figures. What differs between kinds is a row of core/kinds.h. */
#include <stdint.h>
#include <string.h>

#include "internal.h"

size_t mink__batch_in_size(const mink_batch_kind *kind) {
    return kind->arrays == 1 ? kind->record_size : sizeof(float);
}
size_t mink__batch_out_size(const mink_batch_kind *kind) {
    return kind->arrays == 1 ? sizeof(mink_hit) : sizeof(float);
}
size_t mink__batch_outputs(const mink_batch_kind *kind) { return kind->arrays == 1 ? 1 : MINK_MAX_OUT; }

/* The job's arrays moved on to pair `at`. */
static mink_batch_job job_at(const mink_batch_job *job, size_t at) {
    mink_batch_job j = *job;
    size_t in = mink__batch_in_size(job->kind), out = mink__batch_out_size(job->kind);
    for (size_t k = 0; k < job->kind->arrays; k++) j.in[k] = (const char *)job->in[k] + at * in;
    for (size_t k = 0; k < mink__batch_outputs(job->kind); k++) j.out[k] = (char *)job->out[k] + at * out;
    return j;
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

/* Adds a finished kernel's device time to *kernel_ms. */
static void add_kernel_time(cl_event done, double *kernel_ms) {
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS &&
        end >= start)
        *kernel_ms += (double)(end - start) * 1e-6;
}

/* Enqueues the kernel over pairs [0, n) of buffers `mem` (the inputs, then the outputs) on `queue`;
 * *done gets its event. kernels/sweep.cl's arguments: the arrays, n, dt, and for a turning kind
 * the desc's fields. */
static mink_status enqueue_kernel(mink_context *ctx, const mink_batch_job *job, size_t n, const cl_mem *mem,
                                  cl_command_queue queue, cl_event *done) {
    const mink_batch_kind *kind = job->kind;
    mink_status status = MINK_OK;
    cl_kernel kernel = ctx->kernels[kind->kernel];
    cl_uint count = (cl_uint)n, arg = (cl_uint)(kind->arrays + mink__batch_outputs(kind));
    for (cl_uint j = 0; j < arg; j++) MINK_CL_TRY(ctx, clSetKernelArg(kernel, j, sizeof mem[j], &mem[j]), fail);
    MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg, sizeof count, &count), fail);
    MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 1, sizeof job->dt, &job->dt), fail);
    if (kind->turning) {
        cl_uint cap = job->desc.max_iterations;
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 2, sizeof job->desc.target, &job->desc.target), fail);
        MINK_CL_TRY(ctx, clSetKernelArg(kernel, arg + 3, sizeof cap, &cap), fail);
    }
    size_t local = ctx->local_size[kind->kernel];
    size_t items = (n + ctx->pairs_per_item[kind->kernel] - 1) / ctx->pairs_per_item[kind->kernel];
    size_t global = (items + local - 1) / local * local;
    MINK_CL_TRY(ctx, clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, done), fail);
fail:
    return status;
}

/* MAP: the job's pairs [0, n) in one launch on buffers that wrap the caller's arrays. */
static mink_status launch_mapped(mink_context *ctx, const mink_batch_job *job, size_t n, double *kernel_ms) {
    const mink_batch_kind *kind = job->kind;
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    size_t n_in = kind->arrays, arrays = n_in + mink__batch_outputs(kind);
    cl_mem mem[MINK_MAX_ARRAYS] = {0};
    cl_event done = NULL;
    for (size_t j = 0; j < arrays; j++) {
        int is_in = j < n_in;
        size_t bytes = n * (is_in ? mink__batch_in_size(kind) : mink__batch_out_size(kind));
        void *host = is_in ? (void *)job->in[j] : job->out[j - n_in];
        /* The device works on the caller's arrays: on a CPU device nothing is copied. */
        mem[j] = clCreateBuffer(ctx->cl, (is_in ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY) | CL_MEM_USE_HOST_PTR, bytes,
                                host, &err);
        MINK_CL_CHECK(ctx, "clCreateBuffer", err, fail);
    }
    status = enqueue_kernel(ctx, job, n, mem, ctx->queue, &done);
    if (status != MINK_OK) goto fail;
    /* Reading a USE_HOST_PTR buffer into its own host pointer is the one copy OpenCL allows there
     * (all else done, nothing mapped), and a CPU device skips it. Unlike map + unmap, it leaves
     * nothing mapped, so a failure half way can never strand the buffer. */
    for (size_t j = n_in; j < arrays; j++)
        MINK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, mem[j], CL_TRUE, 0, n * mink__batch_out_size(kind),
                                             job->out[j - n_in], 0, NULL, NULL), fail);
    add_kernel_time(done, kernel_ms);
fail:
    if (status != MINK_OK) clFinish(ctx->queue); /* nothing may still use the caller's arrays */
    if (done) clReleaseEvent(done);
    for (size_t j = 0; j < arrays; j++)
        if (mem[j]) clReleaseMemObject(mem[j]);
    return status;
}

/* COPY: one chunk's upload, kernel and download, none of them waited for, on slot s's queue and
 * buffers; *done gets the kernel's event. */
static mink_status enqueue_chunk(mink_context *ctx, const mink_batch_job *job, size_t n, int s, cl_event *done) {
    const mink_batch_kind *kind = job->kind;
    mink_status status = MINK_OK;
    size_t n_in = kind->arrays, arrays = n_in + mink__batch_outputs(kind);
    cl_command_queue queue = s ? ctx->queue2 : ctx->queue;
    for (size_t j = 0; j < arrays; j++) {
        int is_in = j < n_in;
        size_t bytes = n * (is_in ? mink__batch_in_size(kind) : mink__batch_out_size(kind));
        status = reserve(ctx, &ctx->bufs[s][j], &ctx->buf_sizes[s][j], bytes,
                         is_in ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY);
        if (status != MINK_OK) return status;
        if (is_in)
            MINK_CL_TRY(ctx, clEnqueueWriteBuffer(queue, ctx->bufs[s][j], CL_FALSE, 0, bytes, job->in[j], 0, NULL,
                                                  NULL), fail);
    }
    status = enqueue_kernel(ctx, job, n, ctx->bufs[s], queue, done);
    if (status != MINK_OK) return status;
    for (size_t j = n_in; j < arrays; j++)
        MINK_CL_TRY(ctx, clEnqueueReadBuffer(queue, ctx->bufs[s][j], CL_FALSE, 0, n * mink__batch_out_size(kind),
                                             job->out[j - n_in], 0, NULL, NULL), fail);
    /* Sent to the device now, not when the queue is next waited for. */
    MINK_CL_TRY(ctx, clFlush(queue), fail);
fail:
    return status;
}

/* COPY: pairs [0, n) in chunks through two sets of buffers on two in-order queues, so that (on a
 * device that overlaps them, a discrete GPU) one chunk's upload runs beside the kernel of the one
 * before, and its kernel beside that one's download: two chunks in flight. A set is used again
 * once its queue is done with the chunk before; the call returns when both are done, so the
 * caller's arrays are its own again. */
static mink_status copy_pipeline(mink_context *ctx, const mink_batch_job *job, size_t n, mink_batch_stats *st) {
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    cl_event done[MINK_COPY_SLOTS] = {NULL, NULL};
    size_t chunk = ctx->max_pairs_per_launch < MINK_COPY_CHUNK ? ctx->max_pairs_per_launch : MINK_COPY_CHUNK;
    cl_command_queue queue[MINK_COPY_SLOTS] = {ctx->queue, NULL};
    for (size_t at = 0, k = 0; at < n; k++) {
        int s = (int)(k % MINK_COPY_SLOTS);
        if (s == 1 && ctx->queue2 == NULL) {
            ctx->queue2 = clCreateCommandQueue(ctx->cl, ctx->cl_device, CL_QUEUE_PROFILING_ENABLE, &err);
            MINK_CL_CHECK(ctx, "clCreateCommandQueue", err, fail);
        }
        queue[1] = ctx->queue2;
        if (done[s]) { /* the slot's last chunk, downloaded, before its buffers take the next */
            MINK_CL_TRY(ctx, clFinish(queue[s]), fail);
            add_kernel_time(done[s], &st->kernel_ms);
            clReleaseEvent(done[s]);
            done[s] = NULL;
        }
        size_t m = n - at < chunk ? n - at : chunk;
        mink_batch_job j = job_at(job, at);
        status = enqueue_chunk(ctx, &j, m, s, &done[s]);
        if (status != MINK_OK) goto fail;
        st->launches++;
        at += m;
    }
    for (int s = 0; s < MINK_COPY_SLOTS; s++)
        if (done[s]) {
            MINK_CL_TRY(ctx, clFinish(queue[s]), fail);
            add_kernel_time(done[s], &st->kernel_ms);
        }
fail:
    for (int s = 0; s < MINK_COPY_SLOTS; s++) {
        /* Nothing may still use the caller's arrays. */
        if (status != MINK_OK && queue[s]) clFinish(queue[s]);
        if (done[s]) clReleaseEvent(done[s]);
    }
    return status;
}

static void scalar_range(void *job, size_t begin, size_t end) {
    const mink_batch_job j = job_at(job, begin);
    j.kind->scalar(end - begin, j.dt, &j.desc, j.in, j.out);
}

mink_status mink__batch_range(mink_context *ctx, const mink_batch_job *job, mink_backend path, size_t begin,
                              size_t end, mink_batch_stats *st) {
    if (path != MINK_BACKEND_OPENCL) {
        mink_batch_job j = job_at(job, begin);
        mink__split(ctx, end - begin, MINK_PAIRS_PER_THREAD, scalar_range, &j);
        return MINK_OK;
    }
    mink_status built = mink__context_kernels(ctx, mink__kernel_part(job->kind->kernel));
    if (built != MINK_OK) return built;
    if (!ctx->map_host_memory) {
        mink_batch_job j = job_at(job, begin);
        return copy_pipeline(ctx, &j, end - begin, st);
    }
    /* Launches that fit the device. */
    for (size_t done = begin; done < end;) {
        size_t n = end - done;
        if (n > ctx->max_pairs_per_launch) n = ctx->max_pairs_per_launch;
        mink_batch_job j = job_at(job, done);
        mink_status status = launch_mapped(ctx, &j, n, &st->kernel_ms);
        if (status != MINK_OK) return status;
        st->launches++;
        done += n;
    }
    return MINK_OK;
}

/* Whether two byte ranges share a byte (NULL shares nothing: checked apart). */
static int overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a != NULL && b != NULL && x < y + b_bytes && y < x + a_bytes;
}

/* What every batch checks before touching its arrays. */
static mink_status check(mink_context *ctx, const mink_batch_job *job, const void *pairs, const void *hits,
                         size_t count) {
    const mink_batch_kind *kind = job->kind;
    const char *fn = kind->name;
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (count > 0 && (pairs == NULL || hits == NULL))
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: %s is NULL with count %zu", fn,
                          pairs == NULL ? "the input" : "the output", count);
    if (count > SIZE_MAX / kind->record_size || count > SIZE_MAX / sizeof(mink_hit))
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT,
                          "%s: count %zu overflows the byte count of its arrays", fn, count);
    if (!isfinite(job->dt) || job->dt < 0.0f)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: dt must be finite and >= 0, not %g", fn,
                          (double)job->dt);
    if (!isfinite(job->desc.target) || job->desc.target < 0.0f)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: desc->target must be finite and >= 0, not %g", fn,
                          (double)job->desc.target);
    /* In place is refused: a kind reads a pair in pieces (a block of records into columns, a run of
     * pairs a work-item), so hits written over pairs not yet read would change answers. */
    for (size_t i = 0; i < kind->arrays && count > 0; i++)
        for (size_t o = 0; o < mink__batch_outputs(kind); o++)
            if (overlap(job->in[i], count * mink__batch_in_size(kind), job->out[o],
                        count * mink__batch_out_size(kind)))
                return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT,
                                  "%s: the output overlaps the input (in place is not supported: give the "
                                  "hits their own array)", fn);
    for (size_t k = 0; k < kind->arrays && count > 0 && kind->arrays > 1; k++)
        if (job->in[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: input column %zu of %zu is NULL with count %zu",
                              fn, k, kind->arrays, count);
    for (size_t k = 0; k < MINK_MAX_OUT && count > 0 && kind->arrays > 1; k++)
        if (job->out[k] == NULL)
            return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: output column %zu of 8 is NULL with count %zu",
                              fn, k, count);
    return MINK_OK;
}

mink_status mink__batch_run(mink_context *ctx, mink_batch_job *job, const void *pairs, const void *hits,
                            size_t count) {
    mink_status status = mink__async_guard(ctx, job->kind->name);
    if (status == MINK_OK) status = check(ctx, job, pairs, hits, count);
    if (status != MINK_OK) return status;
    mink_auto_plan plan;
    status = mink__auto_begin(ctx, job, count, &plan);
    mink_batch_stats st = {0};
    mink_backend path = ctx->backend;
    double t0 = mink__now_ms();
    for (size_t done = 0, end = 0; done < count && status == MINK_OK; done = end) {
        mink__auto_next(ctx, &plan, done, &path, &end);
        double t = mink__now_ms();
        status = mink__batch_range(ctx, job, path, done, end, &st);
        mink__auto_took(ctx, &plan, path, end - done, mink__now_ms() - t);
    }
    if (status != MINK_OK) return status;
    st.total_ms = mink__now_ms() - t0;
    if (path != MINK_BACKEND_OPENCL) st.kernel_ms = st.total_ms;
    st.pairs = count;
    st.bytes_in = count * job->kind->record_size;
    st.bytes_out = count * sizeof(mink_hit);
    st.backend = path;
    ctx->stats = st;
    return MINK_OK;
}
