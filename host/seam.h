/* host/seam.h — the fault seam: a test-only build of the library (MINK_FAULT_SEAM, the mink_seam
 * target) routes every OpenCL call that can fail through a counter, so a test can make the Nth
 * call fail and check that mink reports it, stays usable and leaks nothing.
 *
 * The shipped library never sees this file's redirections. Queries that only describe the device
 * (clGetDeviceInfo, clGetPlatformInfo, build logs, profiling) are not counted: mink reads them with
 * defaults in place, and a failure there is not one a caller could act on. */
#ifndef MINK_SEAM_H
#define MINK_SEAM_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdatomic.h>

/* Arms the seam: the nth counted call from now fails with `error` (0: nothing fails; calls are
 * still counted). sticky: that call and every later one fails, as on a lost device. */
void mink__seam_arm(unsigned long nth, int sticky, cl_int error);
/* Counted calls since the last arm. */
unsigned long mink__seam_calls(void);
/* The name of the first call made to fail since the last arm, or NULL. */
const char *mink__seam_failed(void);
/* The name of the nth counted call since the last arm (1-based), or NULL past the log's end. */
const char *mink__seam_call(unsigned long n);
/* OpenCL objects created through mink and not yet released (contexts, queues, programs, kernels,
 * buffers, events): 0 once everything mink made is destroyed. */
long mink__seam_live(void);

/* Non-zero: the scalar path takes its builds for any x86-64 even where faster ones would run
 * (record copies four at a time, not AVX2's eight, host/scalar.c; turning pairs' baseline build,
 * not x86-64-v3's, host/turning.c), so that a test on such a machine checks both builds give the
 * same bits. */
extern int mink__seam_baseline;
/* How many times an entry of turning pairs' x86-64-v3 build ran (host/turning.c). */
extern atomic_ulong mink__seam_v3_calls;

/* The redirections; seam.c, which calls the real functions, defines MINK_SEAM_IMPL. */
#define MINK_SEAM_FUNCTIONS(X)                                                                      \
    X(clGetPlatformIDs) X(clGetDeviceIDs) X(clCreateContext) X(clCreateCommandQueue)               \
    X(clCreateProgramWithSource) X(clBuildProgram) X(clCreateKernel) X(clGetKernelWorkGroupInfo)  \
    X(clCreateBuffer) X(clSetKernelArg) X(clEnqueueNDRangeKernel) X(clEnqueueWriteBuffer)         \
    X(clEnqueueReadBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer) X(clEnqueueMarkerWithWaitList) \
    X(clFlush) X(clFinish)                                                                         \
    X(clReleaseContext) X(clReleaseCommandQueue) X(clReleaseProgram) X(clReleaseKernel)            \
    X(clReleaseMemObject) X(clReleaseEvent)

#define MINK_SEAM_DECLARE_(f) extern __typeof__(f) mink__seam_##f;
MINK_SEAM_FUNCTIONS(MINK_SEAM_DECLARE_)
#undef MINK_SEAM_DECLARE_

#ifndef MINK_SEAM_IMPL
#define clGetPlatformIDs mink__seam_clGetPlatformIDs
#define clGetDeviceIDs mink__seam_clGetDeviceIDs
#define clCreateContext mink__seam_clCreateContext
#define clCreateCommandQueue mink__seam_clCreateCommandQueue
#define clCreateProgramWithSource mink__seam_clCreateProgramWithSource
#define clBuildProgram mink__seam_clBuildProgram
#define clCreateKernel mink__seam_clCreateKernel
#define clGetKernelWorkGroupInfo mink__seam_clGetKernelWorkGroupInfo
#define clCreateBuffer mink__seam_clCreateBuffer
#define clSetKernelArg mink__seam_clSetKernelArg
#define clEnqueueNDRangeKernel mink__seam_clEnqueueNDRangeKernel
#define clEnqueueWriteBuffer mink__seam_clEnqueueWriteBuffer
#define clEnqueueReadBuffer mink__seam_clEnqueueReadBuffer
#define clEnqueueCopyBuffer mink__seam_clEnqueueCopyBuffer
#define clEnqueueFillBuffer mink__seam_clEnqueueFillBuffer
#define clEnqueueMarkerWithWaitList mink__seam_clEnqueueMarkerWithWaitList
#define clFlush mink__seam_clFlush
#define clFinish mink__seam_clFinish
#define clReleaseContext mink__seam_clReleaseContext
#define clReleaseCommandQueue mink__seam_clReleaseCommandQueue
#define clReleaseProgram mink__seam_clReleaseProgram
#define clReleaseKernel mink__seam_clReleaseKernel
#define clReleaseMemObject mink__seam_clReleaseMemObject
#define clReleaseEvent mink__seam_clReleaseEvent
#endif

#endif /* MINK_SEAM_H */
