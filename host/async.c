/* host/async.c — batches that don't block (mink_batch_submit, _wait, _poll): the blocking call,
 * run on a thread that submit starts and wait joins. The same call, so the same bits; until the
 * wait the context is the call's, and mink__async_guard refuses every other call on it. */
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

/* Set on the call's own thread: the guard lets its calls through. */
static _Thread_local int in_call;

static mink_status make_call(mink_context *ctx, const mink_batch_desc *d) {
    switch (d->call) {
    case MINK_CALL_SWEEP_AABB: return mink_batch_sweep_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_AABB_SOA: return mink_batch_sweep_aabb_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    case MINK_CALL_SWEEP_CIRCLE: return mink_batch_sweep_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CIRCLE_SOA:
        return mink_batch_sweep_circle_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    case MINK_CALL_SWEEP_CIRCLE_AABB: return mink_batch_sweep_circle_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP: return mink_batch_sweep(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON: return mink_batch_sweep_polygon(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON_AABB: return mink_batch_sweep_polygon_aabb(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_POLYGON_CIRCLE:
        return mink_batch_sweep_polygon_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_ROTATING:
        return mink_batch_sweep_rotating(ctx, d->pairs, d->count, d->dt, &d->rotating, d->hits);
    case MINK_CALL_SWEEP_CAPSULE: return mink_batch_sweep_capsule(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CAPSULE_CIRCLE:
        return mink_batch_sweep_capsule_circle(ctx, d->pairs, d->count, d->dt, d->hits);
    case MINK_CALL_SWEEP_CIRCLE_AABB_SOA:
        return mink_batch_sweep_circle_aabb_soa(ctx, d->pairs, d->count, d->dt, d->hits_soa);
    case MINK_CALL_CAST_RAY: return mink_batch_cast_ray(ctx, d->pairs, d->count, d->hits);
    case MINK_CALL_WORLD_STEP: return mink_world_step(d->world, d->dt);
    case MINK_CALL_COUNT: break;
    }
    return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "mink_batch_submit: unknown call %d", (int)d->call);
}

/* The call, on its thread or (no thread) on the caller's; its status and message kept for the wait. */
static void *run_call(void *arg) {
    mink_context *ctx = arg;
    mink_async *a = &ctx->async;
    in_call = 1;
    a->status = make_call(ctx, &a->desc);
    if (a->status != MINK_OK) {
        const char *m = mink_last_error(); /* this thread's: the call's own failure */
        a->message = malloc(strlen(m) + 1);
        if (a->message) memcpy(a->message, m, strlen(m) + 1);
    }
    in_call = 0;
    atomic_store(&a->done, 1);
    return NULL;
}

mink_status mink__async_guard(mink_context *ctx, const char *fn) {
    if (ctx == NULL || !ctx->async.pending || in_call) return MINK_OK;
    /* Not the context's message: the call's thread may be writing it. */
    return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT,
                      "%s: a submitted call (ticket %llu) is in flight on this context: wait for it first", fn,
                      (unsigned long long)ctx->async.ticket);
}

void mink__async_settle(mink_context *ctx) {
    if (ctx == NULL || !ctx->async.running || in_call) return;
    pthread_join(ctx->async.thread, NULL);
    ctx->async.running = 0;
}

void mink__async_release(mink_context *ctx) {
    mink__async_settle(ctx);
    free(ctx->async.message);
    ctx->async.message = NULL;
    ctx->async.pending = 0;
}

mink_status mink_batch_submit(mink_context *ctx, const mink_batch_desc *batch, mink_ticket *ticket) {
    const char *fn = "mink_batch_submit";
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    mink_status status = mink__async_guard(ctx, fn);
    if (status != MINK_OK) return status;
    if (batch == NULL || ticket == NULL)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, batch == NULL ? "batch" : "ticket");
    if (batch->call < MINK_CALL_SWEEP_AABB || batch->call >= MINK_CALL_COUNT)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: unknown call %d", fn, (int)batch->call);
    if (batch->call == MINK_CALL_WORLD_STEP && (batch->world == NULL || batch->world->ctx != ctx))
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "%s: %s", fn,
                          batch->world == NULL ? "world is NULL" : "the world belongs to another context");
    mink_async *a = &ctx->async;
    free(a->message);
    a->message = NULL;
    a->desc = *batch;
    a->status = MINK_OK;
    atomic_store(&a->done, 0);
    a->ticket++;
    a->pending = 1;
    a->running = pthread_create(&a->thread, NULL, run_call, ctx) == 0;
    if (!a->running) run_call(ctx); /* no thread to be had: the call now, the same answers */
    *ticket = (mink_ticket){a->ticket};
    return MINK_OK;
}

/* The ticket is the one in flight on ctx. */
static mink_status check_ticket(mink_context *ctx, mink_ticket ticket, const char *fn) {
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (!ctx->async.pending || ticket.id != ctx->async.ticket)
        return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT,
                          "%s: ticket %llu is not in flight on this context (waited for already, or another's)", fn,
                          (unsigned long long)ticket.id);
    return MINK_OK;
}

mink_status mink_batch_wait(mink_context *ctx, mink_ticket ticket) {
    mink_status status = check_ticket(ctx, ticket, "mink_batch_wait");
    if (status != MINK_OK) return status;
    mink__async_settle(ctx);
    ctx->async.pending = 0;
    status = ctx->async.status;
    if (status != MINK_OK) mink__fail(ctx, status, "%s", ctx->async.message ? ctx->async.message : "");
    free(ctx->async.message);
    ctx->async.message = NULL;
    return status;
}

mink_status mink_batch_poll(mink_context *ctx, mink_ticket ticket, int *done) {
    mink_status status = check_ticket(ctx, ticket, "mink_batch_poll");
    if (status == MINK_OK && done == NULL)
        status = mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_batch_poll: done is NULL");
    if (status == MINK_OK) *done = atomic_load(&ctx->async.done);
    return status;
}
