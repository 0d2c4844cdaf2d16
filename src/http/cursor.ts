/**
 * @module
 * Opaque pagination cursors: the position after the last row of a page (a keyset, never an offset, so
 * a page boundary stays put when rows are inserted), as base64url JSON. Clients pass a cursor back as
 * they got it; its content is not part of the contract and may change.
 */
import type { z } from 'zod';
import { invalidRequest } from './errors.js';

/** Encodes a keyset position as an opaque cursor (base64url of its JSON). */
export function encodeCursor(position: object): string {
  return btoa(JSON.stringify(position)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Decodes a cursor made by {@link encodeCursor} and checks it against `schema`.
 * @throws ApiError 400 `invalid_request` naming the query parameter `cursor` for anything else.
 */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest([{ path: 'cursor', message: 'not a cursor this API returned' }], 'query');
  return parsed.data;
}
