/* host/seam.c — the fault seam's wrappers (test-only: built into mink_seam, never into mink).
 * Each counts itself, fails when its number comes up, and otherwise calls the real function;
 * the creating and releasing ones also keep the count of live objects. Tests drive it from one
 * thread; PoCL's own threads never call the API. */
#define MINK_SEAM_IMPL
#include "seam.h"

#include <stddef.h>

int mink__seam_baseline;
atomic_ulong mink__seam_v3_calls;

static unsigned long calls, nth;
static int sticky;
static cl_int error = CL_OUT_OF_RESOURCES;
static const char *failed;
static long live;
/* The names of the counted calls since the last arm, as far as the log holds them. */
#define SEAM_LOG 8192
static const char *log_names[SEAM_LOG];

void mink__seam_arm(unsigned long n, int stick, cl_int err) {
    calls = 0;
    nth = n;
    sticky = stick;
    error = err;
    failed = NULL;
}

unsigned long mink__seam_calls(void) { return calls; }
const char *mink__seam_failed(void) { return failed; }
const char *mink__seam_call(unsigned long n) { return n >= 1 && n <= calls && n <= SEAM_LOG ? log_names[n - 1] : NULL; }
long mink__seam_live(void) { return live; }

/* Counts a call; 1 when it must fail. */
static int fault(const char *name) {
    calls++;
    if (calls <= SEAM_LOG) log_names[calls - 1] = name;
    if (nth == 0 || calls < nth || (calls > nth && !sticky)) return 0;
    if (failed == NULL) failed = name;
    return 1;
}

#define FAIL_STATUS(name)                                                                          \
    do {                                                                                           \
        if (fault(name)) return error;                                                             \
    } while (0)
#define FAIL_OBJECT(name, errcode_ret)                                                             \
    do {                                                                                           \
        if (fault(name)) {                                                                         \
            if (errcode_ret) *(errcode_ret) = error;                                               \
            return NULL;                                                                           \
        }                                                                                          \
    } while (0)
/* An object came back: one more alive. */
static void *made(void *obj) {
    if (obj != NULL) live++;
    return obj;
}
/* An enqueue that hands back an event made one more object. */
static cl_int event_made(cl_int err, const cl_event *event) {
    if (err == CL_SUCCESS && event != NULL) live++;
    return err;
}

cl_int mink__seam_clGetPlatformIDs(cl_uint n, cl_platform_id *p, cl_uint *count) {
    FAIL_STATUS("clGetPlatformIDs");
    return clGetPlatformIDs(n, p, count);
}

cl_int mink__seam_clGetDeviceIDs(cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d, cl_uint *count) {
    FAIL_STATUS("clGetDeviceIDs");
    return clGetDeviceIDs(p, t, n, d, count);
}

cl_context mink__seam_clCreateContext(const cl_context_properties *props, cl_uint n, const cl_device_id *d,
                                      void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                      void *user, cl_int *err) {
    FAIL_OBJECT("clCreateContext", err);
    return made(clCreateContext(props, n, d, notify, user, err));
}

cl_command_queue mink__seam_clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties props,
                                                 cl_int *err) {
    FAIL_OBJECT("clCreateCommandQueue", err);
    return made(clCreateCommandQueue(c, d, props, err));
}

cl_program mink__seam_clCreateProgramWithSource(cl_context c, cl_uint n, const char **src, const size_t *len,
                                                cl_int *err) {
    FAIL_OBJECT("clCreateProgramWithSource", err);
    return made(clCreateProgramWithSource(c, n, src, len, err));
}

cl_int mink__seam_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *options,
                                 void(CL_CALLBACK *notify)(cl_program, void *), void *user) {
    FAIL_STATUS("clBuildProgram");
    return clBuildProgram(p, n, d, options, notify, user);
}

cl_kernel mink__seam_clCreateKernel(cl_program p, const char *name, cl_int *err) {
    FAIL_OBJECT("clCreateKernel", err);
    return made(clCreateKernel(p, name, err));
}

cl_int mink__seam_clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, size_t size,
                                           void *value, size_t *size_ret) {
    FAIL_STATUS("clGetKernelWorkGroupInfo");
    return clGetKernelWorkGroupInfo(k, d, what, size, value, size_ret);
}

cl_mem mink__seam_clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host, cl_int *err) {
    FAIL_OBJECT("clCreateBuffer", err);
    return made(clCreateBuffer(c, flags, size, host, err));
}

cl_int mink__seam_clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value) {
    FAIL_STATUS("clSetKernelArg");
    return clSetKernelArg(k, index, size, value);
}

cl_int mink__seam_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                                         const size_t *global, const size_t *local, cl_uint nwait,
                                         const cl_event *wait, cl_event *event) {
    FAIL_STATUS("clEnqueueNDRangeKernel");
    return event_made(clEnqueueNDRangeKernel(q, k, dims, offset, global, local, nwait, wait, event), event);
}

cl_int mink__seam_clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool block, size_t offset, size_t size,
                                       const void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event) {
    FAIL_STATUS("clEnqueueWriteBuffer");
    return event_made(clEnqueueWriteBuffer(q, b, block, offset, size, ptr, nwait, wait, event), event);
}

cl_int mink__seam_clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool block, size_t offset, size_t size,
                                      void *ptr, cl_uint nwait, const cl_event *wait, cl_event *event) {
    FAIL_STATUS("clEnqueueReadBuffer");
    return event_made(clEnqueueReadBuffer(q, b, block, offset, size, ptr, nwait, wait, event), event);
}

cl_int mink__seam_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                      size_t dst_offset, size_t size, cl_uint nwait, const cl_event *wait,
                                      cl_event *event) {
    FAIL_STATUS("clEnqueueCopyBuffer");
    return event_made(clEnqueueCopyBuffer(q, src, dst, src_offset, dst_offset, size, nwait, wait, event), event);
}

cl_int mink__seam_clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pattern, size_t pattern_size,
                                      size_t offset, size_t size, cl_uint nwait, const cl_event *wait,
                                      cl_event *event) {
    FAIL_STATUS("clEnqueueFillBuffer");
    return event_made(clEnqueueFillBuffer(q, b, pattern, pattern_size, offset, size, nwait, wait, event), event);
}

cl_int mink__seam_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nwait, const cl_event *wait,
                                              cl_event *event) {
    FAIL_STATUS("clEnqueueMarkerWithWaitList");
    return event_made(clEnqueueMarkerWithWaitList(q, nwait, wait, event), event);
}

cl_int mink__seam_clFlush(cl_command_queue q) {
    FAIL_STATUS("clFlush");
    return clFlush(q);
}

/* A failed wait still waits: what the queue holds may write into memory the test reuses next. */
cl_int mink__seam_clFinish(cl_command_queue q) {
    cl_int err = clFinish(q);
    FAIL_STATUS("clFinish");
    return err;
}

/* Releases never fail here: mink ignores their status, as there is nothing left to do then. */
#define RELEASE(type, f)                                                                           \
    cl_int mink__seam_##f(type obj) {                                                              \
        cl_int err = f(obj);                                                                       \
        if (err == CL_SUCCESS) live--;                                                             \
        return err;                                                                                \
    }
RELEASE(cl_context, clReleaseContext)
RELEASE(cl_command_queue, clReleaseCommandQueue)
RELEASE(cl_program, clReleaseProgram)
RELEASE(cl_kernel, clReleaseKernel)
RELEASE(cl_mem, clReleaseMemObject)
RELEASE(cl_event, clReleaseEvent)
