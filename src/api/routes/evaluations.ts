/**
 * @module
 * `/v1/evaluations`: create (202), read, transcript, cancel and live events. Handlers stay thin; the
 * work is in ../services/evaluations.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { byok } from '../middleware/byok.js';
import { jsonBody } from '../middleware/json-body.js';
import { validate } from '../middleware/validate.js';
import { CancelRequestSchema, CreateEvaluationRequestSchema } from '../schemas.js';
import {
  cancelEvaluation,
  createEvaluationJob,
  requireEvaluation,
  viewEvaluation,
  viewTranscript,
} from '../services/evaluations.js';
import type { AppEnv } from '../types.js';
import { forwardEvents } from '../../pipeline/stub.js';

/** `Idempotency-Key`: 1-255 visible ASCII characters. */
export const IdempotencyHeaderSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be visible ASCII')
    .optional(),
});

/** Routes under `/v1/evaluations`. */
export const evaluations = new Hono<AppEnv>()
  .post(
    '/',
    byok(),
    jsonBody(),
    validate('header', IdempotencyHeaderSchema),
    validate('json', CreateEvaluationRequestSchema),
    async (c) => {
      const key = c.req.valid('header')['idempotency-key'] ?? null;
      const { body, replayed } = await createEvaluationJob(c.env, c.var.tenant, c.req.valid('json'), key, (work) => { c.executionCtx.waitUntil(work); },
      );
      c.header('Location', body.links.self);
      // A replay answers exactly like the first request (202) and says so in a header.
      if (replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(body, 202);
    },
  )
  .get('/:id', async (c) => {
    const row = await requireEvaluation(c.env, c.var.tenant, c.req.param('id'));
    return c.json(await viewEvaluation(c.env, row), 200);
  })
  .get('/:id/transcript', async (c) => {
    const row = await requireEvaluation(c.env, c.var.tenant, c.req.param('id'));
    return c.json(await viewTranscript(c.env, row), 200);
  })
  .post('/:id/cancel', jsonBody({ optional: true }), validate('json', CancelRequestSchema), async (c) => {
    const row = await requireEvaluation(c.env, c.var.tenant, c.req.param('id'));
    return c.json(await cancelEvaluation(c.env, row, c.req.valid('json').reason), 200);
  })
  .get('/:id/events', async (c) => {
    const row = await requireEvaluation(c.env, c.var.tenant, c.req.param('id'));
    // The Durable Object serves SSE (default) or a WebSocket (`Upgrade: websocket`) itself.
    return forwardEvents(c.env, row.id, c.req.raw);
  });
