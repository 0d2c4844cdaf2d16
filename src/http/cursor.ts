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

/**
 * One keyset page out of pages read from several databases (a tenant's D1 shards), each already newest first
 * by (`createdAt`, `id`) after the same cursor: merged by that order, at most `take` rows. The order is total
 * (ids are unique), so the last row's (`createdAt`, `id`) is each database's position as well: the next page
 * asks every database for rows after it, and no row is skipped or repeated.
 */
export function mergeNewestFirst<T>(
  pages: readonly (readonly T[])[],
  keyOf: (row: T) => { createdAt: number; id: string },
  take: number,
): T[] {
  if (pages.length === 1) return (pages[0] ?? []).slice(0, take);
  const newerFirst = (a: T, b: T): number => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (ka.createdAt !== kb.createdAt) return kb.createdAt - ka.createdAt;
    return ka.id < kb.id ? 1 : ka.id > kb.id ? -1 : 0;
  };
  return pages.flat().sort(newerFirst).slice(0, take);
}
