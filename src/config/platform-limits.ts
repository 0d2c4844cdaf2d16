/**
 * @module
 * Platform limits the drivers respect, in one place for the Durable Object and the benches that compute
 * lower bounds from them. Platform-free (no Cloudflare import).
 */

/**
 * Outgoing connections one Workers invocation has open at once (6): further fetches wait, unsent, for one to
 * close, while their own timeouts already run (https://developers.cloudflare.com/workers/platform/limits/,
 * "Simultaneous open connections").
 */
export const OPEN_CONNECTIONS_PER_INVOCATION = 6;

/**
 * LLM calls one Durable Object invocation runs at once at most (6, {@link OPEN_CONNECTIONS_PER_INVOCATION}).
 * A wave of more ready calls (G-Eval's 20 samples sent separately) takes ceil(width / 6) rounds.
 */
export const MAX_PARALLEL_CALLS = OPEN_CONNECTIONS_PER_INVOCATION;

/**
 * Webhook attempts one delivery lane's invocation has in flight at once at most (6,
 * {@link OPEN_CONNECTIONS_PER_INVOCATION}): a lane sends its receiver's attempts from its alarm's one
 * invocation, so a 7th would wait for a connection with its `WEBHOOK_TIMEOUT_MS` running, and against a
 * receiver that hangs it would time out before it was ever sent.
 */
export const MAX_ATTEMPTS_PER_INVOCATION = OPEN_CONNECTIONS_PER_INVOCATION;

/**
 * Messages one Queues `sendBatch` call takes at most (100;
 * https://developers.cloudflare.com/queues/platform/limits/).
 */
export const QUEUE_BATCH_MAX = 100;
