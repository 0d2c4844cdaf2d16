/**
 * @module
 * `POST /v1/hooks/{id}`: one signed delivery from a sender becomes at most one evaluation.
 *
 * In order: the trigger (404 if none); the raw body (413 over `MAX_BODY_BYTES`); the signature, before
 * anything is parsed (401 `invalid_signature`): Standard Webhooks headers with a 5-minute timestamp
 * tolerance, or `X-Hub-Signature-256` (GitHub; delivery id from `X-GitHub-Delivery`); the JSON; GitHub's
 * `ping` and the trigger's filter (200, ignored); the mapping (422 `mapping_failed` naming the field);
 * then the evaluation, created through the same path as `POST /v1/evaluations` with the idempotency key
 * `trigger:<trigger id>:<delivery id>`, so a sender's retry of a delivery returns the first evaluation
 * (202, `replayed: true`) and never judges twice. Nothing is stored before the mapping succeeded.
 */
import { ApiError } from '../http/errors.js';
import { readLimited } from '../http/json-body.js';
import type { CreateResult } from '../evaluations/service.js';
import { createEvaluationJob } from '../evaluations/service.js';
import type { Task } from '../engine/task.js';
import { TaskSchema } from '../engine/task.js';
import type { Bindings } from '../config/bindings.js';
import { sha256HexSync } from '../webhooks/sha256.js';
import { verifyHubSignature, verifyStandardWebhook } from '../webhooks/signature.js';
import type { VerifyResult } from '../webhooks/signature.js';
import { applyRule, applyTextRule, MappingError, passesFilter } from './mapping.js';
import type { Mapping } from './schemas.js';
import { triggerForHook } from './triggers.js';
import { configOf } from '../config/vars.js';
import type { CreateComparisonRequest } from '../comparisons/schemas.js';
import type { ComparisonAccepted } from '../comparisons/answer-schemas.js';
import { CreateComparisonRequestSchema } from '../comparisons/schemas.js';
import { createComparison } from '../comparisons/service.js';

/** What a delivery came to. */
export type HookOutcome =
  | { kind: 'accepted'; result: CreateResult }
  | { kind: 'comparison'; body: ComparisonAccepted; replayed: boolean }
  | { kind: 'ignored'; reason: string };

type ComparisonTarget = Extract<Mapping['task'], { kind: 'comparison' }>;

/**
 * The comparison request a `comparison` mapping builds from `doc` (the judge, callback and the trigger's
 * metadata are the trigger's). @throws ApiError 422 `mapping_failed` naming the field that cannot be filled
 * or fails its schema.
 */
export function mapComparison(
  trigger: {
    preset: string | null;
    config: Record<string, unknown> | null;
    rubric: unknown;
    webhook: { url: string } | null;
  },
  target: ComparisonTarget,
  doc: unknown,
): CreateComparisonRequest {
  try {
    const request: Record<string, unknown> = {
      ...(trigger.preset !== null ? { preset: trigger.preset } : {}),
      ...(trigger.config !== null ? { config: trigger.config } : {}),
      ...(trigger.rubric !== null && trigger.rubric !== undefined ? { rubric: trigger.rubric } : {}),
      candidates: applyRule(doc, target.candidates, 'task.candidates'),
      items: applyRule(doc, target.items, 'task.items'),
      design: target.design ? applyRule(doc, target.design, 'task.design') : 'all-pairs',
      ...(target.gate ? { gate: applyRule(doc, target.gate, 'task.gate') } : {}),
      ...(trigger.webhook ? { webhook: trigger.webhook } : {}),
    };
    const parsed = CreateComparisonRequestSchema.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MappingError(`task.${issue?.path.map(String).join('.') ?? ''}`, issue?.message ?? 'invalid');
    }
    return parsed.data;
  } catch (e) {
    if (e instanceof MappingError) {
      throw new ApiError(422, 'mapping_failed', `the trigger's mapping cannot fill ${e.message}`, [
        { path: e.field, message: e.message.slice(e.field.length + 2) },
      ]);
    }
    throw e;
  }
}

/** The sender's delivery id as an idempotency key: readable when it is short visible ASCII, else hashed. */
function idempotencyKeyOf(triggerId: string, deliveryId: string): string {
  const safe = /^[\x21-\x7e]{1,180}$/.test(deliveryId) ? deliveryId : `sha256-${sha256HexSync(deliveryId)}`;
  return `trigger:${triggerId}:${safe}`;
}

/** Verifies the request's signature; returns the sender's delivery id. @throws ApiError 401 / 400. */
async function verified(request: Request, secrets: readonly string[], body: Uint8Array): Promise<string> {
  // Svix sends the same scheme under its own names (`svix-id`, `svix-timestamp`, `svix-signature`).
  const h = (name: string) =>
    request.headers.get(name) ?? request.headers.get(name.replace(/^webhook-/, 'svix-')) ?? undefined;
  const unauthorized = (why: string) => new ApiError(401, 'invalid_signature', `signature check failed: ${why}`);
  let result: VerifyResult;
  let deliveryId: string | undefined;
  const hub = h('x-hub-signature-256');
  if (h('webhook-signature') !== undefined || hub === undefined) {
    if (h('webhook-signature') === undefined) {
      throw unauthorized(
        "sign the request: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature; or Svix's svix-id, svix-timestamp, svix-signature) or X-Hub-Signature-256",
      );
    }
    result = await verifyStandardWebhook(
      secrets,
      { id: h('webhook-id'), timestamp: h('webhook-timestamp'), signature: h('webhook-signature') },
      body,
      Math.floor(Date.now() / 1000),
    );
    deliveryId = h('webhook-id');
  } else {
    result = await verifyHubSignature(secrets, hub, body);
    deliveryId = h('x-github-delivery');
  }
  if (!result.ok) throw unauthorized(result.reason);
  if (!deliveryId) {
    throw new ApiError(
      400,
      'invalid_request',
      'invalid headers: X-GitHub-Delivery: required with X-Hub-Signature-256 (it makes retries idempotent)',
      [{ path: 'X-GitHub-Delivery', message: 'required with X-Hub-Signature-256' }],
    );
  }
  return deliveryId;
}

/** The task and metadata the mapping builds from `doc`. @throws ApiError 422 `mapping_failed`. */
export function mapRequest(
  mapping: Mapping,
  doc: unknown,
): { task: Task; metadata: Record<string, string | number | boolean> } {
  try {
    const task: Record<string, unknown> = { kind: mapping.task.kind };
    if (mapping.task.kind === 'comparison')
      throw new MappingError('task.kind', 'a comparison is mapped by mapComparison');
    for (const [field, rule] of Object.entries(mapping.task)) {
      if (field === 'kind' || typeof rule === 'undefined' || field === 'aspect') continue;
      task[field] = applyTextRule(doc, rule, `task.${field}`);
    }
    if (mapping.task.kind === 'pointwise') task.aspect = applyRule(doc, mapping.task.aspect, 'task.aspect');
    const metadata: Record<string, string | number | boolean> = {};
    for (const [key, rule] of Object.entries(mapping.metadata ?? {})) {
      const v = applyRule(doc, rule, `metadata.${key}`);
      if (typeof v === 'number' || typeof v === 'boolean') metadata[key] = v;
      else if (typeof v === 'string' && v.length <= 1024) metadata[key] = v;
      else
        throw new MappingError(`metadata.${key}`, 'expected a string (at most 1024 characters), a number or a boolean');
    }
    const parsed = TaskSchema.safeParse(task);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MappingError(`task.${issue?.path.map(String).join('.') ?? ''}`, issue?.message ?? 'invalid');
    }
    return { task: parsed.data, metadata };
  } catch (e) {
    if (e instanceof MappingError) {
      throw new ApiError(422, 'mapping_failed', `the trigger's mapping cannot fill ${e.message}`, [
        { path: e.field, message: e.message.slice(e.field.length + 2) },
      ]);
    }
    throw e;
  }
}

/** Handles one delivery to trigger `triggerId` (see the module note). */
export async function receiveHook(env: Bindings, triggerId: string, request: Request): Promise<HookOutcome> {
  const found = await triggerForHook(env, triggerId, Date.now());
  if (!found) throw new ApiError(404, 'not_found', `no trigger "${triggerId}"`);
  const { trigger, secrets } = found;
  const limit = configOf(env).MAX_BODY_BYTES;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit)
    throw new ApiError(413, 'payload_too_large', `request body is larger than ${limit} bytes`);
  const body = await readLimited(request.body, limit);
  const deliveryId = await verified(request, secrets, body);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
  } catch (e) {
    throw new ApiError(400, 'invalid_json', `request body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (request.headers.get('x-github-event') === 'ping') return { kind: 'ignored', reason: 'ping' };
  if (trigger.filter) {
    const f = passesFilter(doc, trigger.filter);
    if (!f.pass) return { kind: 'ignored', reason: `filter: ${f.reason}` };
  }
  if (trigger.mapping.task.kind === 'comparison') {
    const request = mapComparison(trigger, trigger.mapping.task, doc);
    const r = await createComparison(env, trigger.tenant, request, idempotencyKeyOf(trigger.id, deliveryId));
    return { kind: 'comparison', body: r.body, replayed: r.replayed };
  }
  const { task, metadata } = mapRequest(trigger.mapping, doc);
  const result = await createEvaluationJob(
    env,
    trigger.tenant,
    {
      ...(trigger.preset !== null ? { preset: trigger.preset } : {}),
      ...(trigger.config !== null ? { config: trigger.config } : {}),
      task,
      metadata: { ...metadata, triggerId: trigger.id, triggerDeliveryId: deliveryId.slice(0, 1024) },
      ...(trigger.webhook ? { webhook: trigger.webhook } : {}),
      ...(trigger.cache !== null ? { cache: trigger.cache } : {}),
      // Resolved now, at this delivery: a tag that moved since is followed.
      ...(trigger.rubric !== null ? { rubric: trigger.rubric } : {}),
    },
    idempotencyKeyOf(trigger.id, deliveryId),
  );
  return { kind: 'accepted', result };
}
