/* host/status.c — status names, error messages, and OpenCL error names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* The last failure on this thread: the only place a failed mink_context_create can leave its
 * message, and handy for callers that keep no context at hand. */
static _Thread_local char mink_thread_error[16384];

const char *mink_status_string(mink_status status) {
    switch (status) {
#define MINK_STATUS_CASE_(name, text)                                                              \
    case name:                                                                                     \
        return #name ": " text;
        MINK_STATUS_LIST(MINK_STATUS_CASE_)
#undef MINK_STATUS_CASE_
    }
    return "unknown mink_status";
}

const char *mink_last_error(void) { return mink_thread_error; }

static void set_context_message(mink_context *ctx, const char *text) {
    if (ctx == NULL) return;
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy == NULL) return; /* keep the old message rather than fail while failing */
    memcpy(copy, text, n);
    free(ctx->error);
    ctx->error = copy;
}

static mink_status vfail(mink_context *ctx, mink_status status, const char *fmt, va_list ap) {
    static const char cut[] = "\n[... cut]";
    char text[sizeof mink_thread_error];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    if (n >= (int)sizeof text) memcpy(text + sizeof text - sizeof cut, cut, sizeof cut);
    snprintf(mink_thread_error, sizeof mink_thread_error, "%s", text);
    set_context_message(ctx, text);
    return status;
}

mink_status mink__fail(mink_context *ctx, mink_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail(ctx, status, fmt, ap);
    va_end(ap);
    return status;
}

void mink__note(mink_context *ctx, const char *fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_context_message(ctx, text);
}

mink_status mink__fail_cl(mink_context *ctx, const char *call, cl_int err) {
    /* `call` is the stringified expression; keep only the function's name. */
    int len = (int)strcspn(call, "(");
    mink_status status = err == CL_OUT_OF_HOST_MEMORY ? MINK_ERR_OUT_OF_MEMORY : MINK_ERR_OPENCL;
    return mink__fail(ctx, status, "%.*s failed: %s (%d)", len, call, mink__cl_error_name(err),
                      (int)err);
}

const char *mink__cl_error_name(cl_int err) {
    switch (err) {
#define MINK_CL_ERR_(e)                                                                            \
    case e:                                                                                        \
        return #e;
        MINK_CL_ERR_(CL_SUCCESS)
        MINK_CL_ERR_(CL_DEVICE_NOT_FOUND)
        MINK_CL_ERR_(CL_DEVICE_NOT_AVAILABLE)
        MINK_CL_ERR_(CL_COMPILER_NOT_AVAILABLE)
        MINK_CL_ERR_(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        MINK_CL_ERR_(CL_OUT_OF_RESOURCES)
        MINK_CL_ERR_(CL_OUT_OF_HOST_MEMORY)
        MINK_CL_ERR_(CL_PROFILING_INFO_NOT_AVAILABLE)
        MINK_CL_ERR_(CL_MEM_COPY_OVERLAP)
        MINK_CL_ERR_(CL_IMAGE_FORMAT_MISMATCH)
        MINK_CL_ERR_(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        MINK_CL_ERR_(CL_BUILD_PROGRAM_FAILURE)
        MINK_CL_ERR_(CL_MAP_FAILURE)
        MINK_CL_ERR_(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        MINK_CL_ERR_(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        MINK_CL_ERR_(CL_COMPILE_PROGRAM_FAILURE)
        MINK_CL_ERR_(CL_LINKER_NOT_AVAILABLE)
        MINK_CL_ERR_(CL_LINK_PROGRAM_FAILURE)
        MINK_CL_ERR_(CL_DEVICE_PARTITION_FAILED)
        MINK_CL_ERR_(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        MINK_CL_ERR_(CL_INVALID_VALUE)
        MINK_CL_ERR_(CL_INVALID_DEVICE_TYPE)
        MINK_CL_ERR_(CL_INVALID_PLATFORM)
        MINK_CL_ERR_(CL_INVALID_DEVICE)
        MINK_CL_ERR_(CL_INVALID_CONTEXT)
        MINK_CL_ERR_(CL_INVALID_QUEUE_PROPERTIES)
        MINK_CL_ERR_(CL_INVALID_COMMAND_QUEUE)
        MINK_CL_ERR_(CL_INVALID_HOST_PTR)
        MINK_CL_ERR_(CL_INVALID_MEM_OBJECT)
        MINK_CL_ERR_(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        MINK_CL_ERR_(CL_INVALID_IMAGE_SIZE)
        MINK_CL_ERR_(CL_INVALID_SAMPLER)
        MINK_CL_ERR_(CL_INVALID_BINARY)
        MINK_CL_ERR_(CL_INVALID_BUILD_OPTIONS)
        MINK_CL_ERR_(CL_INVALID_PROGRAM)
        MINK_CL_ERR_(CL_INVALID_PROGRAM_EXECUTABLE)
        MINK_CL_ERR_(CL_INVALID_KERNEL_NAME)
        MINK_CL_ERR_(CL_INVALID_KERNEL_DEFINITION)
        MINK_CL_ERR_(CL_INVALID_KERNEL)
        MINK_CL_ERR_(CL_INVALID_ARG_INDEX)
        MINK_CL_ERR_(CL_INVALID_ARG_VALUE)
        MINK_CL_ERR_(CL_INVALID_ARG_SIZE)
        MINK_CL_ERR_(CL_INVALID_KERNEL_ARGS)
        MINK_CL_ERR_(CL_INVALID_WORK_DIMENSION)
        MINK_CL_ERR_(CL_INVALID_WORK_GROUP_SIZE)
        MINK_CL_ERR_(CL_INVALID_WORK_ITEM_SIZE)
        MINK_CL_ERR_(CL_INVALID_GLOBAL_OFFSET)
        MINK_CL_ERR_(CL_INVALID_EVENT_WAIT_LIST)
        MINK_CL_ERR_(CL_INVALID_EVENT)
        MINK_CL_ERR_(CL_INVALID_OPERATION)
        MINK_CL_ERR_(CL_INVALID_GL_OBJECT)
        MINK_CL_ERR_(CL_INVALID_BUFFER_SIZE)
        MINK_CL_ERR_(CL_INVALID_MIP_LEVEL)
        MINK_CL_ERR_(CL_INVALID_GLOBAL_WORK_SIZE)
        MINK_CL_ERR_(CL_INVALID_PROPERTY)
        MINK_CL_ERR_(CL_INVALID_IMAGE_DESCRIPTOR)
        MINK_CL_ERR_(CL_INVALID_COMPILER_OPTIONS)
        MINK_CL_ERR_(CL_INVALID_LINKER_OPTIONS)
        MINK_CL_ERR_(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef MINK_CL_ERR_
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "an unknown OpenCL error";
}

double mink__now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
