/**
 * @module
 * The Worker entry: the HTTP API (`fetch`), the job, batches, webhook and dead-letter queue consumers
 * (`queue`, routed by queue name), the sweeper (`scheduled`), and the Durable Object classes: `EvaluationDO`,
 * `RateLimiterDO` (per-tenant request rates), `ProviderGateDO` (per-provider adaptive concurrency),
 * `WebhookLaneDO` (one webhook receiver's deliveries), `WaveCoordinatorDO` (the batch tier's waves) and `TraceDO`
 * (one ingested trace's spans).
 */
import { routeQueue } from '../queues/router.js';
import { RESTART_SWEEP_CRON, sweep } from '../queues/sweeper.js';
import { app } from './app.js';
import type { Bindings } from './config/bindings.js';
import { applyLogLevel } from './config/vars.js';
import { log, messageOf } from './log/log.js';
import { sweepDeliveries } from './webhooks/dispatch.js';
import { sweepRetention } from './retention/sweep.js';
import { sweepArchive } from './retention/archive.js';

export { EvaluationDO } from '../durable-objects/evaluation/index.js';
export { ProviderGateDO } from '../durable-objects/provider-gate/index.js';
export { RateLimiterDO } from '../durable-objects/rate-limiter/index.js';
export { WebhookLaneDO } from '../durable-objects/webhook-lane/index.js';
export { WaveCoordinatorDO } from '../durable-objects/wave-coordinator/index.js';
export { TraceDO } from '../durable-objects/trace/index.js';

export default {
  fetch(request, env, ctx) {
    applyLogLevel(env);
    return app.fetch(request, env, ctx);
  },
  queue(batch, env, _ctx) {
    applyLogLevel(env);
    return routeQueue(batch, env);
  },
  scheduled(controller, env, ctx): Promise<void> {
    applyLogLevel(env);
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
    // Retention: ended evaluations' content and old webhook events past their window, a bounded page a run.
    ctx.waitUntil(
      sweepRetention(env, Date.now()).catch((e: unknown) => {
        log('error', 'retention.sweep_failed', { error: messageOf(e) });
      }),
    );
    // The archive: ended evaluations past ARCHIVE_AFTER_DAYS moved from D1 to R2, archived ones past retention erased.
    ctx.waitUntil(
      sweepArchive(env, Date.now()).catch((e: unknown) => {
        log('error', 'archive.sweep_failed', { error: messageOf(e) });
      }),
    );
    return Promise.resolve();
  },
} satisfies ExportedHandler<Bindings>;
