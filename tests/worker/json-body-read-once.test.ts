/**
 * A JSON body is read from the request once (src/http/json-body.ts): the validator downstream takes the text the
 * middleware already decoded from hono's body cache instead of reading and decoding the re-attached bytes
 * again, and those bytes stay there, unread, for whatever reads the raw request.
 */
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { describe, expect, it } from 'vitest';
import { jsonBody } from '../../src/http/json-body.js';
import type { KernelEnv } from '../../src/http/kernel-env.js';
import { testEnv } from './helpers.js';

const app = new Hono<KernelEnv>().post(
  '/echo',
  jsonBody(),
  validator('json', (value: unknown) => value),
  async (c) => {
    const valid = c.req.valid('json');
    const usedBefore = c.req.raw.bodyUsed;
    return c.json({ valid, usedBefore, raw: await c.req.raw.json() });
  },
);

describe('jsonBody', () => {
  it("hands the validator the body it read, and leaves the raw request's bytes unread", async () => {
    const body = { preset: 'fastchat-pair', task: { kind: 'pairwise', question: 'Wo? «ü»' } };
    const r = await app.request(
      '/echo',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      testEnv,
    );
    expect(r.status).toBe(200);
    // Before, the validator read the re-attached bytes a second time: `usedBefore` was true.
    expect(await r.json()).toEqual({ valid: body, usedBefore: false, raw: body });
  });
});
