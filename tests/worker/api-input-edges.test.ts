/**
 * Input edges: blank or NUL task texts, a wrong method on an existing path, prototype
 * keys in a JSON body, unknown keys anywhere in `config` and a body that breaks off (the client gone
 * mid-upload) are each a 4xx naming the problem, and nothing is stored.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import { PAIRWISE, POINTWISE, testEnv } from './helpers.js';

const valid = { preset: 'chateval-faireval', task: PAIRWISE };

async function errorOf(r: Response, status: number): Promise<ErrorJson['error']> {
  const body = await r.json<ErrorJson>();
  expect(r.status, JSON.stringify(body)).toBe(status);
  return body.error;
}

/** POSTs a raw JSON text (object literals cannot carry an own `__proto__` key through JSON.stringify). */
const postRaw = (path: string, text: string) =>
  api(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });

describe('task texts that are only whitespace or contain NUL → 400 naming the field', () => {
  const BLANKS = [' ', '\n\t  \r\n', '\u00a0\u2003'];
  const pairwiseFields = ['question', 'answerA', 'answerB', 'reference'] as const;
  const pointwiseFields = ['source', 'context', 'output'] as const;

  for (const field of pairwiseFields) {
    it(`pairwise ${field}`, async () => {
      for (const blank of BLANKS) {
        const e = await errorOf(
          await postJson('/v1/evaluations', { ...valid, task: { ...PAIRWISE, [field]: blank } }),
          400,
        );
        expect(e.code).toBe('invalid_request');
        expect(e.issues).toEqual([{ path: `task.${field}`, message: `${field} must not be only whitespace` }]);
      }
      const e = await errorOf(
        await postJson('/v1/evaluations', { ...valid, task: { ...PAIRWISE, [field]: 'fine\u0000text' } }),
        400,
      );
      expect(e.issues).toEqual([{ path: `task.${field}`, message: `${field} must not contain NUL characters` }]);
    });
  }

  for (const field of pointwiseFields) {
    it(`pointwise ${field}`, async () => {
      const task = { ...POINTWISE, [field]: '   ' };
      const e = await errorOf(await postJson('/v1/evaluations', { preset: 'debate-summeval', task }), 400);
      expect(e.message).toContain(`task.${field}: ${field} must not be only whitespace`);
      const nul = await errorOf(
        await postJson('/v1/evaluations', { preset: 'debate-summeval', task: { ...POINTWISE, [field]: '\u0000' } }),
        400,
      );
      expect(nul.message).toContain(`task.${field}: ${field} must not contain NUL characters`);
    });
  }

  it('the aspect name, and labelled items of a meta-evaluation (named by index)', async () => {
    const aspect = await errorOf(
      await postJson('/v1/evaluations', {
        preset: 'debate-summeval',
        task: { ...POINTWISE, aspect: { name: ' ', scale: { min: 1, max: 5 } } },
      }),
      400,
    );
    expect(aspect.issues?.[0]?.path).toBe('task.aspect.name');
    const items = [
      { id: 'a', task: PAIRWISE, human: 'A' },
      { id: 'b', task: { ...PAIRWISE, answerB: '\t' }, human: 'B' },
    ];
    const meta = await errorOf(await postJson('/v1/meta-evaluations', { preset: 'fastchat-pair', items }), 400);
    expect(meta.issues).toEqual([{ path: 'items.1.task.answerB', message: 'answerB must not be only whitespace' }]);
  });

  it('text with whitespace around content is accepted as it is (nothing is trimmed)', async () => {
    const r = await apiWith(
      {
        FAST_START: 'false',
        JOBS: { send: () => Promise.resolve(), sendBatch: () => Promise.resolve() } as unknown as Queue,
      },
      '/v1/evaluations',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...valid, task: { ...PAIRWISE, answerA: '  Paris.\n' } }),
      },
    );
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    // Queued: its task waits in D1 for its object (src/evaluations/task-rows.ts).
    const row = await testEnv.DB.prepare('SELECT task FROM evaluation_tasks WHERE evaluation_id = ?')
      .bind(id)
      .first<{ task: string }>();
    expect((JSON.parse(row!.task) as { answerA: string }).answerA).toBe('  Paris.\n');
    await testEnv.DB.prepare('DELETE FROM evaluations WHERE id = ?').bind(id).run();
  });
});

describe('a wrong method on an existing path → 405 with Allow and the standard error body', () => {
  const CASES: { method: string; path: string; allow: string }[] = [
    { method: 'PUT', path: '/v1/evaluations', allow: 'GET, HEAD, POST' },
    { method: 'DELETE', path: '/v1/evaluations/ev_x/transcript', allow: 'GET, HEAD' },
    { method: 'PUT', path: '/v1/evaluations/ev_x', allow: 'DELETE, GET, HEAD' },
    { method: 'GET', path: '/v1/batches/ba_x/cancel', allow: 'POST' },
    { method: 'GET', path: '/v1/evaluations/ev_x/cancel', allow: 'POST' },
    { method: 'POST', path: '/v1/evaluations/ev_x/events', allow: 'GET, HEAD' },
    { method: 'PATCH', path: '/v1/meta-evaluations', allow: 'POST' },
    { method: 'POST', path: '/v1/methods', allow: 'GET, HEAD' },
    { method: 'POST', path: '/health', allow: 'GET, HEAD' },
    { method: 'DELETE', path: '/openapi.json', allow: 'GET, HEAD' },
    { method: 'OPTIONS', path: '/docs', allow: 'GET, HEAD' },
  ];
  for (const c of CASES) {
    it(`${c.method} ${c.path}`, async () => {
      const r = await api(c.path, { method: c.method });
      expect(r.headers.get('Allow')).toBe(c.allow);
      expect(r.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
      const e = await errorOf(r, 405);
      expect(e.code).toBe('method_not_allowed');
      expect(e.message).toBe(`${c.method} is not allowed on ${c.path}; allowed: ${c.allow}`);
    });
  }

  it('a path that does not exist stays 404, and HEAD is served where GET is', async () => {
    const e = await errorOf(await api('/v1/nothing', { method: 'DELETE' }), 404);
    expect(e.code).toBe('not_found');
    expect((await api('/v1/evaluations/ev_x/cancel/more', { method: 'POST' })).status).toBe(404);
    const head = await api('/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('Allow')).toBeNull();
  });
});

describe('prototype keys in a JSON body → 400, never silently dropped', () => {
  const task = JSON.stringify(PAIRWISE);
  const CASES: { name: string; path: string; text: string; field: string }[] = [
    {
      name: 'config.__proto__',
      path: '/v1/evaluations',
      text: `{"preset":"chateval-faireval","config":{"__proto__":{"turns":1}},"task":${task}}`,
      field: 'config.__proto__',
    },
    {
      name: 'config.constructor',
      path: '/v1/evaluations',
      text: `{"preset":"chateval-faireval","config":{"constructor":{"prototype":{}}},"task":${task}}`,
      field: 'config.constructor',
    },
    {
      name: 'nested in config',
      path: '/v1/evaluations',
      text: `{"preset":"chateval-faireval","config":{"defaults":{"prototype":1}},"task":${task}}`,
      field: 'config.defaults.prototype',
    },
    {
      name: 'top-level __proto__',
      path: '/v1/evaluations',
      text: `{"__proto__":{"preset":"x"},"preset":"chateval-faireval","task":${task}}`,
      field: '__proto__',
    },
    {
      name: 'in the task',
      path: '/v1/evaluations',
      text: `{"preset":"chateval-faireval","task":{"kind":"pairwise","question":"q","answerA":"a","answerB":"b","constructor":"x"}}`,
      field: 'task.constructor',
    },
    {
      name: 'in metadata',
      path: '/v1/evaluations',
      text: `{"preset":"chateval-faireval","task":${task},"metadata":{"prototype":"x"}}`,
      field: 'metadata.prototype',
    },
    {
      name: 'in a meta-evaluation item',
      path: '/v1/meta-evaluations',
      text: `{"preset":"fastchat-pair","items":[{"id":"a","task":${task},"human":"A","__proto__":{}}]}`,
      field: 'items.0.__proto__',
    },
    {
      name: 'in a cancel body',
      path: '/v1/evaluations/ev_x/cancel',
      text: '{"__proto__":{"reason":"x"}}',
      field: '__proto__',
    },
  ];
  for (const c of CASES) {
    it(c.name, async () => {
      const e = await errorOf(await postRaw(c.path, c.text), 400);
      expect(e.code).toBe('invalid_request');
      const key = c.field.split('.').at(-1)!;
      expect(e.issues).toEqual([{ path: c.field, message: `key "${key}" is not allowed` }]);
      expect(e.message).toContain(c.field);
    });
  }
});

describe('unknown keys anywhere in config → 400 invalid_config naming the key', () => {
  const CASES: { name: string; config: Record<string, unknown>; mentions: string }[] = [
    { name: 'top level', config: { turnz: 2 }, mentions: 'turnz' },
    { name: 'in defaults', config: { defaults: { modle: 'gpt' } }, mentions: 'modle' },
    { name: 'in calibration', config: { calibration: { enabled: true, combin: 'sum-scores' } }, mentions: 'combin' },
    { name: 'in an agent', config: { agents: [{ role: 'Critic', colour: 'red' }] }, mentions: 'colour' },
    { name: 'in templates', config: { templates: { pairwize: 'x' } }, mentions: 'pairwize' },
    { name: 'a key of another method', config: { jurorCount: 2 }, mentions: 'jurorCount' },
  ];
  for (const c of CASES) {
    it(c.name, async () => {
      const e = await errorOf(await postJson('/v1/evaluations', { ...valid, config: c.config }), 400);
      expect(e.code).toBe('invalid_config');
      expect(e.message).toContain(c.mentions);
    });
  }
});

describe('a client that disconnects mid-upload', () => {
  /** A JSON body whose stream breaks off after its first bytes, as a dropped connection does. */
  const head = '{"preset": "chateval-faireval", "task": {"kind": "pa';
  const brokenBody = () => {
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new Error('Network connection lost.'));
        else controller.enqueue(new TextEncoder().encode(head));
        sent = true;
      },
    });
  };

  for (const path of ['/v1/evaluations', '/v1/batches']) {
    it(`${path}: one info line (request.client_aborted), no error and no stack; 400, nothing stored`, async () => {
      const lines = {
        log: vi.spyOn(console, 'log'),
        warn: vi.spyOn(console, 'warn'),
        error: vi.spyOn(console, 'error'),
      };
      try {
        // To the app itself: the stream reaches the route as it is (through the entry it arrives cut short).
        const r = await apiWith({}, path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: brokenBody(),
          duplex: 'half',
        } as RequestInit);
        const e = await errorOf(r, 400);
        expect(e).toMatchObject({ code: 'invalid_request' });
        expect(e.message).toContain('connection ended');
        expect(lines.error).not.toHaveBeenCalled();
        expect(lines.warn).not.toHaveBeenCalled();
        const logged = lines.log.mock.calls.map(([l]) => JSON.parse(String(l)) as Record<string, unknown>);
        expect(logged).toContainEqual(
          expect.objectContaining({ level: 'info', event: 'request.client_aborted', path, bytesRead: head.length }),
        );
        expect(JSON.stringify(logged)).not.toContain('stack');
      } finally {
        for (const spy of Object.values(lines)) spy.mockRestore();
      }
    });
  }
});

describe('rejected input stores nothing', () => {
  it('no row was written by any case above', async () => {
    const n = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>();
    expect(n?.n).toBe(0);
  });
});
