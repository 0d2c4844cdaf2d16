/**
 * @module
 * The HTTP API: `app` (mounted by the Worker entry, src/index.ts) and `AppType`, the routes' types for
 * `hc<AppType>()` (narrowed by status; used by the tests). Users get the typed client `tribunal/client`
 * (src/client), whose types are generated from the OpenAPI document and carry no Worker types.
 *
 * Every route is an `@hono/zod-openapi` definition, so the OpenAPI document (`GET /openapi.json`, ./http/openapi.ts)
 * is generated from the same definitions that validate requests and type this client. Public: `/health`,
 * `/openapi.json`, `/docs`. Everything under `/v1` needs a bearer token (./tenants/auth.ts; without
 * `ADMIN_TOKEN` and `API_KEYS` it is closed, 503, unless `ALLOW_ANONYMOUS=true`), except `/v1/hooks/{id}`, which a trigger's sender authenticates by signing the
 * request; each route needs one scope (`requireScope` in its definition); requests of a key are
 * rate-limited (./tenants/rate-limit.ts).
 * Errors are `{ error: { code, message, issues? } }` (./http/errors.ts), and in OpenAI's shape on the
 * OpenAI-compatible paths, the Evals API's included (src/openai/errors.ts); a known path with another method is 405 with `Allow`
 * (./http/method-not-allowed.ts).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono, Schema } from 'hono';
import { except } from 'hono/combine';
import { createApp } from './http/create-app.js';
import type { OpenApiDocument } from './http/openapi.js';
import { openApiDocument, openApiRoute } from './http/openapi.js';
import { auth } from './tenants/auth.js';
import { rateLimit } from './tenants/rate-limit.js';
import { admin } from './admin/routes.js';
import { rubricAlignments } from './align/routes.js';
import { annotationQueues } from './annotation-queues/routes.js';
import { rubricAgreement } from './annotation-queues/agreement-routes.js';
import { batchRoutes } from './batches/routes.js';
import { comparisonRoutes } from './comparisons/routes.js';
import { estimateComparison } from './comparisons/estimate.js';
import { COMPARISON_EXAMPLE, CreateComparisonRequestSchema } from './comparisons/schemas.js';
import { COMPARISON_WEBHOOK_DOCS } from './comparisons/answer-schemas.js';
import { estimatesRoutes } from './estimates/routes.js';
import { useCalibrations } from './estimates/service.js';
import { labelledItems } from './annotation-queues/labelled.js';
import { evaluationRoutes } from './evaluations/routes.js';
import { calibrationStored, certifyJudge } from './certify/service.js';
import { evals, graders } from './evals/routes.js';
import { runRoutes } from './evals/run-routes.js';
import { files } from './files/routes.js';
import { metaEvaluations } from './meta-evaluations/routes.js';
import { rubricChecks } from './rubric-checks/routes.js';
import { rubrics } from './rubrics/routes.js';
import { methods } from './methods/routes.js';
import { openai } from './openai/routes.js';
import { openAiErrorShape } from './openai/errors.js';
import { service } from './http/service-routes.js';
import { usage } from './tenants/usage-routes.js';
import type { TenantEnv } from './tenants/auth.js';
import { webhookDeliveries, webhookSigningSecret } from './webhooks/routes/deliveries.js';
import { exportsRoutes } from './exports/routes.js';
import { webhookEndpoints } from './webhooks/routes/endpoints.js';
import { hooks, triggers } from './triggers/routes.js';
import { traces } from './traces/routes.js';
import { linkToTrace } from './traces/links.js';
import { monitors } from './monitors/routes.js';
import { otlpErrorShape } from './traces/otlp-errors.js';
import {
  METHOD_CONFIG_ID,
  METHOD_CONFIG_OVERRIDES_ID,
  MethodConfig,
  MethodConfigOverrides,
} from './methods/method-config.js';
import { registerWebhookEvents } from './webhooks/event-docs.js';
import { RUN_WEBHOOK_DOCS } from './evals/run-events.js';
import { EVALUATION_WEBHOOK_DOCS } from './evaluations/webhook-event.js';
import { BATCH_WEBHOOK_DOCS } from './batches/completion-event.js';

/** The API as a hono app: `app.fetch(request, env, ctx)`. */
export const app = createApp<TenantEnv>();

// Certified mode's estimate counts the calibration run over a rubric version's human labels, unless it is stored.
useCalibrations(async (env, tenant, version, judge) => ({
  tasks: (await labelledItems(env, tenant, version)).filter((it) => it.human !== null).map((it) => it.task),
  stored: await calibrationStored(env, tenant, judge, version),
}));

// Before auth, so a 401 on the OpenAI-compatible paths is in OpenAI's error shape too.
app.use('/v1/chat/*', openAiErrorShape());
app.use('/v1/models/*', openAiErrorShape());
// OpenAI's Evals API: its SDK reads `param`, `type` and `code` from the same shape.
app.use('/v1/evals/*', openAiErrorShape());
app.use('/v1/fine_tuning/*', openAiErrorShape());
app.use('/v1/files/*', openAiErrorShape());
// OTLP/HTTP: every failure of an export is a google.rpc.Status in the request's encoding, a 401 included.
app.use('/v1/traces', otlpErrorShape());
// Who is calling (c.var.tenant, c.var.auth), then the key's request rate; each route checks its scope.
// `/v1/hooks/*` is authenticated by each request's signature (src/triggers/hook.ts), never by a bearer token.
app.use('/v1/*', except('/v1/hooks/*', auth(), rateLimit()));

// Only its type is used (hono's RPC typing); building it registers the routes.
const _routes = app
  .route('/', service)
  // Certified mode's calibration reads annotation queues and runs a meta-evaluation, features above these; an
  // evaluation made of a trace is recorded on the trace's object (the traces read the evaluations' statuses).
  .route('/v1/evaluations', evaluationRoutes({ certify: certifyJudge, link: linkToTrace }))
  .route('/v1/methods', methods)
  .route('/v1/meta-evaluations', metaEvaluations)
  .route('/v1/annotation-queues', annotationQueues)
  // Before the rubric routes: its middleware stores a finished check's report before a version is read.
  .route('/v1/rubrics', rubricChecks)
  .route('/v1/rubrics', rubricAgreement)
  .route('/v1/rubrics', rubricAlignments)
  .route('/v1/rubrics', rubrics)
  .route('/v1/usage', usage)
  .route('/v1/admin', admin)
  .route('/v1/batches', batchRoutes({ certify: certifyJudge }))
  .route('/v1/comparisons', comparisonRoutes({ certify: certifyJudge }))
  .route(
    '/v1/estimates',
    // A comparison's body is estimated by its own feature (see src/estimates/routes.ts for why it is wired here).
    estimatesRoutes({
      key: 'candidates',
      schema: CreateComparisonRequestSchema,
      estimate: estimateComparison,
      examples: {
        comparison: {
          summary: 'A comparison with a budget',
          description:
            'The body of POST /v1/comparisons: v2 against v1 on two items (2 pair evaluations), and whether $0.05 fits.',
          value: { ...COMPARISON_EXAMPLE, budget: { maxCostUsd: 0.05 } },
        },
      },
    }),
  )
  .route('/v1', openai)
  .route('/v1/evals', evals)
  .route('/v1/evals', runRoutes({ certify: certifyJudge }))
  .route('/v1/fine_tuning/alpha/graders', graders)
  .route('/v1/files', files)
  .route('/v1/webhook-endpoints', webhookEndpoints)
  .route('/v1/webhook-deliveries', webhookDeliveries)
  .route('/v1/webhook-signing-secret', webhookSigningSecret)
  .route('/v1/triggers', triggers)
  .route('/v1/hooks', hooks)
  .route('/v1/traces', traces)
  .route('/v1/monitors', monitors)
  .route('/v1/exports', exportsRoutes)
  .openapi(openApiRoute, (c) => c.json(apiDocument(), 200));

/**
 * The OpenAPI document: the routes' definitions, plus what features add besides them: the judge config's
 * components (`MethodConfig`, a full config; `MethodConfigOverrides`, what a request's `config` holds: both
 * referenced by `$ref`) and the events Tribunal POSTs
 * to receivers (the document's `webhooks` section), each producer documenting its own.
 */
export function apiDocument(): OpenApiDocument {
  return openApiDocument(app, (registry) => {
    registry.register(METHOD_CONFIG_ID, MethodConfig);
    registry.register(METHOD_CONFIG_OVERRIDES_ID, MethodConfigOverrides);
    registerWebhookEvents(registry, {
      ...EVALUATION_WEBHOOK_DOCS,
      ...BATCH_WEBHOOK_DOCS,
      ...COMPARISON_WEBHOOK_DOCS,
      ...RUN_WEBHOOK_DOCS,
    });
  });
}

/** True for the input type of {@link NoQuery}-style query schemas (`{}` or `{ [k: string]: never }`). */
type IsEmptyQuery<Q> = [keyof Q] extends [never]
  ? true
  : string extends keyof Q
    ? [Q[string]] extends [never]
      ? true
      : false
    : false;
/** A route's input without the query of a route that takes no query parameters. */
type WithoutEmptyQuery<I> = I extends { query: infer Q } ? (IsEmptyQuery<Q> extends true ? Omit<I, 'query'> : I) : I;
/**
 * The routes' schema as a client sees it: a route without query parameters asks for no `query` argument
 * (the server still refuses unknown ones with 400).
 */
type ClientSchema<S extends Schema> = { [P in keyof S]: { [M in keyof S[P]]: ClientEndpoint<S[P][M]> } };
/** Distributes over the endpoint's per-status variants, so a client still narrows responses by status. */
type ClientEndpoint<E> = E extends { input: infer I } ? Omit<E, 'input'> & { input: WithoutEmptyQuery<I> } : E;
type RoutesSchema = typeof _routes extends OpenAPIHono<TenantEnv, infer S> ? S : never;

/** Route types for `hc<AppType>()`: inputs, and every documented response (errors included) by status. */
export type AppType = Hono<TenantEnv, ClientSchema<RoutesSchema>>;
