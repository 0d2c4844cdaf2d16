/**
 * @module
 * The webhook event of a run's end (the tenant's Standard Webhooks machinery, src/webhooks/): OpenAI's event
 * names `eval.run.succeeded`, `eval.run.failed` and `eval.run.canceled`, written by the statement that ends the
 * run, in its transaction and under its guard (the run still unended), so each run announces its end exactly
 * once whoever ends it (its worker, a cancel). Delivered to every enabled endpoint subscribed to the type
 * (runs take no one-off URL: OpenAI's run has none); handed to the delivery queue after the commit, and by the
 * sweeper if that hand-over is lost. The ending that changed the run also logs `evals.run_ended` ({@link runEnded}).
 */
import { z } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { log, logs, messageOf } from '../log/log.js';
import { enqueueDeliveries } from '../webhooks/dispatch.js';
import type { WebhookEventDoc } from '../webhooks/event-docs.js';
import type { WebhookEventType } from '../webhooks/outbox.js';
import { webhookEventStatements } from '../webhooks/outbox.js';
import { rawSql, sql } from '../webhooks/sql.js';
import { runCounts } from './run-item-rows.js';
import type { RunRecord } from './run-rows.js';

/** How a run ended. */
export type RunEnd = 'completed' | 'failed' | 'canceled';

const TYPE_OF: Record<RunEnd, WebhookEventType> = {
  completed: 'eval.run.succeeded',
  failed: 'eval.run.failed',
  canceled: 'eval.run.canceled',
};

/** `data` of a run's end event. */
export const RunEventDataSchema = z
  .object({
    id: z.string().openapi({ description: 'The run.' }),
    eval_id: z.string(),
    status: z.enum(['completed', 'failed', 'canceled']),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    links: z.object({ run: z.string(), output_items: z.string() }).strict(),
  })
  .strict()
  .meta({ id: 'EvalRunEventData', description: 'The ended run; its counts and usage: `links.run`.' });
/** `data` of a run's end event. */
export type RunEventData = z.infer<typeof RunEventDataSchema>;

/** The run's events as the OpenAPI document's `webhooks` section shows them. */
export const RUN_WEBHOOK_DOCS = {
  'eval.run.succeeded': { data: RunEventDataSchema, what: 'An Evals run completed: every item is graded.' },
  'eval.run.failed': { data: RunEventDataSchema, what: 'An Evals run failed (`data.error` says why).' },
  'eval.run.canceled': { data: RunEventDataSchema, what: 'An Evals run was cancelled.' },
} satisfies Partial<Record<WebhookEventType, WebhookEventDoc>>;

/**
 * The statements writing run `run`'s end event: run them in the ending's batch BEFORE the status update, whose
 * precondition `unended` (SQL over `eval_runs` at `run.id`, e.g. `status = 'in_progress'`) they share.
 */
export function runEndEventStatements(
  db: D1Database,
  run: Pick<RunRecord, 'id' | 'tenant' | 'evalId'>,
  end: RunEnd,
  error: RunRecord['error'],
  unended: string,
  now: number,
): D1PreparedStatement[] {
  const self = `/v1/evals/${run.evalId}/runs/${run.id}`;
  const data: RunEventData = {
    id: run.id,
    eval_id: run.evalId,
    status: end,
    error,
    links: { run: self, output_items: `${self}/output_items` },
  };
  return webhookEventStatements(db, {
    tenant: run.tenant,
    type: TYPE_OF[end],
    subjectId: run.id,
    data,
    guard: sql`EXISTS (SELECT 1 FROM eval_runs WHERE id = ${run.id} AND deleted_at IS NULL AND ${rawSql(unended)})`,
    now,
  });
}

/**
 * After the statement that ended run `run` as `end` committed AND changed it (its guard makes that happen once
 * per run, whoever ends it: its worker, a cancel; a repeated step finds the run ended and does not come here):
 * logs `evals.run_ended` at info (the run and eval ids, the status, the item counts, the error's code and the
 * run's age in ms; never an item, a sample or an error message, which may quote them), which `npm start`'s
 * terminal shows as one line, then hands the end's webhook deliveries to the queue.
 */
export async function runEnded(
  env: Bindings,
  db: D1Database,
  run: Pick<RunRecord, 'id' | 'tenant' | 'evalId' | 'itemsTotal' | 'createdAt'>,
  end: RunEnd,
  error: RunRecord['error'],
): Promise<void> {
  if (logs('info')) {
    try {
      const { pass, fail, error: errored } = (await runCounts(db, [run.id])).get(run.id)?.byStatus ?? NO_ITEMS;
      log('info', 'evals.run_ended', {
        runId: run.id,
        evalId: run.evalId,
        status: end,
        total: run.itemsTotal,
        passed: pass,
        failed: fail,
        errored,
        errorCode: error?.code,
        durationMs: Date.now() - run.createdAt,
      });
    } catch (err) {
      // The end stands; only its log line lacks (its counts could not be read).
      log('warn', 'evals.run_ended_unlogged', { runId: run.id, status: end, error: messageOf(err) });
    }
  }
  await dispatchRunEvent(env, run.tenant, run.id);
}

const NO_ITEMS = { pass: 0, fail: 0, error: 0 };

/** After a run's end committed: its event's new deliveries to the delivery queue (best effort: the sweeper repeats). */
async function dispatchRunEvent(env: Bindings, tenant: string, runId: string): Promise<void> {
  try {
    const { results } = await tenantDb(env, tenant)
      .prepare(
        `SELECT d.id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
         WHERE e.cause_id = ? AND d.status = 'pending' AND d.attempts = 0`,
      )
      .bind(runId)
      .all<{ id: string }>();
    if (results.length > 0)
      await enqueueDeliveries(
        env,
        results.map((r) => r.id),
      );
  } catch (err) {
    log('warn', 'eval_run.dispatch_failed', { runId, error: messageOf(err) });
  }
}
