/* host/program.c — building the embedded OpenCL program once per context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Generated at build time from the kernels in kernels/ with the shared headers (include/mink/body.h and below) inlined
 * (cmake/embed_kernels.cmake), so an installed program needs no file beside it. */
extern const char mink__kernel_source[];

#ifdef MINK_FAULT_SEAM
/* The test-only build (host/seam.h): when set, built instead of the embedded source, to prove
 * that build errors surface with their log. Not in the shipped library. */
const char *mink__test_kernel_source = NULL;
#define MINK_KERNEL_SOURCE (mink__test_kernel_source ? mink__test_kernel_source : mink__kernel_source)
#else
#define MINK_KERNEL_SOURCE mink__kernel_source
#endif

#define MINK_KIND_NAME(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    [MINK_KERNEL_SWEEP_##KIND] = "mink_sweep_" #kind "_kernel",
static const char *const kernel_names[MINK_KERNEL_COUNT] = {
    MINK_BATCH_KINDS(MINK_KIND_NAME)
    [MINK_KERNEL_LAYOUT] = "mink_layout_kernel",
    [MINK_KERNEL_WORLD_BOUNDS] = "mink_world_bounds_kernel",
    [MINK_KERNEL_MEASURE] = "mink_measure_kernel",
    [MINK_KERNEL_MEASURE_TOP] = "mink_measure_top_kernel",
    [MINK_KERNEL_RADIX_COUNT] = "mink_radix_count_kernel",
    [MINK_KERNEL_RADIX_SCATTER] = "mink_radix_scatter_kernel",
    [MINK_KERNEL_SCAN_SUM] = "mink_scan_sum_kernel",
    [MINK_KERNEL_SCAN_TOP] = "mink_scan_top_kernel",
    [MINK_KERNEL_SCAN_APPLY] = "mink_scan_apply_kernel",
    [MINK_KERNEL_GRID_COUNT] = "mink_grid_count_kernel",
    [MINK_KERNEL_GRID_EMIT] = "mink_grid_emit_kernel",
    [MINK_KERNEL_GRID_GATHER] = "mink_grid_gather_kernel",
    [MINK_KERNEL_GRID_PAIRS] = "mink_grid_pairs_kernel",
    [MINK_KERNEL_WORLD_NARROW] = "mink_world_narrow_kernel",
    [MINK_KERNEL_WORLD_NARROW_POLYGONS] = "mink_world_narrow_polygons_kernel",
    [MINK_KERNEL_WORLD_NARROW_HULLS] = "mink_world_narrow_hulls_kernel",
    [MINK_KERNEL_WORLD_DEGREE] = "mink_world_degree_kernel",
    [MINK_KERNEL_WORLD_RESOLVE] = "mink_world_resolve_kernel",
    [MINK_KERNEL_WORLD_RESOLVE_POLYGONS] = "mink_world_resolve_polygons_kernel",
    [MINK_KERNEL_WORLD_RESOLVE_HULLS] = "mink_world_resolve_hulls_kernel",
    [MINK_KERNEL_WORLD_RESWEEP] = "mink_world_resweep_kernel",
    [MINK_KERNEL_WORLD_RESWEEP_POLYGONS] = "mink_world_resweep_polygons_kernel",
    [MINK_KERNEL_WORLD_RESWEEP_HULLS] = "mink_world_resweep_hulls_kernel",
    [MINK_KERNEL_WORLD_PICK] = "mink_world_pick_kernel",
    [MINK_KERNEL_WORLD_PICK_POLYGONS] = "mink_world_pick_polygons_kernel",
    [MINK_KERNEL_WORLD_PICK_HULLS] = "mink_world_pick_hulls_kernel",
    [MINK_KERNEL_WORLD_FIRE] = "mink_world_fire_kernel",
    [MINK_KERNEL_WORLD_SAFETY] = "mink_world_safety_kernel",
    [MINK_KERNEL_WORLD_SAFETY_POLYGONS] = "mink_world_safety_polygons_kernel",
    [MINK_KERNEL_WORLD_SAFETY_HULLS] = "mink_world_safety_hulls_kernel",
    [MINK_KERNEL_WORLD_PLACE] = "mink_world_place_kernel",
    [MINK_KERNEL_WORLD_FINAL_BOUNDS] = "mink_world_final_bounds_kernel",
    [MINK_KERNEL_QUERY_BOUNDS] = "mink_query_bounds_kernel",
    [MINK_KERNEL_QUERY] = "mink_query_kernel",
    [MINK_KERNEL_QUERY_POLYGONS] = "mink_query_polygons_kernel",
    [MINK_KERNEL_QUERY_HULLS] = "mink_query_hulls_kernel",
    [MINK_KERNEL_QUERY_MOVE] = "mink_query_move_kernel",
    [MINK_KERNEL_QUERY_MOVE_POLYGONS] = "mink_query_move_polygons_kernel",
    [MINK_KERNEL_QUERY_MOVE_HULLS] = "mink_query_move_hulls_kernel",
    [MINK_KERNEL_WORLD_SCATTER] = "mink_world_scatter_kernel",
    [MINK_KERNEL_WORLD_GATHER] = "mink_world_gather_kernel",
    [MINK_KERNEL_WORLD_LAYOUT] = "mink_world_layout_kernel",
};

mink_status mink__check_layout(mink_context *ctx, mink_kernel_id id, const cl_uint *host, int n) {
    enum { N = MINK_BATCH_KIND_COUNT + 1 > 16 ? MINK_BATCH_KIND_COUNT + 1 : 16 }; /* the batches' or the world's */
    cl_uint device[N] = {0};
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    cl_kernel k = ctx->kernels[id];
    size_t one = 1;
    cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, sizeof device, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateBuffer", err, done);
    MINK_CL_TRY(ctx, clSetKernelArg(k, 0, sizeof buf, &buf), done);
    MINK_CL_TRY(ctx, clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL), done);
    MINK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof device, device, 0, NULL, NULL), done);
    if (n > N) return mink__fail(ctx, MINK_ERR_BUILD, "the layout check has room for %d records, not %d", N, n);
    for (int i = 0; i < n; i++)
        if (device[i] != host[i]) {
            status = mink__fail(ctx, MINK_ERR_NO_DEVICE,
                                "%s lays out mink's records differently from the host (%s record %d: "
                                "%u bytes on the device, %u on the host)",
                                ctx->device, id == MINK_KERNEL_LAYOUT ? "batch" : "world", i, (unsigned)device[i],
                                (unsigned)host[i]);
            break;
        }
done:
    if (buf) clReleaseMemObject(buf);
    return status;
}

/* Flags that exist for determinism, so the device gives the scalar path's bits:
 * -cl-fp32-correctly-rounded-divide-sqrt: IEEE division and sqrt, as C has them. Without it
 *     OpenCL allows 2.5 ulp division and 3 ulp sqrt.
 * Deliberately absent: -cl-mad-enable, -cl-unsafe-math-optimizations, -cl-fast-relaxed-math,
 *     -cl-denorms-are-zero. Contraction is turned off in the source (#pragma OPENCL FP_CONTRACT).
 * -w: PoCL prints a build's warnings on the program's standard error, where a user of mink would
 *     read them as its own. The kernels build without a warning under clang -Wall -Wextra
 *     (ctest: kernels_warnings_*); what is left is PoCL 3 saying its first pass did not widen the
 *     circle columns' loop, which its second does (kernels/sweep.cl). */
static const char build_options[] = "-cl-fp32-correctly-rounded-divide-sqrt -w";

/* Columns and circle records per work-item on a CPU device (kernels/sweep.cl, MINK_RUN).
 * PoCL 3 runs LLVM's vectorizers on one work-item's code before it wraps the work-group loop
 * around it: the SLP vectorizer packs a box's x and y into 2-lane vectors, and the loop
 * vectorizer then refuses the work-group loop ("instruction return type cannot be vectorized").
 * A loop over a run of pairs inside the kernel is vectorized first, 8 pairs a lane-set, several
 * times faster (docs/benchmarks.md, "Figures behind the code"). 64 pairs keep a run's columns
 * (20 × 4 × 64 bytes) in the L1 cache. Box records stay one per work-item: their loop is
 * vectorized only with gathers, and private columns PoCL copies per work-item; both measured no
 * faster for the cheap box math. A GPU keeps one pair per work-item, for coalesced access. */
#define MINK_CPU_RUN 64

static mink_status build_failed(mink_context *ctx, cl_int err, const char *options) {
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(ctx->program, ctx->cl_device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 0 && (log = malloc(size + 1)) != NULL) {
        if (clGetProgramBuildInfo(ctx->program, ctx->cl_device, CL_PROGRAM_BUILD_LOG, size, log,
                                  NULL) != CL_SUCCESS)
            size = 0;
        log[size] = '\0';
    }
    /* The message keeps the log (up to 16 KiB, then marked as cut), in mink_last_error() and the
     * context's mink_context_error(). */
    mink_status status =
        mink__fail(ctx, MINK_ERR_BUILD, "clBuildProgram failed: %s (%d) on %s with \"%s\"\n%s",
                   mink__cl_error_name(err), (int)err, ctx->device, options,
                   log != NULL ? log : "(no build log)");
    free(log);
    return status;
}

mink_status mink__program_build(mink_context *ctx) {
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    const char *source = MINK_KERNEL_SOURCE;
    ctx->program = clCreateProgramWithSource(ctx->cl, 1, &source, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateProgramWithSource", err, fail);
    cl_device_type type = 0;
    MINK_CL_TRY(ctx, clGetDeviceInfo(ctx->cl_device, CL_DEVICE_TYPE, sizeof type, &type, NULL), fail);
    unsigned run = (type & CL_DEVICE_TYPE_CPU) ? MINK_CPU_RUN : 1;
    for (int k = 0; k < MINK_KERNEL_COUNT; k++)
        ctx->pairs_per_item[k] = k < MINK_BATCH_KIND_COUNT && mink__batch_kinds[k].runs ? run : 1;
    char options[sizeof build_options + 32];
    snprintf(options, sizeof options, "%s -DMINK_RUN=%u", build_options, run);
    err = clBuildProgram(ctx->program, 1, &ctx->cl_device, options, NULL, NULL);
    if (err != CL_SUCCESS) return build_failed(ctx, err, options);
    for (int k = 0; k < MINK_KERNEL_COUNT; k++) {
        ctx->kernels[k] = clCreateKernel(ctx->program, kernel_names[k], &err);
        MINK_CL_CHECK(ctx, "clCreateKernel", err, fail);
    }
    /* mink_hit, then each kind's record (kernels/sweep.cl); the world's when one is made. */
    cl_uint batch[MINK_BATCH_KIND_COUNT + 1] = {sizeof(mink_hit)};
    for (int k = 0; k < MINK_BATCH_KIND_COUNT; k++) batch[k + 1] = (cl_uint)mink__batch_kinds[k].record_size;
    status = mink__check_layout(ctx, MINK_KERNEL_LAYOUT, batch, MINK_BATCH_KIND_COUNT + 1);
fail:
    return status;
}
