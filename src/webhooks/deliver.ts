/**
 * @module
 * One delivery attempt, as the queue consumer runs it: claim the delivery (a lease, so duplicate queue
 * messages never send at once), resolve its receiver and secrets, check the URL again, sign, POST, then
 * record the attempt and the delivery's new state in ONE D1 batch.
 *
 * Outcomes: 2xx → `delivered`; 410 Gone → `failed` and the endpoint disabled (its other pending
 * deliveries fail with it); any other answer, a timeout or a network error → retried after a backoff
 * (./retry-policy.ts) until the delivery's window closes, then `failed`. A receiver that cannot be sent to
 * (endpoint deleted or disabled, no signing secret, URL refused by the guard) → `failed` at once.
 *
 * A delivery to a feature's own recipient (the tenant's OTLP export) goes the same way, its request made by the
 * {@link DeliveryReceiver} of its target: unsigned, and an answer the receiver says is not worth retrying fails it.
 *
 * A delivery erased while its attempt ran (its evaluation deleted, or past retention) ends there: the
 * attempt records nothing (there is no row to record it on) and reports `erased`, an `info` line, never a
 * consumer error that would retry it.
 */
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import type { RetryDecision } from './retry-policy.js';
import { nextRetry } from './retry-policy.js';
import { deliveryLeaseMs, postWebhook } from './send.js';
import type { SendOutcome } from './send.js';
import { signStandardWebhook, validSecrets } from './signature.js';
import { checkWebhookUrl } from './url-guard.js';
import { configOf } from '../config/vars.js';
import { recordDb } from '../config/d1-shards.js';
import { inOtherCopies } from '../spread-copies/copies.js';

/** What the consumer does with the message after an attempt. */
export type AttemptOutcome =
  | { kind: 'skipped'; why: 'not_pending' | 'erased' }
  /** Not attempted: not due before `dueAt`, or held by another attempt until `dueAt` (its lease's end), epoch ms. */
  | { kind: 'skipped'; why: 'not_due' | 'leased'; dueAt: number }
  | { kind: 'delivered' }
  | { kind: 'failed'; reason: string }
  /** Failed; the next attempt is due at `at` (epoch ms, as D1 records it), `delaySeconds` after this one. */
  | { kind: 'retry'; delaySeconds: number; at: number };

/**
 * How far ahead of its due time a delivery may be attempted, ms (250): a queue message may arrive a
 * moment before the time D1 recorded. Below the 1 s minimum backoff, so a duplicate message that comes
 * right after an attempt never makes the next one early.
 */
const DUE_TOLERANCE_MS = 250;

/** The request a {@link DeliveryReceiver} makes of an event: where, what and with which headers. */
export interface ReceiverRequest {
  url: string;
  body: string | Uint8Array;
  /** Headers, the content type among them; values may be secrets (never logged or recorded). */
  headers: Record<string, string>;
}

/**
 * The sender of deliveries whose `target` is a feature's own recipient (./outbox.ts `ExtraRecipient`), handed to
 * {@link attemptDelivery} by the lane's driver: it turns the event into its receiver's request, and records each
 * attempt's outcome on its own rows in the attempt's batch. No signature: such a receiver authenticates us by its
 * own headers.
 */
export interface DeliveryReceiver {
  /** The request for `payload` (the event's JSON) to `tenant`'s receiver, or why it cannot be sent (fails it). */
  request(db: D1Database, tenant: string, payload: string): Promise<ReceiverRequest | { refused: string }>;
  /** Whether an answer with `statusCode` is worth retrying (a network error or timeout always is). */
  retryable(statusCode: number): boolean;
  /** Statements recording an attempt's outcome for the receiver's owner, run in the attempt's own batch. */
  recorded(db: D1Database, tenant: string, outcome: SendOutcome, at: number): D1PreparedStatement[];
}

/** Receivers by delivery target (see {@link DeliveryReceiver}). */
export type DeliveryReceivers = Readonly<Record<string, DeliveryReceiver>>;

/** A claimed delivery with everything needed to send it. */
interface Claimed {
  tenant: string;
  target: string;
  attempts: number;
  event_id: string;
  endpoint_id: string | null;
  url: string | null;
  window_ends_at: number;
  payload: string;
  ep_found: number;
  ep_url: string | null;
  ep_secret: string | null;
  ep_prev: string | null;
  ep_prev_exp: number | null;
  ep_disabled_at: number | null;
  ep_disabled_reason: string | null;
  t_secret: string | null;
  t_prev: string | null;
  t_prev_exp: number | null;
}

/**
 * Claims delivery `id` for one attempt: pending, due, and not leased by a running attempt. Sets a lease
 * for `leaseMs` and counts the attempt, and reads what the attempt needs, in ONE D1 round trip (a
 * `batch()`: the claim, then the read). A delivery another message holds, or that is not due or no
 * longer pending, comes back as a skip.
 */
async function claim(db: D1Database, id: string, now: number, leaseMs: number): Promise<Claimed | AttemptOutcome> {
  const [claimed, read] = await db.batch<
    Claimed & { status: string; next_attempt_at: number | null; lease_until: number | null }
  >([
    db
      .prepare(
        `UPDATE webhook_deliveries SET lease_until = ?, attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)`,
      )
      .bind(now + leaseMs, now, id, now + DUE_TOLERANCE_MS, now),
    db
      .prepare(
        `SELECT d.status, d.next_attempt_at, d.lease_until, d.tenant, d.target, d.attempts, d.event_id, d.endpoint_id, d.url,
         d.window_ends_at, ev.payload,
         ep.id IS NOT NULL AS ep_found, ep.url AS ep_url, ep.secret AS ep_secret, ep.previous_secret AS ep_prev,
         ep.previous_expires_at AS ep_prev_exp, ep.disabled_at AS ep_disabled_at, ep.disabled_reason AS ep_disabled_reason,
         s.secret AS t_secret, s.previous_secret AS t_prev, s.previous_expires_at AS t_prev_exp
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
         LEFT JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
         LEFT JOIN webhook_signing_secrets s ON s.tenant = d.tenant
       WHERE d.id = ?`,
      )
      .bind(id),
  ]);
  const row = read?.results[0];
  if ((claimed?.meta.changes ?? 0) > 0 && row) return row;
  if (row?.status !== 'pending') return { kind: 'skipped', why: 'not_pending' };
  if (row.lease_until !== null && row.lease_until >= now)
    return { kind: 'skipped', why: 'leased', dueAt: row.lease_until };
  return { kind: 'skipped', why: 'not_due', dueAt: row.next_attempt_at ?? now };
}

/** The receiver's URL and the secrets to sign with, or why it cannot be sent to. */
function receiverOf(c: Claimed, now: number): { url: string; secrets: string[] } | { refused: string } {
  if (c.endpoint_id !== null) {
    if (!c.ep_found || c.ep_url === null || c.ep_secret === null) return { refused: 'endpoint deleted' };
    if (c.ep_disabled_at !== null)
      return { refused: `endpoint disabled${c.ep_disabled_reason ? `: ${c.ep_disabled_reason}` : ''}` };
    return { url: c.ep_url, secrets: validSecrets(c.ep_secret, c.ep_prev, c.ep_prev_exp, now) };
  }
  if (c.url === null) return { refused: 'no URL' };
  if (c.t_secret === null) return { refused: 'the tenant has no signing secret (POST /v1/webhook-signing-secret)' };
  return { url: c.url, secrets: validSecrets(c.t_secret, c.t_prev, c.t_prev_exp, now) };
}

/** The request of a claimed delivery: signed for an endpoint or a one-off URL, else its target's receiver's. */
async function requestOf(
  db: D1Database,
  c: Claimed,
  now: number,
  receivers: DeliveryReceivers,
): Promise<ReceiverRequest | { refused: string }> {
  if (c.endpoint_id === null && c.target !== 'once') {
    const receiver = receivers[c.target];
    return receiver ? receiver.request(db, c.tenant, c.payload) : { refused: `no receiver for target ${c.target}` };
  }
  const to = receiverOf(c, now);
  if ('refused' in to) return to;
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await signStandardWebhook(to.secrets, c.event_id, timestamp, c.payload);
  return {
    url: to.url,
    body: c.payload,
    headers: { 'webhook-id': c.event_id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
  };
}

/**
 * Makes one attempt of delivery `id` at `now` (epoch ms) and records it. Throws only when D1 fails
 * (the consumer then retries the message); the HTTP outcome never throws.
 * @param receivers the senders of deliveries to a feature's own recipient, by target (none by default: such a
 *   delivery fails).
 */
export async function attemptDelivery(
  env: Bindings,
  id: string,
  now = Date.now(),
  receivers: DeliveryReceivers = {},
): Promise<AttemptOutcome> {
  const timeoutMs = configOf(env).WEBHOOK_TIMEOUT_MS;
  const db = await recordDb(env, id);
  const claimed = await claim(db, id, now, deliveryLeaseMs(env));
  if ('kind' in claimed) return claimed;
  const request = await requestOf(db, claimed, now, receivers);
  let sent: SendOutcome;
  let refused: string | null = null;
  if ('refused' in request) {
    refused = request.refused;
    sent = { statusCode: null, error: refused, durationMs: 0, excerpt: null };
  } else {
    const guard = checkWebhookUrl(request.url, { allowLoopback: configOf(env).WEBHOOK_ALLOW_LOOPBACK });
    if (!guard.ok) {
      refused = `URL refused (rule ${guard.rule}): ${guard.message}`;
      sent = { statusCode: null, error: refused, durationMs: 0, excerpt: null };
    } else {
      sent = await postWebhook(guard.url, request.body, request.headers, timeoutMs);
    }
  }
  const finished = Date.now();
  const own = claimed.endpoint_id === null ? receivers[claimed.target] : undefined;
  const ok = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
  const gone = sent.statusCode === 410;
  const final = gone || (own !== undefined && sent.statusCode !== null && !ok && !own.retryable(sent.statusCode));
  const retry: RetryDecision =
    ok || final || refused !== null ? { retry: false } : nextRetry(claimed.attempts, finished, claimed.window_ends_at);
  const status = ok ? 'delivered' : retry.retry ? 'pending' : 'failed';
  const statements: D1PreparedStatement[] = [
    // Only while the delivery exists: a deletion during the POST erased it (an attempt row would break
    // its foreign key and fail the whole batch).
    db
      .prepare(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms, response_excerpt)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ?) ON CONFLICT DO NOTHING`,
      )
      .bind(id, claimed.attempts, now, sent.statusCode, sent.error, sent.durationMs, sent.excerpt, id),
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, last_status_code = ?, last_error = ?,
         delivered_at = ?, updated_at = ?
       WHERE id = ? AND status = 'pending'`,
      )
      .bind(
        status,
        retry.retry ? retry.at : null,
        sent.statusCode,
        ok ? null : sent.error,
        ok ? finished : null,
        finished,
        id,
      ),
  ];
  const goneReason = 'the receiver answered 410 Gone';
  if (gone && claimed.endpoint_id !== null)
    statements.push(...disableStatements(db, claimed.endpoint_id, goneReason, finished));
  if (own) statements.push(...own.recorded(db, claimed.tenant, sent, finished));
  const results = await db.batch(statements);
  if (gone && claimed.endpoint_id !== null)
    await disableEverywhere(env, claimed.tenant, claimed.endpoint_id, db, goneReason, finished);
  if ((results[1]?.meta.changes ?? 0) === 0 && !(await deliveryExists(db, id))) {
    log('info', 'webhook.attempt_erased', {
      deliveryId: id,
      eventId: claimed.event_id,
      statusCode: sent.statusCode,
      message: 'the delivery was erased while it was being sent (its evaluation deleted); nothing recorded',
    });
    return { kind: 'skipped', why: 'erased' };
  }
  log(ok ? 'info' : 'warn', 'webhook.attempt', {
    deliveryId: id,
    eventId: claimed.event_id,
    endpointId: claimed.endpoint_id,
    target: claimed.target,
    attempt: claimed.attempts,
    statusCode: sent.statusCode,
    error: sent.error,
    durationMs: sent.durationMs,
    outcome: status,
  });
  if (ok) return { kind: 'delivered' };
  if (retry.retry) return { kind: 'retry', delaySeconds: retry.delaySeconds, at: retry.at };
  return { kind: 'failed', reason: sent.error ?? `HTTP ${sent.statusCode ?? '?'}` };
}

/** Whether delivery `id` still exists. */
async function deliveryExists(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS one FROM webhook_deliveries WHERE id = ?').bind(id).first()) !== null;
}

/**
 * Statements disabling endpoint `endpointId` with `reason` and failing its pending deliveries (they
 * would only fail one by one when their turn came). Re-enable with PATCH `{enabled: true}` and retry them.
 */
export function disableStatements(
  db: D1Database,
  endpointId: string,
  reason: string,
  now: number,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        'UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ? AND disabled_at IS NULL',
      )
      .bind(now, reason, now, endpointId),
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ?, updated_at = ?
         WHERE endpoint_id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
      )
      .bind(`endpoint disabled: ${reason}`, now, endpointId, now),
  ];
}

/**
 * After a 410 disabled endpoint `endpointId` in `done` (the shard of the delivery that got it): the same in the
 * tenant's other shards (its home shard's row, the copies of its spread: ./copies.ts), so every copy stops
 * getting deliveries and a later copy from home keeps it disabled. Never throws: a copy it misses is disabled by
 * the next 410 there.
 */
async function disableEverywhere(
  env: Bindings,
  tenant: string,
  endpointId: string,
  done: D1Database,
  reason: string,
  now: number,
): Promise<void> {
  try {
    await inOtherCopies(env, tenant, (db) => disableStatements(db, endpointId, reason, now), done);
  } catch (e) {
    log('warn', 'webhook.disable_copies_failed', { endpointId, error: messageOf(e) });
  }
}
