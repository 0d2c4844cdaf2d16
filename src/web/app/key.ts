/**
 * @module
 * The API key, entered once per tab and kept in `sessionStorage`.
 *
 * Why sessionStorage and not localStorage: the key is a billing credential of a pay-per-use service. In
 * sessionStorage it lives as long as the tab (closing the tab forgets it, nothing stays on a shared or
 * demo machine, and no other tab or later visit can pick it up); localStorage would keep it on disk
 * indefinitely for every page of this origin. The cost is typing (or pasting) it again in a new tab.
 * It is only ever sent in the `Authorization` header (fetch-based SSE included), never in a URL.
 */

const STORAGE_KEY = 'tribunal.apiKey';

/** Reads a storage, or null where storage is blocked (privacy modes throw on access). */
function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** In-memory fallback when sessionStorage is unavailable: the key lasts as long as the page. */
let memoryKey: string | null = null;

/** The key entered in this tab, or null. */
export function getKey(): string | null {
  return storage()?.getItem(STORAGE_KEY) ?? memoryKey;
}

/** Stores the key for this tab (trimmed; an empty key clears it). */
export function setKey(key: string): void {
  const k = key.trim();
  if (k === '') {
    clearKey();
    return;
  }
  memoryKey = k;
  storage()?.setItem(STORAGE_KEY, k);
}

/** Forgets the key. */
export function clearKey(): void {
  memoryKey = null;
  storage()?.removeItem(STORAGE_KEY);
}

const REQUIRED_KEY = 'tribunal.keyRequired';

/** Whether this tab has seen the API refuse a request for want of a key (in memory where storage is blocked). */
let memoryRequired = false;

/**
 * True once this tab has seen the API answer 401 (the deployment requires a key), false when it has seen it answer
 * without one, null before either: a page without a key then asks for one instead of sending requests that the
 * browser would log as refused.
 */
export function keyRequired(): boolean | null {
  const stored = storage()?.getItem(REQUIRED_KEY);
  if (stored === 'true' || memoryRequired) return true;
  return stored === 'false' ? false : null;
}

/** Records what the API answered to a request without a key ({@link keyRequired}). */
export function setKeyRequired(required: boolean): void {
  memoryRequired = required;
  storage()?.setItem(REQUIRED_KEY, String(required));
}
