/**
 * @module
 * Ids and secrets of tenants and keys. Random parts are lower-case base32 (`a-z2-7`): 5 bits a character
 * drawn without bias from `crypto.getRandomValues`, case-insensitive, no look-alike punctuation.
 * - tenant `tn_` + 16 characters (80 bits), key id `key_` + 16 (80 bits): names, not secrets;
 * - API key `trb_` + 32 characters (160 bits): a secret, shown once; D1 keeps only its sha-256 and the
 *   first {@link KEY_PREFIX_CHARS} characters for display.
 */
import { sha256Hex } from '../http/request-hash.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `n` random base32 characters (each byte's low 5 bits: 256 is a multiple of 32, so no bias). */
export function randomBase32(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  let out = '';
  for (const b of bytes) out += ALPHABET.charAt(b & 31);
  return out;
}

/** Random characters of an API key after `trb_`: 32 × 5 = 160 bits. */
export const KEY_RANDOM_CHARS = 32;
/** Characters of a key kept for display (`trb_` + 6). */
export const KEY_PREFIX_CHARS = 10;

/** Shape of an API key: `trb_` + 32 base32 characters. */
export const API_KEY_PATTERN = /^trb_[a-z2-7]{32}$/;
/** Shape of a tenant id: `tn_` + 16 base32 characters, or a 12-hex tenant id of an `API_KEYS` token. */
export const TENANT_ID_PATTERN = /^(tn_[a-z2-7]{16}|[0-9a-f]{12})$/;
/** Shape of a key id. */
export const KEY_ID_PATTERN = /^key_[a-z2-7]{16}$/;

/** A new tenant id. */
export function newTenantId(): string {
  return `tn_${randomBase32(16)}`;
}

/** A new key id. */
export function newKeyId(): string {
  return `key_${randomBase32(16)}`;
}

/** A new API key: the secret (to show once), its sha-256 hex (to store) and its display prefix. */
export async function newApiKey(): Promise<{ key: string; hash: string; prefix: string }> {
  const key = `trb_${randomBase32(KEY_RANDOM_CHARS)}`;
  return { key, hash: await hashApiKey(key), prefix: key.slice(0, KEY_PREFIX_CHARS) };
}

/**
 * The stored form of a key: its sha-256 hex. A plain hash suffices: a key carries 160 random bits, so no
 * dictionary or brute force gets from the hash back to it (a slow password hash would only slow every request).
 */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}
