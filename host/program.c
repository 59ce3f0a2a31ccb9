/* host/program.c — building the embedded OpenCL program, a part at a time (core/parts.h). */
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

/* Each kernel's name and the part of the program it is built in (core/parts.h). */
typedef struct kernel_info {
    const char *name;
    int part; /* -1: built in every batch part and run once, by the first (the layout check) */
} kernel_info;
#define MINK_KIND_NAME(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    [MINK_KERNEL_SWEEP_##KIND] = {"mink_sweep_" #kind "_kernel", MINK_PART_##KIND},
#define WORLD(ID, name) [MINK_KERNEL_##ID] = {name, MINK_PART_WORLD}
/* A pass that sweeps: built for boxes and circles, with polygons, with polygons and capsules, in
 * part P (MINK_PART_WORLD or MINK_PART_QUERY) and the two after it. */
#define SHAPES(P, ID, name)                                                                        \
    [MINK_KERNEL_##ID] = {name "_kernel", MINK_PART_##P},                                          \
    [MINK_KERNEL_##ID##_POLYGONS] = {name "_polygons_kernel", MINK_PART_##P##_POLYGONS},           \
    [MINK_KERNEL_##ID##_HULLS] = {name "_hulls_kernel", MINK_PART_##P##_HULLS}
static const kernel_info kernels[MINK_KERNEL_COUNT] = {
    MINK_BATCH_KINDS(MINK_KIND_NAME)
    [MINK_KERNEL_LAYOUT] = {"mink_layout_kernel", -1},
    WORLD(WORLD_BOUNDS, "mink_world_bounds_kernel"),
    WORLD(MEASURE, "mink_measure_kernel"),
    WORLD(MEASURE_TOP, "mink_measure_top_kernel"),
    WORLD(RADIX_COUNT, "mink_radix_count_kernel"),
    WORLD(RADIX_SCATTER, "mink_radix_scatter_kernel"),
    WORLD(SCAN_SUM, "mink_scan_sum_kernel"),
    WORLD(SCAN_TOP, "mink_scan_top_kernel"),
    WORLD(SCAN_APPLY, "mink_scan_apply_kernel"),
    WORLD(GRID_COUNT, "mink_grid_count_kernel"),
    WORLD(GRID_EMIT, "mink_grid_emit_kernel"),
    WORLD(GRID_GATHER, "mink_grid_gather_kernel"),
    WORLD(GRID_PAIRS, "mink_grid_pairs_kernel"),
    SHAPES(WORLD, WORLD_NARROW, "mink_world_narrow"),
    WORLD(WORLD_DEGREE, "mink_world_degree_kernel"),
    SHAPES(WORLD, WORLD_RESOLVE, "mink_world_resolve"),
    SHAPES(WORLD, WORLD_RESWEEP, "mink_world_resweep"),
    SHAPES(WORLD, WORLD_PICK, "mink_world_pick"),
    WORLD(WORLD_FIRE, "mink_world_fire_kernel"),
    SHAPES(WORLD, WORLD_SAFETY, "mink_world_safety"),
    WORLD(WORLD_PLACE, "mink_world_place_kernel"),
    SHAPES(WORLD, WORLD_IMPULSE_ROUNDS, "mink_world_impulse_rounds"),
    SHAPES(WORLD, WORLD_SAFETY_ROUNDS, "mink_world_safety_rounds"),
    WORLD(WORLD_FINAL_BOUNDS, "mink_world_final_bounds_kernel"),
    WORLD(ORDER_KEY, "mink_order_key_kernel"),
    WORLD(ORDER_GATHER, "mink_order_gather_kernel"),
    [MINK_KERNEL_QUERY_BOUNDS] = {"mink_query_bounds_kernel", MINK_PART_QUERY},
    SHAPES(QUERY, QUERY, "mink_query"),
    SHAPES(QUERY, QUERY_MOVE, "mink_query_move"),
    WORLD(WORLD_SCATTER, "mink_world_scatter_kernel"),
    WORLD(WORLD_GATHER, "mink_world_gather_kernel"),
    WORLD(WORLD_LAYOUT, "mink_world_layout_kernel"),
};
#undef MINK_KIND_NAME
#undef WORLD
#undef SHAPES

/* What each part serves, as mink_build_info.part names it. */
#define MINK_KIND_PART_NAME(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    [MINK_PART_##KIND] = #function,
static const char *const part_names[MINK_PART_COUNT] = {
    MINK_BATCH_KINDS(MINK_KIND_PART_NAME)
    [MINK_PART_WORLD] = "mink_world_step",
    [MINK_PART_WORLD_POLYGONS] = "mink_world_step with polygons",
    [MINK_PART_WORLD_HULLS] = "mink_world_step with polygons and capsules",
    [MINK_PART_QUERY] = "the world's queries",
    [MINK_PART_QUERY_POLYGONS] = "the world's queries with polygons",
    [MINK_PART_QUERY_HULLS] = "the world's queries with polygons and capsules",
};
#undef MINK_KIND_PART_NAME

/* A batch kind's kernel id is its part: the batch parts come first, in the table's order. */
_Static_assert((int)MINK_PART_WORLD == (int)MINK_BATCH_KIND_COUNT, "the batch kinds' parts come first");

int mink__kernel_part(mink_kernel_id id) { return kernels[id].part; }

mink_status mink__check_layout(mink_context *ctx, cl_kernel k, const char *what, const cl_uint *host, int n) {
    enum { N = MINK_BATCH_KIND_COUNT + 1 > 16 ? MINK_BATCH_KIND_COUNT + 1 : 16 }; /* the batches' or the world's */
    cl_uint device[N] = {0};
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    size_t one = 1;
    if (n > N) return mink__fail(ctx, MINK_ERR_BUILD, "the layout check has room for %d records, not %d", N, n);
    cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, sizeof device, NULL, &err);
    MINK_CL_CHECK(ctx, "clCreateBuffer", err, done);
    MINK_CL_TRY(ctx, clSetKernelArg(k, 0, sizeof buf, &buf), done);
    MINK_CL_TRY(ctx, clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL), done);
    MINK_CL_TRY(ctx, clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof device, device, 0, NULL, NULL), done);
    for (int i = 0; i < n; i++)
        if (device[i] != host[i]) {
            status = mink__fail(ctx, MINK_ERR_NO_DEVICE,
                                "%s lays out mink's records differently from the host (%s record %d: "
                                "%u bytes on the device, %u on the host)",
                                ctx->device, what, i, (unsigned)device[i],
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

/* Pairs per work-item on a CPU device for columns and box, circle and circle–box records
 * (kernels/sweep.cl, MINK_RUN).
 * PoCL 3 runs LLVM's vectorizers on one work-item's code before it wraps the work-group loop
 * around it: the SLP vectorizer packs a box's x and y into 2-lane vectors, and the loop
 * vectorizer then refuses the work-group loop ("instruction return type cannot be vectorized").
 * A loop over a run of pairs inside the kernel is vectorized first, 8 pairs a lane-set, several
 * times faster (docs/benchmarks.md, "Figures behind the code"). 64 pairs keep a run's columns
 * (20 × 4 × 64 bytes) in the L1 cache. Records are read and written a float at a time: a loop
 * that loads whole records is not vectorized. A GPU keeps one pair per work-item, for coalesced
 * access. */
#define MINK_CPU_RUN 64

static mink_status build_failed(mink_context *ctx, cl_program program, cl_int err, const char *options) {
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(program, ctx->cl_device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
        size > 0 && (log = malloc(size + 1)) != NULL) {
        if (clGetProgramBuildInfo(program, ctx->cl_device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS)
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

static mink_status build(mink_context *ctx, int part);

/* The part built (build below), with the desc's on_build told as it starts and ends. */
mink_status mink__program_build(mink_context *ctx, int part) {
    mink_build_info info = {.part = part_names[part] ? part_names[part] : "a part of the program"};
    if (ctx->on_build) ctx->on_build(&info, ctx->on_build_user);
    double t0 = mink__now_ms();
    mink_status status = build(ctx, part);
    info.done = 1, info.seconds = (mink__now_ms() - t0) * 1e-3, info.status = status;
    if (ctx->on_build) ctx->on_build(&info, ctx->on_build_user);
    return status;
}

static mink_status build(mink_context *ctx, int part) {
    mink_status status = MINK_OK;
    cl_int err = CL_SUCCESS;
    const char *source = MINK_KERNEL_SOURCE;
    cl_program program = clCreateProgramWithSource(ctx->cl, 1, &source, NULL, &err);
    ctx->programs[part] = program;
    MINK_CL_CHECK(ctx, "clCreateProgramWithSource", err, fail);
    cl_device_type type = 0;
    MINK_CL_TRY(ctx, clGetDeviceInfo(ctx->cl_device, CL_DEVICE_TYPE, sizeof type, &type, NULL), fail);
    unsigned run = (type & CL_DEVICE_TYPE_CPU) ? MINK_CPU_RUN : 1;
    char options[sizeof build_options + 72];
    snprintf(options, sizeof options, "%s -DMINK_RUN=%u -DMINK_PART=%d -DMINK_CPU_DEVICE=%d", build_options, run, part,
             (type & CL_DEVICE_TYPE_CPU) ? 1 : 0);
    err = clBuildProgram(program, 1, &ctx->cl_device, options, NULL, NULL);
    if (err != CL_SUCCESS) return build_failed(ctx, program, err, options);
    for (int k = 0; k < MINK_KERNEL_COUNT; k++) {
        if (kernels[k].name == NULL) /* an id the table above does not name: a mistake in mink */
            return mink__fail(ctx, MINK_ERR_BUILD, "kernel %d has no name in host/program.c's table", k);
        if (kernels[k].part != part) continue;
        ctx->pairs_per_item[k] = k < MINK_BATCH_KIND_COUNT && mink__batch_kinds[k].runs ? run : 1;
        ctx->kernels[k] = clCreateKernel(program, kernels[k].name, &err);
        MINK_CL_CHECK(ctx, "clCreateKernel", err, fail);
    }
    if (part < MINK_BATCH_KIND_COUNT && !ctx->batch_layout_checked) {
        /* mink_hit, then each kind's record (kernels/sweep.cl); the world's with its part. */
        cl_uint batch[MINK_BATCH_KIND_COUNT + 1] = {sizeof(mink_hit)};
        for (int k = 0; k < MINK_BATCH_KIND_COUNT; k++) batch[k + 1] = (cl_uint)mink__batch_kinds[k].record_size;
        cl_kernel layout = clCreateKernel(program, kernels[MINK_KERNEL_LAYOUT].name, &err);
        MINK_CL_CHECK(ctx, "clCreateKernel", err, fail);
        status = mink__check_layout(ctx, layout, "batch", batch, MINK_BATCH_KIND_COUNT + 1);
        clReleaseKernel(layout);
        ctx->batch_layout_checked = status == MINK_OK;
    }
fail:
    return status;
}
