import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/registry.js';
import { api, apiWith } from './api-fetch.js';

interface OpenApiDoc {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, unknown>; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }
    >
  >;
  components: {
    schemas: Record<
      string,
      { type?: string; properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown }
    >;
  };
}

describe('service routes', () => {
  it('GET /health checks D1, and says what /v1 asks of a caller (as its status without a token would)', async () => {
    const r = await api('/health');
    expect(r.status).toBe(200);
    // The test bindings: no ADMIN_TOKEN nor API_KEYS, ALLOW_ANONYMOUS true.
    expect(await r.json()).toEqual({ service: 'tribunal', status: 'ok', d1: 'ok', auth: 'open' });
    // An invalid configuration fails the health check itself (its D1 binding cannot be chosen): still `closed`.
    const modes = [
      { vars: { API_KEYS: 'a'.repeat(64) }, auth: 'key', v1: 401, status: 200 },
      { vars: { ADMIN_TOKEN: 'operator-token' }, auth: 'key', v1: 401, status: 200 },
      { vars: { ALLOW_ANONYMOUS: 'false' }, auth: 'closed', v1: 503, status: 200 },
      { vars: { API_KEYS: 'a'.repeat(64), LLM_TIMEOUT_MS: 'soon' }, auth: 'closed', v1: 503, status: 503 },
    ];
    for (const { vars, auth, v1, status } of modes) {
      const health = await apiWith(vars, '/health');
      expect(health.status, JSON.stringify(vars)).toBe(status);
      expect((await health.json<{ auth: string }>()).auth, JSON.stringify(vars)).toBe(auth);
      expect((await apiWith(vars, '/v1/methods')).status, JSON.stringify(vars)).toBe(v1);
    }
  });

  it('GET /v1/methods lists every preset with a resolved config and every method', async () => {
    const r = await api('/v1/methods');
    expect(r.status).toBe(200);
    const body = await r.json<{
      methods: { id: string; taskKinds: string[] }[];
      presets: { id: string; method: string; taskKind: string; paper: string; config: Record<string, unknown> }[];
    }>();
    expect(body.presets.map((p) => p.id)).toEqual(PRESETS.map((p) => p.id));
    for (const p of body.presets) {
      expect(p.config.method).toBe(p.method);
      // Resolved with defaults: common fields are present even where the preset omits them (a cascade has
      // none of its own: each stage's resolved config carries them).
      const resolved =
        p.method === 'cascade'
          ? (p.config.stages as { config: Record<string, unknown> }[]).map((st) => st.config)
          : [p.config];
      for (const c of resolved) {
        expect(c).toHaveProperty('parseRetries');
        expect(c).toHaveProperty('calibration');
      }
      expect(p.paper.length).toBeGreaterThan(0);
      expect(body.methods.find((m) => m.id === p.method)?.taskKinds).toContain(p.taskKind);
    }
    expect(body.methods.map((m) => m.id).sort()).toEqual([
      'cascade',
      'chateval',
      'debate',
      'ensemble',
      'jury',
      'more',
      'repeat',
      'rubric-steps',
      'samre',
      'single',
    ]);
  });

  it('GET /openapi.json is OpenAPI 3.1 built from the request schemas, with every $ref resolvable', async () => {
    const r = await api('/openapi.json');
    expect(r.status).toBe(200);
    const doc = await r.json<OpenApiDoc>();
    expect(doc.openapi).toBe('3.1.0');
    const post = doc.paths['/v1/evaluations']?.post;
    expect(post?.requestBody?.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/CreateEvaluationRequest',
    );
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(['202', '400', '409', '413']));
    const req = doc.components.schemas.CreateEvaluationRequest;
    expect(req?.additionalProperties).toBe(false);
    expect(req?.required).toEqual(['task']);
    expect(Object.keys(req?.properties ?? {}).sort()).toEqual([
      'budget',
      'cache',
      'certify',
      'config',
      'flexFallback',
      'metadata',
      'preset',
      'repeat',
      'rubric',
      'seed',
      'source',
      'task',
      'tier',
      'webhook',
    ]);
    for (const id of [
      'Task',
      'MethodConfig',
      'Evaluation',
      'VerdictSummary',
      'Error',
      'LabelledItem',
      'AgreementReport',
      'MetaEvaluation',
    ]) {
      expect(doc.components.schemas, id).toHaveProperty(id);
    }
    for (const path of [
      '/v1/evaluations/{id}',
      '/v1/evaluations/{id}/transcript',
      '/v1/evaluations/{id}/cancel',
      '/v1/evaluations/{id}/events',
      '/v1/methods',
      '/v1/meta-evaluations',
      '/v1/meta-evaluations/{id}',
      '/health',
    ]) {
      expect(doc.paths, path).toHaveProperty(path);
    }
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      expect(doc.components.schemas, ref).toHaveProperty(ref.slice(1, -1).split('/').pop()!);
    }
  });

  it('GET /docs serves the reference page with same-origin scripts only, under a CSP that forbids other origins', async () => {
    const r = await api('/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('Content-Type')).toContain('text/html');
    const html = await r.text();
    expect(html).toContain('/openapi.json');
    // No CDN: every script is a path on this Worker, and nothing names another origin.
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['/docs/assets/scalar.js', '/docs/assets/init.js']);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<script>|<script[^>]*>[^<]/);
    const csp = r.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    for (const src of scripts) {
      const js = await api(src);
      expect(js.status, src).toBe(200);
      expect(js.headers.get('Content-Type'), src).toContain('javascript');
      expect((await js.text()).length, src).toBeGreaterThan(0);
    }
  });
});
