/**
 * The API contract is written once: every route the app serves is an operation of the generated OpenAPI
 * document (and nothing else is), each fully documented; every route refuses unknown query parameters;
 * the examples in the document are requests the API accepts; `config` is typed per method.
 */
import { CreateComparisonRequestSchema } from '../../src/comparisons/schemas.js';
import { CalibrateRequestSchema } from '../../src/meta-evaluations/schemas.js';
import {
  CheckRequestSchema,
  CreateRubricRequestSchema,
  CreateRubricVersionRequestSchema,
  PutTagRequestSchema,
} from '../../src/rubrics/schemas.js';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiDocument, app } from '../../src/app.js';
import { methodConfigId } from '../../src/methods/method-config.js';
import type { OpenApiDocument } from '../../src/http/openapi.js';
import { CancelRequestSchema, CreateEvaluationRequestSchema } from '../../src/evaluations/schemas.js';
import { CreateBatchRequestSchema } from '../../src/batches/schemas.js';
import { planTask, resolveJudge } from '../../src/methods/resolve-judge.js';
import { EstimateRequestSchema } from '../../src/estimates/schemas.js';
import { METHODS } from '../../src/engine/registry.js';
import {
  CreateKeyRequestSchema,
  CreateTenantRequestSchema,
  UpdateTenantRequestSchema,
} from '../../src/tenants/schemas.js';
import { judgeRequestOf } from '../../src/openai/completion.js';
import { ChatCompletionRequestSchema } from '../../src/openai/schemas.js';
import { CreateQueueRequestSchema, PostLabelRequestSchema } from '../../src/annotation-queues/schemas.js';
import { AlignRequestSchema } from '../../src/align/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, servedContract } from './api-fetch.js';
import { ADMIN_TOKEN, asAdmin, keyed } from './tenants-helpers.js';
import { PAIRWISE, testEnv } from './helpers.js';
import { CreateWebhookEndpointSchema, UpdateWebhookEndpointSchema } from '../../src/webhooks/schemas.js';
import { CreateTriggerRequestSchema } from '../../src/triggers/schemas.js';
import { z as zod } from 'zod';
import { CreateMetaEvaluationRequestSchema } from '../../src/meta-evaluations/schemas.js';
import {
  CreateEvalRequestSchema,
  GraderRunRequestSchema,
  GraderValidateRequestSchema,
  UpdateEvalRequestSchema,
} from '../../src/evals/schemas.js';
import { CreateRunRequestSchema } from '../../src/evals/run-schemas.js';
import { OtlpJsonRequestSchema } from '../../src/traces/otlp-request.js';
import { CreateMonitorRequestSchema, UpdateMonitorRequestSchema } from '../../src/monitors/schemas.js';
import type { OtlpStatus } from '../../src/traces/schemas.js';
import { ExportsRequestSchema } from '../../src/exports/schemas.js';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: {
    content: Record<string, { examples?: Record<string, { value: unknown }>; schema?: { example?: unknown } }>;
  };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

async function fetchDocument(): Promise<OpenApiDocument> {
  const r = await api('/openapi.json');
  expect(r.status).toBe(200);
  return r.json<OpenApiDocument>();
}

/** Every documented operation as `METHOD /path` with its object. */
function operations(doc: OpenApiDocument): { key: string; path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const op = (item as Partial<Record<string, Operation>>)[method];
      return op ? [{ key: `${method.toUpperCase()} ${path}`, path, method, op }] : [];
    }),
  );
}

/** The routes the app actually serves, as `METHOD /path` in OpenAPI's `{param}` notation. */
function servedRoutes(): string[] {
  const keys = app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`);
  return [...new Set(keys)].sort();
}

describe('the OpenAPI document is generated from the routes', () => {
  it('documents exactly the routes the app serves', async () => {
    const doc = await fetchDocument();
    expect(
      operations(doc)
        .map((o) => o.key)
        .sort(),
    ).toEqual(servedRoutes());
    // The walk sees real routes (guards against an empty comparison passing).
    expect(servedRoutes()).toEqual(
      expect.arrayContaining(['POST /v1/evaluations', 'GET /v1/evaluations/{id}', 'GET /docs', 'GET /openapi.json']),
    );
  });

  it('a route added without a definition is caught by the comparison', () => {
    const extra = [...app.routes, { method: 'GET', path: '/v1/undocumented', handler: () => new Response() }];
    const served = extra.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`);
    const documented = new Set(operations(apiDocument()).map((o) => o.key.replace(/\{([^}]+)\}/g, ':$1')));
    expect(served.filter((k) => !documented.has(k))).toEqual(['GET /v1/undocumented']);
  });

  it('every operation has a unique operationId, a summary, a description and documented responses (2xx and errors)', async () => {
    const ops = operations(await fetchDocument());
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ops.length);
    for (const { key, op } of ops) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary?.length, key).toBeGreaterThan(3);
      expect(op.description?.length, key).toBeGreaterThan(20);
      const statuses = Object.keys(op.responses ?? {});
      expect(
        statuses.some((s) => /^[12]/.test(s)),
        key,
      ).toBe(true);
      expect(statuses, key).toContain('400');
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        expect(res.description?.length, `${key} ${status}`).toBeGreaterThan(0);
        // Every error documents the error body and names its stable codes.
        if (/^[45]/.test(status) && status !== '503') {
          // The OpenAI-compatible routes (the Evals API too) answer errors in OpenAI's shape (src/openai/errors.ts),
          // the OTLP export a google.rpc.Status as OTLP/HTTP requires (src/traces/otlp-errors.ts).
          const errorSchema =
            op.operationId === 'exportTraces'
              ? 'OtlpStatus'
              : op.tags?.some((t) => ['openai', 'evals', 'files'].includes(t))
                ? 'OpenAIError'
                : 'Error';
          expect(res.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe(
            `#/components/schemas/${errorSchema}`,
          );
          expect(res.description, `${key} ${status}`).toMatch(/^`[a-z_]+`/);
        }
      }
    }
  });

  it('every route declares its query schema (so unknown parameters cannot pass unnoticed)', () => {
    const routes = app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : []));
    expect(routes.length).toBe(servedRoutes().length);
    for (const r of routes) expect(r.request?.query, `${r.method} ${r.path}`).toBeDefined();
  });

  it('documents config per method: a MethodConfig variant for each method, keyed by `method`, unknown keys refused', async () => {
    const doc = await fetchDocument();
    const schemas = doc.components?.schemas as Record<
      string,
      {
        anyOf?: { $ref: string }[];
        allOf?: { $ref: string }[];
        properties?: Record<string, { enum?: string[]; allOf?: { $ref: string }[] }>;
        additionalProperties?: unknown;
      }
    >;
    const variants = schemas.MethodConfig?.anyOf?.map((v) => v.$ref.split('/').pop());
    expect(variants).toEqual([...METHODS.keys()].map(methodConfigId));
    for (const method of METHODS.keys()) {
      const variant = schemas[methodConfigId(method)];
      expect(variant?.properties?.method?.enum, method).toEqual([method]);
      expect(variant?.additionalProperties, method).toBe(false);
    }
    // A request's `config` holds overrides (every field optional at every depth); a preset's shows the full config.
    const overrides = { $ref: '#/components/schemas/MethodConfigOverrides' };
    expect(schemas.CreateEvaluationRequest?.properties?.config?.allOf).toEqual([overrides]);
    expect(schemas.CreateMetaEvaluationRequest?.properties?.config?.allOf).toEqual([overrides]);
    expect(schemas.PresetInfo?.properties?.config?.allOf).toEqual([{ $ref: '#/components/schemas/MethodConfig' }]);
  });

  it("partial overrides the server accepts are valid under the served document (the README's runAllStages, nested ones)", async () => {
    const contract = await servedContract();
    const bodies = [
      // The README's calibration advice: one field of the cascade's config (its required `stages` left to the preset).
      { preset: 'cascade-fastchat-chateval', config: { runAllStages: true }, task: PAIRWISE },
      { preset: 'fastchat-pair', config: { calibration: { enabled: false } }, task: PAIRWISE },
      { preset: 'chateval-faireval', config: { defaults: { temperature: 0 } }, task: PAIRWISE },
    ];
    for (const body of bodies) {
      const accepted = await api('/v1/estimates', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(accepted.status, JSON.stringify(body)).not.toBe(400);
      expect(contract.errorAt('/components/schemas/CreateEvaluationRequest', body), JSON.stringify(body)).toBeNull();
    }
    // An unknown key is still outside the document (and refused by the server).
    const unknown = { preset: 'fastchat-pair', config: { calibration: { enabeld: false } }, task: PAIRWISE };
    expect(contract.errorAt('/components/schemas/CreateEvaluationRequest', unknown)).not.toBeNull();
  });
});

describe('request examples in the document', () => {
  /** Request schema of each operation that documents body examples. */
  const BODY_SCHEMAS: Record<string, z.ZodType> = {
    createEvaluation: CreateEvaluationRequestSchema,
    createMetaEvaluation: CreateMetaEvaluationRequestSchema,
    cancelEvaluation: CancelRequestSchema,
    adminCreateTenant: CreateTenantRequestSchema,
    adminUpdateTenant: UpdateTenantRequestSchema,
    adminCreateKey: CreateKeyRequestSchema,
    createBatch: CreateBatchRequestSchema,
    createEstimate: EstimateRequestSchema.or(CreateComparisonRequestSchema),
    createChatCompletion: ChatCompletionRequestSchema,
    createWebhookEndpoint: CreateWebhookEndpointSchema,
    updateWebhookEndpoint: UpdateWebhookEndpointSchema,
    createTrigger: CreateTriggerRequestSchema,
    createComparison: CreateComparisonRequestSchema,
    calibrateMetaEvaluation: CalibrateRequestSchema,
    createRubric: CreateRubricRequestSchema,
    createRubricVersion: CreateRubricVersionRequestSchema,
    putRubricTag: PutTagRequestSchema,
    checkRubricVersion: CheckRequestSchema,
    createAnnotationQueue: CreateQueueRequestSchema,
    alignRubric: AlignRequestSchema,
    labelAnnotationItem: PostLabelRequestSchema,
    createEval: CreateEvalRequestSchema,
    updateEval: UpdateEvalRequestSchema,
    createEvalRun: CreateRunRequestSchema,
    runGrader: GraderRunRequestSchema,
    validateGrader: GraderValidateRequestSchema,
    // A sender's event: any JSON object (the trigger's mapping reads it).
    receiveHook: zod.record(zod.string(), zod.unknown()),
    exportTraces: OtlpJsonRequestSchema,
    createMonitor: CreateMonitorRequestSchema,
    updateMonitor: UpdateMonitorRequestSchema,
    putExports: ExportsRequestSchema,
  };

  it('every body example passes its schema, and every judge in one resolves and accepts its tasks', async () => {
    // JSON bodies: a file upload (multipart: tests/worker/evals-files.test.ts; text/csv, NDJSON only) documents its example on its schema.
    const withExamples = operations(await fetchDocument()).filter((o) => o.op.requestBody?.content['application/json']);
    expect(withExamples.map((o) => o.op.operationId).sort()).toEqual(Object.keys(BODY_SCHEMAS).sort());
    let checked = 0;
    for (const { key, op } of withExamples) {
      const examples = Object.entries(op.requestBody?.content['application/json']?.examples ?? {});
      expect(examples.length, `${key} has examples`).toBeGreaterThan(0);
      const schema = BODY_SCHEMAS[op.operationId ?? '']!;
      for (const [name, example] of examples) {
        const parsed = schema.safeParse(example.value);
        expect(parsed.error?.issues ?? [], `${key} example ${name}`).toEqual([]);
        const body = example.value as {
          preset?: string;
          config?: Record<string, unknown>;
          task?: unknown;
          items?: { task: unknown }[];
        };
        if (op.operationId === 'createChatCompletion') {
          // The model names the judge and the message holds the task.
          const { evaluation } = judgeRequestOf(ChatCompletionRequestSchema.parse(example.value));
          expect(planTask(resolveJudge(evaluation.preset, evaluation.config), evaluation.task)).toBeGreaterThan(0);
        } else if (
          op.operationId === 'createComparison' ||
          (op.operationId === 'createEstimate' && 'candidates' in body)
        ) {
          // A comparison's body (also POST /v1/estimates'): each item's first two outputs as a pairwise task, as the comparison checks its items.
          const c = CreateComparisonRequestSchema.parse(example.value);
          const judge = resolveJudge(c.preset, c.config);
          for (const item of c.items) {
            const [a, b] = c.candidates.map((name) => item.outputs[name] ?? '');
            const task = { kind: 'pairwise', question: item.question, answerA: a, answerB: b };
            expect(planTask(judge, CreateEvaluationRequestSchema.shape.task.parse(task))).toBeGreaterThan(0);
          }
        } else if (op.operationId === 'alignRubric') {
          // Its judge, when it names one, is resolved as on POST /v1/evaluations.
          if (body.preset !== undefined || body.config !== undefined) resolveJudge(body.preset, body.config);
        } else if (op.operationId !== 'createAnnotationQueue' && ('task' in body || 'items' in body)) {
          // (A queue's items are labelled by people, not judged: its body names no judge.)
          const judge = resolveJudge(body.preset, body.config);
          const tasks = body.items ? body.items.map((i) => i.task) : [body.task];
          for (const task of tasks)
            expect(planTask(judge, CreateEvaluationRequestSchema.shape.task.parse(task))).toBeGreaterThan(0);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(9);
  });
});

describe('unknown query parameters are a 400 on every route, never ignored', () => {
  /** A request for each documented operation, with path parameters filled and a valid body where one is needed. */
  function requestFor(path: string, method: string, op: Operation): { url: string; init: RequestInit } {
    const url = path.replace('{id}', 'ev_contract').replace('{file}', 'init.js');
    const example = Object.values(op.requestBody?.content['application/json']?.examples ?? {})[0]?.value;
    const init: RequestInit = { method: method.toUpperCase() };
    if (example !== undefined) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(example);
    }
    // A file upload without a JSON form: its CSV example.
    const csv = op.requestBody?.content['text/csv']?.schema?.example;
    if (example === undefined && typeof csv === 'string') {
      init.headers = { 'Content-Type': 'text/csv' };
      init.body = csv;
    }
    return { url, init };
  }

  it('answers 400 invalid_request naming the parameter, for every documented operation', async () => {
    const ops = operations(await fetchDocument());
    expect(ops.length).toBeGreaterThanOrEqual(12);
    for (const { key, path, method, op } of ops) {
      const { url, init } = requestFor(path, method, op);
      // The admin API is closed without ADMIN_TOKEN (503 before anything else): ask as the operator.
      const r = path.startsWith('/v1/admin')
        ? await asAdmin(`${url}?dry_run=true`, init)
        : await api(`${url}?dry_run=true`, init);
      const answer = await r.json<ErrorJson | OtlpStatus>();
      expect(r.status, `${key}: ${JSON.stringify(answer)}`).toBe(400);
      if ('details' in answer) {
        // The OTLP export: a google.rpc.Status whose ErrorInfo carries the code and the field.
        expect(answer.details[0]?.reason, key).toBe('invalid_request');
        expect(answer.details[0]?.metadata.field, key).toBe('dry_run');
        expect(answer.message, key).toContain('dry_run');
        continue;
      }
      const body = answer;
      expect(body.error.code, key).toBe('invalid_request');
      expect(body.error.message, key).toContain('dry_run');
      expect(body.error.issues, key).toEqual([{ path: 'dry_run', message: 'unknown query parameter "dry_run"' }]);
    }
  });

  it('POST /v1/evaluations?dry_run=true stores nothing (it used to be ignored and billed)', async () => {
    const count = async () =>
      (await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>())?.n;
    const before = await count();
    const { url, init } = requestFor(
      '/v1/evaluations',
      'post',
      operations(await fetchDocument()).find((o) => o.key === 'POST /v1/evaluations')!.op,
    );
    const r = await api(`${url}?dry_run=true&preset=x`, init);
    expect(r.status).toBe(400);
    const issues = (await r.json<ErrorJson>()).error.issues?.map((i) => i.path);
    expect(issues).toEqual(['dry_run', 'preset']);
    expect(await count()).toBe(before);
  });
});

describe('every route that takes a JSON body documents what its body middleware answers', () => {
  // The body limits lowered so that a small body is over them (the batches' and the OTLP export's routes have their own).
  const small = { MAX_BODY_BYTES: '64', MAX_BATCH_BODY_BYTES: '64', OTLP_MAX_BODY_BYTES: '64' };

  it('answers 415 for a body that is not JSON and 413 for one over the limit, both documented', async () => {
    const ops = operations(await fetchDocument()).filter(
      // A trigger's hook reads the sender's raw bytes (the signature covers them), whatever their type.
      (o) => o.op.requestBody?.content['application/json'] && o.op.operationId !== 'receiveHook',
    );
    expect(ops.length).toBeGreaterThanOrEqual(15);
    for (const { key, path, method } of ops) {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'n' || name === 'version' ? '1' : 'x1'));
      const send = (init: { headers: Record<string, string>; body: string }) => {
        const req = { method: method.toUpperCase(), ...init };
        // The admin API is closed without ADMIN_TOKEN (503 before anything else): ask as the operator.
        return path.startsWith('/v1/admin')
          ? keyed(url, { ...req, headers: { ...req.headers, Authorization: `Bearer ${ADMIN_TOKEN}` } }, small)
          : apiWith(small, url, req);
      };
      const text = await send({ headers: { 'Content-Type': 'text/plain' }, body: '{}' });
      expect(text.status, `${key}: ${await text.clone().text()}`).toBe(415);
      const large = await send({
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pad: 'x'.repeat(200) }),
      });
      expect(large.status, `${key}: ${await large.clone().text()}`).toBe(413);
    }
  });
});

describe('the reference page is served by the Worker itself', () => {
  it("serves Scalar's browser bundle from the static assets, and its settings turn every online feature off", async () => {
    const bundle = await api('/docs/assets/scalar.js');
    expect(bundle.status).toBe(200);
    const js = await bundle.text();
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js).toContain('createApiReference');
    const init = await (await api('/docs/assets/init.js')).text();
    expect(init).toContain("Scalar.createApiReference('#tribunal-reference'");
    const config = JSON.parse(/createApiReference\('#tribunal-reference', (.*)\);/.exec(init)?.[1] ?? '{}') as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      url: '/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      agent: { disabled: true },
    });
    expect(config).not.toHaveProperty('proxyUrl');
  });

  it('serves no other asset, and an unknown script name is a 400 naming it', async () => {
    expect((await api('/vendor/scalar.js')).status).toBe(404);
    const r = await api('/docs/assets/other.js');
    expect(r.status).toBe(400);
    expect((await r.json<ErrorJson>()).error.issues?.[0]?.path).toBe('file');
  });
});
