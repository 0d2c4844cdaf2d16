/**
 * @module
 * `Prefer: wait=<seconds>` (RFC 7240) on the routes that create something that ends on its own (an
 * evaluation, a comparison): the header's schema, its parsing, and the documented 200 an ended resource
 * answers with (`Preference-Applied`), so every such route reads and documents the preference alike.
 */
import { z } from '@hono/zod-openapi';
import { IDEMPOTENT_REPLAYED, IdempotencyHeaderSchema, jsonResponse } from './responses.js';

/** Longest `Prefer: wait` honoured, seconds. */
export const MAX_PREFER_WAIT_SECONDS = 60;

/**
 * The `wait` preference of a `Prefer` header (RFC 7240) in seconds: null when the header asks for no
 * wait, `invalid` when its `wait` is not a whole number of seconds. A longer wait than
 * {@link MAX_PREFER_WAIT_SECONDS} is applied as that (RFC 7240 lets a server honour less than asked;
 * `Preference-Applied` says what was). Other preferences are not acted on.
 */
function preferWaitSeconds(header: string | undefined): number | null | 'invalid' {
  if (header === undefined) return null;
  for (const part of header.split(',')) {
    const m = /^\s*wait\s*(?:=\s*"?([^";\s]*)"?)?\s*(?:;.*)?$/i.exec(part);
    if (!m) continue;
    const n = Number(m[1]);
    return m[1] !== undefined && /^\d+$/.test(m[1]) ? Math.min(n, MAX_PREFER_WAIT_SECONDS) : 'invalid';
  }
  return null;
}

/**
 * Headers of a create route that honours `Prefer: wait`: `Idempotency-Key` and `Prefer`.
 * @param what what the 200 answers with when it ends in time, e.g. `the ended evaluation, verdict included`.
 */
export function preferWaitHeaders(what: string) {
  return IdempotencyHeaderSchema.extend({
    Prefer: z
      .string()
      .max(1000)
      .refine((v) => preferWaitSeconds(v) !== 'invalid', {
        message: `wait must be a whole number of seconds (more than ${MAX_PREFER_WAIT_SECONDS} is applied as ${MAX_PREFER_WAIT_SECONDS})`,
      })
      .optional()
      .openapi({
        param: {
          description:
            `\`wait=<seconds>\` (RFC 7240): answer 200 with ${what} when it ends within that time, ` +
            `instead of 202 at once; a longer wait than ${MAX_PREFER_WAIT_SECONDS} s is applied as ${MAX_PREFER_WAIT_SECONDS} (the 200's \`Preference-Applied\` says \`wait=${MAX_PREFER_WAIT_SECONDS}\`). ` +
            'Without an end in time the answer is the usual 202, with `Preference-Applied` naming the wait it waited out.',
        },
        example: 'wait=30',
      }),
  });
}

/** The 200 of a create route answered after `Prefer: wait`: the ended resource, `Location`, `Preference-Applied`. */
export function preferWaitResponse<T extends z.ZodType>(schema: T, what: string, description: string) {
  return {
    200: {
      ...jsonResponse(schema, description),
      headers: z.object({
        Location: z.string().openapi({ description: `The ${what}'s URL (relative).` }),
        'Preference-Applied': z.string().openapi({ description: 'The `wait` preference honoured, e.g. `wait=30`.' }),
        'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
      }),
    },
  };
}

/** The wait a validated `Prefer` header asks for, in ms (0: none). */
export function preferWaitMs(header: string | undefined): number {
  const wait = preferWaitSeconds(header);
  return typeof wait === 'number' ? wait * 1000 : 0;
}

/**
 * Sets `Preference-Applied: wait=<s>` on a 202 whose `Prefer: wait` ran its whole time without an end (RFC 7240:
 * the preference was honoured; a wait over the cap says the cap). None when nothing was asked, or when the wait was
 * cut short (e.g. the object could not be asked), which is told apart by the time taken: less than 90% of the wait.
 * @param startedMs when the route began (epoch ms); `waitMs` as {@link preferWaitMs} gave it.
 */
export function setWaitedOut(
  c: { header(name: string, value: string): void },
  waitMs: number,
  startedMs: number,
): void {
  if (waitMs > 0 && Date.now() - startedMs >= waitMs * 0.9) c.header('Preference-Applied', `wait=${waitMs / 1000}`);
}
