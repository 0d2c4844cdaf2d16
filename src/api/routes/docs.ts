/**
 * @module
 * `GET /openapi.json` (OpenAPI 3.1 from the zod schemas), `GET /docs` (a self-contained reference page)
 * and `GET /health` (D1 reachable). None of them needs auth.
 */
import { Hono } from 'hono';
import type { z } from 'zod';
import { DOCS_HTML } from '../docs-page.js';
import { openApiDocument } from '../openapi.js';
import type { HealthSchema } from '../schemas.js';
import type { AppEnv } from '../types.js';
import { log, messageOf } from '../../pipeline/log.js';

/** Public service routes. */
export const service = new Hono<AppEnv>()
  .get('/openapi.json', (c) => c.json(openApiDocument(), 200))
  .get('/docs', (c) => c.html(DOCS_HTML))
  .get('/health', async (c) => {
    try {
      await c.env.DB.prepare('SELECT 1').first();
      const body: z.infer<typeof HealthSchema> = { service: 'tribunal', status: 'ok', d1: 'ok' };
      return c.json(body, 200);
    } catch (err) {
      log('error', 'api.health_d1_failed', { error: messageOf(err) });
      const body: z.infer<typeof HealthSchema> = { service: 'tribunal', status: 'unavailable', d1: 'error' };
      return c.json(body, 503);
    }
  });
