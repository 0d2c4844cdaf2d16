/**
 * @module
 * The OTLP export rides the webhook outbox: an ending's `evaluation.<status>` event gets one more recipient, the
 * target `otlp`, when the evaluation has a source, ended succeeded or failed, and its tenant has an export
 * ({@link otlpExportRecipients}, which src/ending-plan.ts hands the evaluation's event). Its delivery row is
 * claimed, leased, retried with the webhooks' backoff for about a day, swept and erased as every delivery is
 * (src/webhooks/), in a lane of its own per tenant. {@link OTLP_RECEIVERS} (the webhook lane's driver passes them
 * to each attempt) turns the event into the OTLP logs request, and records each attempt's outcome on the export
 * row in the attempt's own batch. A delivery acknowledged once is never sent again: the attempt that got the 2xx
 * marks it delivered in that batch.
 */
import type { Ending } from '../evaluations/ending.js';
import type { DeliveryReceiver, DeliveryReceivers } from '../webhooks/deliver.js';
import type { ExtraRecipient } from '../webhooks/outbox.js';
import { sql } from '../webhooks/sql.js';
import { encodeLogsProtobuf } from '../traces/otlp-logs.js';
import { evaluationResultLogs } from './record.js';
import { logsUrlOf, otlpExportRow } from './service.js';

/** The delivery target of the OTLP export. */
export const OTLP_TARGET = 'otlp';

/**
 * The OTLP export as a further recipient of evaluation `ending`'s event: when it ended succeeded or failed, has a
 * source, and its tenant has an export (read in the ending's transaction).
 */
export function otlpExportRecipients(ending: Pick<Ending, 'id' | 'status'>): ExtraRecipient[] {
  if (ending.status === 'cancelled') return [];
  return [
    {
      target: OTLP_TARGET,
      when: sql`EXISTS (SELECT 1 FROM evaluations e JOIN otlp_exports x ON x.tenant = e.tenant
        WHERE e.id = ${ending.id} AND e.source IS NOT NULL)`,
    },
  ];
}

/**
 * Whether an answer is retried: a 5xx, 408 or 429 (the collector is down or busy); another 4xx is the request's
 * or the settings' fault (a bad key, say), which a retry with the same request would not mend.
 */
function retryable(statusCode: number): boolean {
  return statusCode >= 500 || statusCode === 408 || statusCode === 429;
}

/** The export's side of a delivery attempt (see the module note). */
const OTLP_RECEIVER: DeliveryReceiver = {
  async request(db, tenant, payload) {
    const row = await otlpExportRow(db, tenant);
    if (!row) return { refused: 'the OTLP export was removed (PUT /v1/exports)' };
    const logs = evaluationResultLogs(payload);
    if (!logs) return { refused: 'not a finished evaluation made of a trace' };
    const secrets = JSON.parse(row.headers) as Record<string, string>;
    const protobuf = row.protocol === 'http/protobuf';
    return {
      url: logsUrlOf(row.endpoint),
      body: protobuf ? encodeLogsProtobuf(logs) : JSON.stringify(logs),
      headers: { ...secrets, 'content-type': protobuf ? 'application/x-protobuf' : 'application/json' },
    };
  },
  retryable,
  recorded(db, tenant, outcome, at) {
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    return [
      db
        .prepare(
          `UPDATE otlp_exports SET last_attempt_at = ?, last_status_code = ?,
             last_success_at = CASE WHEN ? THEN ? ELSE last_success_at END,
             last_error = CASE WHEN ? THEN last_error ELSE ? END,
             last_error_at = CASE WHEN ? THEN last_error_at ELSE ? END
           WHERE tenant = ?`,
        )
        .bind(at, outcome.statusCode, ok ? 1 : 0, at, ok ? 1 : 0, outcome.error ?? 'failed', ok ? 1 : 0, at, tenant),
    ];
  },
};

/** The receivers a webhook lane's attempts use, by delivery target: the OTLP export's. */
export const OTLP_RECEIVERS: DeliveryReceivers = { [OTLP_TARGET]: OTLP_RECEIVER };
