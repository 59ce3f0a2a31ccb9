/* host/context.c — creating a context on a device (or the scalar path) and tearing it down. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static mink_status open_device(mink_context *ctx, const mink_context_desc *desc, cl_device_id dev) {
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    ctx->cl_device = dev;
    mink__device_label(dev, ctx->device, sizeof ctx->device);

    ctx->cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateContext", err, fail);
    /* Profiling gives the kernel-only time in mink_batch_stats; its cost is a timestamp per launch. */
    ctx->queue = clCreateCommandQueue(ctx->cl, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    MINK_CL_CHECK(ctx, "clCreateCommandQueue", err, fail);

    cl_ulong max_alloc = 0;
    cl_bool unified = CL_FALSE;
    MINK_CL_TRY(ctx, clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL), fail);
    MINK_CL_TRY(ctx, clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL), fail);
    cl_device_type type = 0;
    MINK_CL_TRY(ctx, clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL), fail);
    ctx->cpu_device = (type & CL_DEVICE_TYPE_CPU) != 0;

    /* Pairs per launch: the allocation limit, the kernels' 32-bit count, and the caller's cap. */
    size_t limit = (size_t)(max_alloc / MINK_MAX_RECORD_SIZE);
    size_t count_limit = (size_t)UINT32_MAX - MINK_LOCAL_SIZE;
    if (limit > count_limit) limit = count_limit;
    if (desc->max_pairs_per_launch > 0 && desc->max_pairs_per_launch < limit)
        limit = desc->max_pairs_per_launch;
    if (limit == 0) {
        status = mink__fail(ctx, MINK_ERR_NO_DEVICE, "%s: allocation limit of %llu bytes is too small",
                            ctx->device, (unsigned long long)max_alloc);
        goto fail;
    }
    ctx->max_pairs_per_launch = limit;
    ctx->map_host_memory = desc->transfer == MINK_TRANSFER_MAP ||
                           (desc->transfer == MINK_TRANSFER_AUTO && unified);
    ctx->backend = MINK_BACKEND_OPENCL;
    ctx->auto_pick = desc->backend == MINK_BACKEND_AUTO;
    ctx->auto_fixed = desc->auto_min_pairs > 0;
    for (int k = 0; k < MINK_KERNEL_LAYOUT; k++) ctx->auto_min[k] = desc->auto_min_pairs;
fail:
    return status;
}

mink_status mink__context_kernels(mink_context *ctx, int part) {
    if (part < 0 || part >= MINK_PART_COUNT)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "no part %d of the program", part);
    if (ctx->programs[part] != NULL) return MINK_OK;
    mink_status status = mink__program_build(ctx, part);
    /* An explicit work-group size: left to itself PoCL groups 4096 work-items, and with the
     * polygon kernels' private records (a mink_pair is 328 bytes) its work-group function then
     * overflows its thread's stack. 256 is as fast for the small kernels (measured with
     * bench_batch) and within every device's limit, which the kernel may lower further. */
    /* The kernels whose items hold two bodies and their hulls (the mixed, turning, ray and capsule
     * batches, the world's and the queries' passes over polygons and capsules) get 64: at 256, PoCL's
     * work-group function for the mixed batch outgrew its thread's stack once capsules joined
     * mink_body, and wrote past it into the caller's memory. */
    static const mink_kernel_id bodies[] = {
        MINK_KERNEL_SWEEP_PAIR,           MINK_KERNEL_SWEEP_ROTATING,       MINK_KERNEL_SWEEP_RAY,
        MINK_KERNEL_SWEEP_CAPSULE,        MINK_KERNEL_SWEEP_CAPSULE_CIRCLE,
        MINK_KERNEL_WORLD_NARROW_POLYGONS,  MINK_KERNEL_WORLD_NARROW_HULLS,  MINK_KERNEL_WORLD_RESOLVE_POLYGONS,
        MINK_KERNEL_WORLD_RESOLVE_HULLS,    MINK_KERNEL_WORLD_RESWEEP_POLYGONS, MINK_KERNEL_WORLD_RESWEEP_HULLS,
        MINK_KERNEL_WORLD_PICK_POLYGONS,    MINK_KERNEL_WORLD_PICK_HULLS,    MINK_KERNEL_WORLD_SAFETY_POLYGONS,
        MINK_KERNEL_WORLD_SAFETY_HULLS,     MINK_KERNEL_QUERY_POLYGONS,      MINK_KERNEL_QUERY_HULLS,
        MINK_KERNEL_QUERY_MOVE_POLYGONS,    MINK_KERNEL_QUERY_MOVE_HULLS};
    for (int k = 0; k < MINK_KERNEL_COUNT && status == MINK_OK; k++) {
        if (mink__kernel_part((mink_kernel_id)k) != part) continue;
        size_t most = 0, want = MINK_LOCAL_SIZE;
        for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) want = (int)bodies[i] == k ? MINK_LOCAL_SIZE_BODIES : want;
        size_t required[3] = {0, 0, 0}; /* a kernel built for one size (reqd_work_group_size) gets it */
        MINK_CL_TRY(ctx, clGetKernelWorkGroupInfo(ctx->kernels[k], ctx->cl_device, CL_KERNEL_WORK_GROUP_SIZE,
                                                  sizeof most, &most, NULL), fail);
        MINK_CL_TRY(ctx, clGetKernelWorkGroupInfo(ctx->kernels[k], ctx->cl_device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                  sizeof required, required, NULL), fail);
        ctx->local_size[k] = required[0] ? required[0] : most == 0 ? 1 : (most < want ? most : want);
    }
fail:
    if (status != MINK_OK) mink__context_forget(ctx, part);
    return status;
}

void mink__context_forget(mink_context *ctx, int part) {
    for (int k = 0; k < MINK_KERNEL_COUNT; k++)
        if (mink__kernel_part((mink_kernel_id)k) == part && ctx->kernels[k]) {
            clReleaseKernel(ctx->kernels[k]), ctx->kernels[k] = NULL;
            memset(ctx->world_bound[k], 0, sizeof ctx->world_bound[k]); /* a new kernel has nothing bound */
        }
    if (ctx->programs[part]) clReleaseProgram(ctx->programs[part]), ctx->programs[part] = NULL;
}

mink_status mink_context_create(const mink_context_desc *desc_in, mink_context **out) {
    if (out == NULL)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_context_create: out is NULL");
    *out = NULL;
    mink_context_desc desc = {0};
    if (desc_in != NULL) desc = *desc_in;
    if ((unsigned)desc.backend > MINK_BACKEND_OPENCL)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_context_create: unknown backend %d",
                          (int)desc.backend);
    if ((unsigned)desc.transfer > MINK_TRANSFER_COPY)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_context_create: unknown transfer %d",
                          (int)desc.transfer);
    if (desc.threads > MINK_MAX_THREADS)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_context_create: %u threads (at most %u)",
                          desc.threads, MINK_MAX_THREADS);
    if (desc.backend == MINK_BACKEND_SCALAR && desc.device != NULL)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT,
                          "mink_context_create: a device (\"%s\") was named for the scalar backend",
                          desc.device);

    mink_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_OUT_OF_MEMORY, "out of memory for a context");
    ctx->backend = MINK_BACKEND_SCALAR;
    ctx->threads = desc.threads > 0 ? desc.threads : mink__cores();
    ctx->on_build = desc.on_build, ctx->on_build_user = desc.on_build_user;
    snprintf(ctx->device, sizeof ctx->device, "scalar");

    mink_status status = MINK_OK;
    if (desc.backend != MINK_BACKEND_SCALAR) {
        cl_device_id dev = NULL;
        char note[1200];
        status = mink__select_device(&desc, &dev, note, sizeof note);
        if (status == MINK_OK && dev != NULL) status = open_device(ctx, &desc, dev);
        else if (status == MINK_OK) mink__note(ctx, "%s", note); /* AUTO with nothing to use */
    }
    if (status != MINK_OK) {
        mink_context_destroy(ctx);
        return status;
    }
    *out = ctx;
    return MINK_OK;
}

void mink_context_destroy(mink_context *ctx) {
    if (ctx == NULL) return;
    mink__async_release(ctx); /* a submitted call ends first: it uses all that follows */
    mink__pool_destroy(ctx->pool);
    for (int s = 0; s < MINK_COPY_SLOTS; s++)
        for (int k = 0; k < MINK_MAX_ARRAYS; k++)
            if (ctx->bufs[s][k]) clReleaseMemObject(ctx->bufs[s][k]);
    for (int k = 0; k < MINK_KERNEL_COUNT; k++)
        if (ctx->kernels[k]) clReleaseKernel(ctx->kernels[k]);
    for (int p = 0; p < MINK_PART_COUNT; p++)
        if (ctx->programs[p]) clReleaseProgram(ctx->programs[p]);
    if (ctx->queue2) clReleaseCommandQueue(ctx->queue2);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->cl) clReleaseContext(ctx->cl);
    free(ctx->error);
    free(ctx);
}

mink_backend mink_context_backend(const mink_context *ctx) {
    return ctx != NULL ? ctx->backend : MINK_BACKEND_AUTO;
}

const char *mink_context_device(const mink_context *ctx) { return ctx != NULL ? ctx->device : ""; }

const char *mink_context_error(const mink_context *ctx) {
    /* Not while a submitted call may be writing it: its message comes with the wait. */
    if (ctx != NULL && ctx->async.pending) return "a submitted call is in flight on this context";
    return ctx != NULL && ctx->error != NULL ? ctx->error : "";
}

mink_batch_stats mink_context_stats(const mink_context *ctx) {
    mink_batch_stats none = {0};
    return ctx != NULL && !ctx->async.pending ? ctx->stats : none; /* not while a submitted call writes them */
}
