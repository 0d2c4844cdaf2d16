/**
 * @module
 * Triggers of a tenant (D1 `triggers`): create (judge and mapping checked, the secret shown once), list,
 * read, delete, rotate the secret; and the lookup `POST /v1/hooks/{id}` uses (by id alone: the request
 * is authenticated by its signature, and the trigger names its tenant).
 */
import { ApiError, invalidRequest, toIssues } from '../http/errors.js';
import { EngineInputError } from '../engine/errors.js';
import type { Aspect, Task } from '../engine/task.js';
import { AspectSchema } from '../engine/task.js';
import { checkLlmConfig, planTask, resolveJudge } from '../methods/resolve-judge.js';
import { checkBudgetFloor } from '../budgets/floor.js';
import type { Bindings } from '../config/bindings.js';
import { llmEnvOf } from '../llm/settings.js';
import { isoOrNull, newWebhookObjectId, requireSigningSecret, requireWebhookUrl } from '../webhooks/url-checks.js';
import { newWebhookSecret, ROTATION_GRACE_MS, validSecrets } from '../webhooks/signature.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import type { CreateTriggerRequest, Mapping, Trigger } from './schemas.js';
import { MAX_TRIGGERS_PER_TENANT } from './schemas.js';
import { controlDb } from '../config/d1-shards.js';

interface TriggerRow {
  id: string;
  tenant: string;
  description: string | null;
  preset: string | null;
  config: string | null;
  mapping: string;
  filter: string | null;
  webhook_url: string | null;
  cache: string | null;
  rubric: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS =
  'id, tenant, description, preset, config, mapping, filter, webhook_url, cache, rubric, created_at, updated_at';

/** A trigger as stored, parsed (what the hook needs, secrets excluded). */
export interface StoredTrigger extends Trigger {
  tenant: string;
}

function toTrigger(r: TriggerRow): StoredTrigger {
  return {
    id: r.id,
    tenant: r.tenant,
    url: `/v1/hooks/${r.id}`,
    description: r.description,
    preset: r.preset,
    config: r.config === null ? null : (JSON.parse(r.config) as Record<string, unknown>),
    mapping: JSON.parse(r.mapping) as Mapping,
    filter: r.filter === null ? null : (JSON.parse(r.filter) as Trigger['filter']),
    webhook: r.webhook_url === null ? null : { url: r.webhook_url },
    cache: r.cache === 'use' || r.cache === 'refresh' || r.cache === 'off' ? r.cache : null,
    rubric: r.rubric === null ? null : (JSON.parse(r.rubric) as Trigger['rubric']),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The trigger without its tenant (the API's view). */
function view(t: StoredTrigger): Trigger {
  const { tenant: _tenant, ...rest } = t;
  return rest;
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `no trigger "${id}"`);
}

/**
 * A stand-in task of the mapping's kind, to check the judge accepts that kind before anything is
 * stored; a constant `aspect` is checked here too (400 naming it).
 */
function sampleTask(mapping: Mapping): Task {
  if (mapping.task.kind === 'pairwise' || mapping.task.kind === 'comparison')
    return { kind: 'pairwise', question: 'q', answerA: 'a', answerB: 'b' };
  let aspect: Aspect = { name: 'coherence', scale: { min: 1, max: 5 } };
  const rule = mapping.task.aspect;
  if (typeof rule === 'object' && 'value' in rule) {
    const parsed = AspectSchema.safeParse(rule.value);
    if (!parsed.success) throw invalidRequest(toIssues(parsed.error, 'mapping.task.aspect.value'), 'request body');
    aspect = parsed.data;
  }
  return { kind: 'pointwise', source: 's', output: 'o', aspect };
}

/**
 * Creates a trigger: the judge resolves and accepts the mapping's task kind, a callback URL passes the
 * URL guard (and the tenant can sign it). The answer is the only place the secret is shown.
 * @throws ApiError 400 (judge, `url_not_allowed`, `signing_secret_missing`), 409 `limit_exceeded`, 503.
 */
export async function createTrigger(
  env: Bindings,
  tenant: string,
  body: CreateTriggerRequest,
): Promise<Trigger & { secret: string }> {
  const judge = resolveJudge(body.preset, body.config);
  checkLlmConfig(llmEnvOf(env), judge);
  // Resolved now to refuse an unknown or archived rubric; stored as given and resolved again at each delivery.
  const rubric = body.rubric === undefined ? undefined : (await resolveRubricRef(env, tenant, body.rubric)).content;
  if (rubric && rubric.kind !== body.mapping.task.kind)
    throw new ApiError(
      400,
      'rubric_task_mismatch',
      `rubric.kind: a ${rubric.kind} rubric cannot judge the ${body.mapping.task.kind} tasks this mapping makes`,
    );
  const sample = sampleTask(body.mapping);
  let planned = false;
  try {
    planTask(judge, sample, 'mapping.task', rubric);
    planned = true;
  } catch (e) {
    // Only the kind is known now; other task checks run on each request's real task.
    if (e instanceof ApiError && e.code === 'task_kind_unsupported') throw e;
    if (!(e instanceof ApiError || e instanceof EngineInputError)) throw e;
  }
  // A budget that not even the sample task (the shortest texts) gets a verdict from would refuse every
  // event: refused now. Each hook checks its own task again (src/evaluations/service.ts).
  if (planned) await checkBudgetFloor(llmEnvOf(env), judge, sample, 'config.budget', rubric);
  const webhookUrl = body.webhook ? requireWebhookUrl(env, body.webhook.url, 'webhook.url') : null;
  if (webhookUrl !== null) await requireSigningSecret(env, tenant, 'webhook.url');
  const id = newWebhookObjectId('trg');
  const secret = newWebhookSecret();
  const now = Date.now();
  const r = await controlDb(env)
    .prepare(
      `INSERT INTO triggers (id, tenant, description, preset, config, mapping, filter, webhook_url, cache, secret, created_at, updated_at, rubric)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM triggers WHERE tenant = ?) < ?`,
    )
    .bind(
      id,
      tenant,
      body.description ?? null,
      body.preset ?? null,
      body.config ? JSON.stringify(body.config) : null,
      JSON.stringify(body.mapping),
      body.filter ? JSON.stringify(body.filter) : null,
      webhookUrl,
      body.cache ?? null,
      secret,
      now,
      now,
      body.rubric === undefined ? null : JSON.stringify(body.rubric),
      tenant,
      MAX_TRIGGERS_PER_TENANT,
    )
    .run();
  if (r.meta.changes === 0)
    throw new ApiError(
      409,
      'limit_exceeded',
      `a tenant has at most ${MAX_TRIGGERS_PER_TENANT} triggers; delete one first`,
    );
  return { ...(await getTrigger(env, tenant, id)), secret };
}

/** Every trigger of the tenant, oldest first. */
export async function listTriggers(env: Bindings, tenant: string): Promise<Trigger[]> {
  const { results } = await controlDb(env)
    .prepare(`SELECT ${COLUMNS} FROM triggers WHERE tenant = ? ORDER BY created_at, id`)
    .bind(tenant)
    .all<TriggerRow>();
  return results.map((r) => view(toTrigger(r)));
}

/** The tenant's trigger or 404. */
export async function getTrigger(env: Bindings, tenant: string, id: string): Promise<Trigger> {
  const row = await controlDb(env)
    .prepare(`SELECT ${COLUMNS} FROM triggers WHERE id = ? AND tenant = ?`)
    .bind(id, tenant)
    .first<TriggerRow>();
  if (!row) throw notFound(id);
  return view(toTrigger(row));
}

/** Deletes the tenant's trigger (its evaluations stay); later requests to its URL are 404. @throws ApiError 404. */
export async function deleteTrigger(env: Bindings, tenant: string, id: string): Promise<void> {
  const r = await controlDb(env).prepare('DELETE FROM triggers WHERE id = ? AND tenant = ?').bind(id, tenant).run();
  if (r.meta.changes === 0) throw notFound(id);
}

/** A new secret, shown once; the previous one still verifies for {@link ROTATION_GRACE_MS}. @throws ApiError 404. */
export async function rotateTriggerSecret(
  env: Bindings,
  tenant: string,
  id: string,
): Promise<{ id: string; secret: string; previousSecretExpiresAt: string | null }> {
  const now = Date.now();
  const secret = newWebhookSecret();
  const r = await controlDb(env)
    .prepare(
      'UPDATE triggers SET previous_secret = secret, previous_expires_at = ?, secret = ?, updated_at = ? WHERE id = ? AND tenant = ?',
    )
    .bind(now + ROTATION_GRACE_MS, secret, now, id, tenant)
    .run();
  if (r.meta.changes === 0) throw notFound(id);
  return { id, secret, previousSecretExpiresAt: isoOrNull(now + ROTATION_GRACE_MS) };
}

/** The trigger `id` (any tenant) with the secrets that verify now, or null. */
export async function triggerForHook(
  env: Bindings,
  id: string,
  now: number,
): Promise<{ trigger: StoredTrigger; secrets: string[] } | null> {
  const row = await controlDb(env)
    .prepare(`SELECT ${COLUMNS}, secret, previous_secret, previous_expires_at FROM triggers WHERE id = ?`)
    .bind(id)
    .first<TriggerRow & { secret: string; previous_secret: string | null; previous_expires_at: number | null }>();
  if (!row) return null;
  return {
    trigger: toTrigger(row),
    secrets: validSecrets(row.secret, row.previous_secret, row.previous_expires_at, now),
  };
}
