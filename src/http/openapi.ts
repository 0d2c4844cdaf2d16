/**
 * @module
 * The OpenAPI 3.1 document, generated from the route definitions (`createRoute` in ./routes/): paths,
 * parameters, bodies, responses and operation ids all come from the definitions that validate requests,
 * and every schema with `.meta({ id })` becomes `#/components/schemas/<id>`. This module adds only what
 * belongs to the document as a whole (info, tags, security) and the `GET /openapi.json` route.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createRoute, z } from '@hono/zod-openapi';
import { BAD_QUERY, NoQuery } from './responses.js';
import type { KernelEnv } from './kernel-env.js';

/** The generated document (OpenAPI 3.1). */
export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

const DESCRIPTION = `Hosted LLM-judge API: the multi-agent debate evaluators of ChatEval, MORE/SAMRE (Bandi et al.) and DEBATE, plus single-judge baselines, as paper presets.

**Jobs are asynchronous.** \`POST /v1/evaluations\` answers 202 with links; poll \`GET /v1/evaluations/{id}\` or follow \`/events\` (SSE or WebSocket) for the verdict.

**Retries.** A client that retries a POST must send an \`Idempotency-Key\` header: without one, a retry after a connection reset creates a second evaluation.

**Errors** are always \`{ "error": { "code", "message", "issues"? } }\` with a stable \`code\`; \`issues\` lists each failing field. An unknown query parameter is a 400, a known path with another method a 405 with \`Allow\`.

**Auth.** When the deployment sets \`ADMIN_TOKEN\` (managed keys) or \`API_KEYS\`, every \`/v1\` route needs \`Authorization: Bearer <key>\`. A key belongs to one tenant, and everything it creates or reads is that tenant's. Each route needs one scope (named in its security requirement): \`read\`, \`evaluations:write\` or \`admin\`; a key without it gets 403 \`forbidden\`.

**Limits.** Each key has a request rate (a token bucket: the quota \`q\` may be used at once, and refills over the window \`w\`). Every response to a key carries \`RateLimit-Policy: "default";q=600;w=60\` and \`RateLimit: "default";r=598;t=1\` (draft-ietf-httpapi-ratelimit-headers: \`r\` requests left, \`t\` seconds until the whole quota is back); past it, 429 \`rate_limited\` with \`Retry-After\`. A tenant may have monthly caps on spend and evaluations (429 \`quota_exceeded\` with \`error.resetAt\`) and a cap on evaluations running at once: evaluations beyond it wait in the queue, they are never refused.`;

/** Document-wide fields (the generator adds paths and components). */
const DOCUMENT_CONFIG = {
  openapi: '3.1.0',
  info: { title: 'Tribunal', version: '0.1.0', description: DESCRIPTION },
  // Relative: the document describes whichever deployment serves it (and "try it" calls that one).
  servers: [{ url: '/', description: 'This deployment' }],
  security: [{ bearer: [] }],
  tags: [
    { name: 'evaluations', description: 'One judged task: create, read, transcript, cancel, live events.' },
    {
      name: 'batches',
      description: 'Many items judged at once: submit (JSON or NDJSON), counts, results as NDJSON pages, cancel.',
    },
    { name: 'meta-evaluations', description: 'Agreement of a judge with human labels over a labelled batch.' },
    {
      name: 'annotation-queues',
      description:
        "Human labels against a rubric version: queues, each annotator's next item, labels with provenance, adjudication, export and import.",
    },
    {
      name: 'rubrics',
      description:
        'Your own criteria: versioned rubrics (immutable versions, moving tags, golden examples and their check) that every judging request can name.',
    },
    { name: 'methods', description: 'Judge methods and the paper presets built on them.' },
    {
      name: 'estimates',
      description: 'What an evaluation or a batch would cost before it runs: the shortest and longest paths.',
    },
    {
      name: 'comparisons',
      description: 'Candidates compared pair by pair over items: win rates, a ranking with intervals, and a CI gate.',
    },
    { name: 'usage', description: "Calls, tokens and cost of the caller's tenant." },
    {
      name: 'admin',
      description:
        "The operator's API: tenants, their limits and quotas, API keys, any tenant's usage (scope `admin`).",
    },
    {
      name: 'evals',
      description:
        "OpenAI's Evals API for the `openai` SDK at `<deployment>/v1`: evals with their graders, runs and output items, and `fine_tuning/alpha/graders`.",
    },
    {
      name: 'files',
      description:
        "Files for OpenAI's Evals API (`/v1/files`, purpose `evals`): JSONL uploads a run reads by `file_id`.",
    },
    {
      name: 'openai',
      description:
        "OpenAI-compatible: every preset as a model `tribunal/<preset>`, judged through chat completions (errors in OpenAI's shape).",
    },
    { name: 'service', description: 'Health, this document and the reference page.' },
    {
      name: 'traces',
      description:
        'OpenTelemetry traces in (OTLP/HTTP at the OTLP default path `/v1/traces`, GenAI and OpenInference spans), and each trace with its evaluations.',
    },
    {
      name: 'monitors',
      description:
        'Production traces judged as they arrive: a monitor matches spans or whole traces of `POST /v1/traces`, samples them, and judges each once as an ordinary evaluation with its `source`.',
    },
    {
      name: 'exports',
      description:
        "Verdicts out to the tenant's own observability: each finished evaluation made of a trace sent as an OTLP `gen_ai.evaluation.result` log record on the judged span.",
    },
    {
      name: 'triggers',
      description:
        'Webhook-triggered evaluations: a signed incoming event becomes one evaluation, at most once per delivery id.',
    },
    {
      name: 'webhooks',
      description:
        'Signed callbacks (Standard Webhooks): endpoints, the delivery log, the signing secret for one-off URLs.',
    },
  ],
};

const documents = new WeakMap<object, OpenApiDocument>();

/** What the features add to the document besides their routes (a component, the `webhooks` section). */
export type DocumentRegistrations = (registry: OpenAPIHono['openAPIRegistry']) => void;

/**
 * The app's OpenAPI 3.1 document, generated once per app (routes are fixed once the app is built).
 * @param register what the features add besides their routes, run once before the document is generated.
 */
export function openApiDocument<E extends KernelEnv>(
  app: OpenAPIHono<E>,
  register: DocumentRegistrations = () => undefined,
): OpenApiDocument {
  let doc = documents.get(app);
  if (!doc) {
    register(app.openAPIRegistry);
    app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
      type: 'http',
      scheme: 'bearer',
      description:
        'A managed key `trb_…` (when the deployment sets ADMIN_TOKEN), an API_KEYS token, or ADMIN_TOKEN itself on /v1/admin. ' +
        'The scopes listed on an operation are the key scopes it needs (`read`, `evaluations:write`, `admin`).',
    });
    doc = app.getOpenAPI31Document(DOCUMENT_CONFIG);
    documents.set(app, doc);
  }
  return doc;
}

/** `GET /openapi.json`. */
export const openApiRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: ['service'],
  summary: 'This document',
  description:
    'The API contract as OpenAPI 3.1 JSON, generated from the route definitions that validate requests. No auth.',
  security: [],
  request: { query: NoQuery },
  responses: {
    200: {
      description: 'OpenAPI 3.1 document.',
      content: { 'application/json': { schema: z.object({ openapi: z.string() }).loose() } },
    },
    400: BAD_QUERY,
  },
});
