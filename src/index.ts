/**
 * @module
 * The Worker entry: the HTTP API (`fetch`), the job, batches, webhook and dead-letter queue consumers
 * (`queue`, routed by queue name), the sweeper (`scheduled`), and the Durable Object classes: `EvaluationDO`,
 * `RateLimiterDO` (per-tenant request rates) and `ProviderGateDO` (per-provider adaptive concurrency).
 */
import { BATCHES_QUEUE, handleBatchMessages } from '../queues/batches.js';
import { handleDeadLetters, JOBS_DLQ } from '../queues/dead-letter.js';
import { handleJobs } from '../queues/jobs.js';
import { RESTART_SWEEP_CRON, sweep } from '../queues/sweeper.js';
import { handleWebhookDeadLetters, handleWebhookDeliveries, WEBHOOKS_DLQ, WEBHOOKS_QUEUE } from '../queues/webhooks.js';
import { app } from './api/app.js';
import type { Bindings } from './env.js';
import { log, messageOf } from './pipeline/log.js';
import { sweepDeliveries } from './webhooks/dispatch.js';

export { EvaluationDO } from '../durable-objects/evaluation/index.js';
export { ProviderGateDO } from '../durable-objects/provider-gate/index.js';
export { RateLimiterDO } from '../durable-objects/rate-limiter/index.js';

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  async queue(batch, env, _ctx): Promise<void> {
    if (batch.queue === JOBS_DLQ) await handleDeadLetters(batch, env);
    else if (batch.queue === BATCHES_QUEUE) await handleBatchMessages(batch, env);
    else if (batch.queue === WEBHOOKS_QUEUE) await handleWebhookDeliveries(batch, env);
    else if (batch.queue === WEBHOOKS_DLQ) await handleWebhookDeadLetters(batch, env);
    else await handleJobs(batch, env);
  },
  scheduled(controller, env, ctx): Promise<void> {
    // The local stack's sweep after a restart (queues/sweeper.ts): what the gone runtime left is due now.
    const restartedAt = controller.cron === RESTART_SWEEP_CRON ? controller.scheduledTime : undefined;
    ctx.waitUntil(
      sweep(env, restartedAt)
        .then((r) => {
          if (r.kicked.length + r.errors.length > 0)
            log('info', 'sweeper.run', { kicked: r.kicked.length, errors: r.errors.length });
        })
        // findStalled (D1) can throw; the next cron run retries, but the failure must show in the logs.
        .catch((e: unknown) => {
          log('error', 'sweeper.failed', { error: messageOf(e) });
        }),
    );
    // Webhook deliveries overdue in D1 (a lost queue message): re-enqueued; the next run retries a failure.
    ctx.waitUntil(
      sweepDeliveries(env, Date.now(), restartedAt).catch((e: unknown) => {
        log('error', 'webhooks.sweep_failed', { error: messageOf(e) });
      }),
    );
    return Promise.resolve();
  },
} satisfies ExportedHandler<Bindings>;
