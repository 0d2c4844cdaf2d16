/**
 * zod in the worker project's runtimes (tests/worker/zod-locales.ts): the locales index holds English alone, and
 * a refusal's message is English, as deployed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import en from 'zod/v4/locales/en.js';

describe("zod's locales in the runtimes", () => {
  it('are English alone, and the messages are the English ones', () => {
    expect(Object.keys(z.locales)).toEqual(['en']);
    expect(z.locales.en).toBe(en);
    const r = z.object({ n: z.number().int().min(1) }).safeParse({ n: 'x' });
    expect(r.error?.issues[0]?.message).toBe('Invalid input: expected number, received string');
  });
});
