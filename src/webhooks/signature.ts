/**
 * @module
 * Webhook signatures, both directions.
 *
 * Standard Webhooks (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of 32 random bytes;
 * the HMAC-SHA256 key is the base64-decoded part. A message is signed over `"<webhook-id>.<webhook-timestamp>.<body>"`
 * (timestamp in Unix seconds) and sent as `webhook-signature: v1,<base64 signature>`; several
 * space-separated signatures are sent while a rotated-out secret is still valid, and a receiver accepts
 * any that matches.
 *
 * GitHub-style (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`): the key is the secret
 * string's UTF-8 bytes as configured at the sender (paste the whole `whsec_…` string there). No timestamp
 * is signed, so replays are stopped by the delivery id (`X-GitHub-Delivery`) alone.
 *
 * Comparisons go through `crypto.subtle.verify`, which compares in constant time.
 */

/** Prefix of every secret. */
export const SECRET_PREFIX = 'whsec_';

/** Random bytes per secret (32 = 256 bits). */
export const SECRET_BYTES = 32;

/** Timestamp tolerance of inbound Standard Webhooks signatures, seconds (5 min, either direction). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A new secret: `whsec_` + base64 of {@link SECRET_BYTES} random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The HMAC key bytes of a Standard Webhooks secret (the base64 after `whsec_`). */
function standardKeyBytes(secret: string): Uint8Array {
  const bytes = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new Error('a webhook secret must be whsec_ followed by base64');
  return bytes;
}

function hmacKey(bytes: Uint8Array, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** The bytes a Standard Webhooks signature covers: `id.timestamp.` followed by the body's bytes. */
function signedContent(id: string, timestamp: number, body: string | Uint8Array): Uint8Array {
  const head = encoder.encode(`${id}.${timestamp}.`);
  const tail = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/**
 * The `webhook-signature` header value for a message: `v1,<base64>` per secret, space-separated, in
 * the order given (current secret first).
 * @param timestamp Unix seconds, as sent in `webhook-timestamp`.
 */
export async function signStandardWebhook(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = signedContent(id, timestamp, body);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const mac = await crypto.subtle.sign('HMAC', await hmacKey(standardKeyBytes(secret), 'sign'), content);
      return `v1,${toBase64(new Uint8Array(mac))}`;
    }),
  );
  return signatures.join(' ');
}

/** Outcome of verifying an inbound signature; `reason` is safe to show to the sender. */
export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** The three Standard Webhooks headers of a request (absent ones undefined). */
export interface StandardWebhookHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/**
 * Verifies a Standard Webhooks request against any of `secrets`: all three headers present, the
 * timestamp within {@link TIMESTAMP_TOLERANCE_SECONDS} of `nowSeconds`, and one `v1,` signature matching.
 */
export async function verifyStandardWebhook(
  secrets: readonly string[],
  h: StandardWebhookHeaders,
  body: Uint8Array,
  nowSeconds: number,
): Promise<VerifyResult> {
  if (!h.id || !h.timestamp || !h.signature)
    return { ok: false, reason: 'webhook-id, webhook-timestamp and webhook-signature are all required' };
  if (!/^\d{1,12}$/.test(h.timestamp)) return { ok: false, reason: 'webhook-timestamp must be Unix seconds' };
  const timestamp = Number(h.timestamp);
  if (Math.abs(nowSeconds - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) {
    return {
      ok: false,
      reason: `webhook-timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS} s away from now (stale or replayed)`,
    };
  }
  const v1 = h.signature.split(' ').filter((s) => s.startsWith('v1,'));
  if (v1.length === 0) return { ok: false, reason: 'webhook-signature has no v1 signature (expected "v1,<base64>")' };
  const provided = v1.map((s) => fromBase64(s.slice(3))).filter((b): b is Uint8Array => b !== null && b.length === 32);
  if (provided.length === 0) {
    return {
      ok: false,
      reason: 'webhook-signature is malformed: each "v1," signature must be the base64 of a 32-byte HMAC-SHA256',
    };
  }
  const content = signedContent(h.id, timestamp, body);
  for (const secret of secrets) {
    const key = await hmacKey(standardKeyBytes(secret), 'verify');
    for (const sig of provided) if (await crypto.subtle.verify('HMAC', key, sig, content)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}

function fromHex(text: string): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** Verifies `X-Hub-Signature-256: sha256=<hex>` over the raw body against any of `secrets` (keys: their UTF-8 bytes). */
export async function verifyHubSignature(
  secrets: readonly string[],
  header: string,
  body: Uint8Array,
): Promise<VerifyResult> {
  const sig = header.startsWith('sha256=') ? fromHex(header.slice(7)) : null;
  if (!sig || sig.length !== 32) return { ok: false, reason: 'X-Hub-Signature-256 must be sha256=<64 hex digits>' };
  for (const secret of secrets) {
    if (await crypto.subtle.verify('HMAC', await hmacKey(encoder.encode(secret), 'verify'), sig, body))
      return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}

/** The secrets valid now: the current one, and the previous one until it expires (rotation grace). */
export function validSecrets(
  current: string,
  previous: string | null,
  previousExpiresAt: number | null,
  now: number,
): string[] {
  return previous !== null && previousExpiresAt !== null && previousExpiresAt > now ? [current, previous] : [current];
}

/** How long a rotated-out secret still signs and verifies, ms (24 h). */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;
