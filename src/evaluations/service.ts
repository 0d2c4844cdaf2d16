/**
 * @module
 * Creating an evaluation behind the thin route handlers: validate, persist, then start its Durable Object
 * (the fast start) or enqueue it; the ids of new records. Reading and cancelling one (and its links) is ./views.ts.
 */
import type { Bindings } from '../config/bindings.js';
import { evaluationStub } from './stub.js';
import type { HeldAdmitted, StatusResult } from './rpc.js';
import type { EvaluationRecord, EvaluationWithResultsText } from './rows.js';
import type { StartJob } from './job-rows.js';
import { findByIdempotencyKey, getEvaluation } from './rows.js';
import { insertEvaluation } from './insert-rows.js';
import type { InsertDecisions, NewEvaluation } from './insert-rows.js';
import type { HeldAdmission } from './held-types.js';
import { countedStatements, heldAdmissionOf } from './held-start.js';
import { requestHash } from '../http/request-hash.js';
import { ApiError } from '../http/errors.js';
import type { CreateEvaluationRequest, EvaluationAccepted } from './schemas.js';
import { log, messageOf } from '../log/log.js';
import { llmEnvOf } from '../llm/settings.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { checkLlmConfig, planTask, repeatJudge, resolveJudge } from '../methods/resolve-judge.js';
import type { CertifyJudge } from './certified.js';
import { withCertify } from './certified.js';
import { slotOnInsertSql } from './admission.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import { deploymentDefaults } from '../tenants/limits.js';
import { assertQuota } from '../tenants/quota.js';
import { effectiveLimitsOf } from '../tenants/rows.js';
import { budgetPath, checkBudgetFloor } from '../budgets/floor.js';
import { checkBudgetPrices, withBudget } from '../budgets/request-budget.js';
import { requireSigningSecret, requireWebhookUrl } from '../webhooks/url-checks.js';
import { configOf } from '../config/vars.js';
import { requestCachePlans } from '../verdict-cache/plan.js';
import { hitOnInsertSql, mayBecomeEntry, servesSince } from '../verdict-cache/rows.js';
import { resolveTier, tierPriceWarnings } from '../tiers/resolve.js';
import { withWarnings } from '../http/warnings.js';
import type { ResolvedRubric } from '../rubrics/resolve.js';
import type { RubricFieldValue } from '../rubrics/schemas.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import { withRubricSteps } from './rubric-steps.js';
import { contentStatement } from '../rubrics/rows.js';
import {
  controlDb,
  keyHolder,
  newRecordId,
  newRecordIdBeside,
  recordDbOf,
  tenantDb,
  tenantDbs,
} from '../config/d1-shards.js';
import type { EvaluationSource } from './source.js';
import { sourceOfRequest } from './source.js';
import { configJsonOf } from './config-rows.js';
import { linksOf } from './views.js';

/**
 * New id of a record of `tenant`: the prefix (`ev` evaluation, `me` meta-evaluation, `ba` batch, `cp`
 * comparison), `_`, 32 hex chars that carry the tenant's D1 bucket (`newRecordId`, src/config/d1-shards.ts).
 */
export function newId(prefix: 'ev' | 'me' | 'ba' | 'cp', tenant: string): string {
  return newRecordId(prefix, tenant);
}

/** Who creates an evaluation, besides its tenant: the key (recorded for usage by key) and the tenant's limits. */
export interface CreatorInfo {
  /** The managed key (`c.var.auth.keyId`); null for API_KEYS tokens and open mode. */
  keyId: string | null;
  /** The tenant's limits as auth loaded them (`c.var.auth.limits`); read from D1 when not given. */
  limits?: EffectiveLimits | null;
  /**
   * The row that already counts this evaluation against the monthly evaluation cap (an Evals run item's ledger
   * row, for a Tribunal judge grading the item): the cap is neither checked nor counted again for it.
   */
  countedBy?: string;
}

/** The tenant's limits: given by the caller, else read (its `tenants` row over the deployment's defaults). */
export async function limitsFor(
  env: Bindings,
  tenant: string,
  given: EffectiveLimits | null | undefined,
): Promise<EffectiveLimits> {
  return given ?? effectiveLimitsOf(controlDb(env), tenant, env);
}

/** Outcome of {@link createEvaluationJob}: the answer and whether it replays an earlier request. */
export interface CreateResult {
  body: EvaluationAccepted;
  replayed: boolean;
  /**
   * With `waitMs`, when the fast start took the job: the status after waiting (terminal once it ended with
   * its final write done), so the caller need not wait again.
   */
  waited?: StatusResult['status'];
  /** With {@link waited} terminal: the evaluation as its final write read it back (no second read needed). */
  ended?: EvaluationWithResultsText;
}

/**
 * Validates the judge and the task, inserts the `queued` row, then enqueues `{ id }`.
 *
 * Idempotency: with a key, the request hash (sha-256 of the canonical body) is stored with the row;
 * a retry with the same key and body returns the same evaluation (`replayed`), a different body
 * → 409 `idempotency_conflict`. A queue send that fails after the insert is logged and not surfaced:
 * the row is durable and the sweeper re-kicks queued evaluations, so the answer is still 202.
 *
 * Fast start: unless `FAST_START` is false, the evaluation's Durable Object holds the job first, then runs the
 * insert itself (D1 keeps no copy of the task: ./held-start.ts) and starts it before the API answers when the
 * insert gave it one of its tenant's running slots (src/evaluations/admission.ts); no queue message is sent
 * then: from then on the object's alarm drives it, durably. At the cap `{ id }` goes to the queue, where it waits
 * for a slot (the object keeps holding the job). Why: the queue hop (tens of ms) sat on every evaluation's
 * critical path, and the message, its consumer and the second `start` cost the runtime CPU on every evaluation
 * (see BENCHMARKS.md, "Side by side with the peers"). When the RPC fails, a row D1 has goes to the queue, and
 * without one the API inserts it itself, with D1's waiting copy of the task; the object's watchdog erases a job
 * D1 never got. A crash after the insert leaves a `queued` row, which the sweeper re-kicks.
 *
 * Quota: past the tenant's monthly caps the request is 429 `quota_exceeded` (src/tenants/quota.ts),
 * unless it replays an evaluation created earlier with the same `Idempotency-Key`.
 */
export async function createEvaluationJob(
  env: Bindings,
  tenant: string,
  request: CreateEvaluationRequest,
  idempotencyKey: string | null,
  creator: CreatorInfo = { keyId: null },
  waitMs = 0,
  own: { id?: string; certify?: CertifyJudge; source?: EvaluationSource; spread?: boolean } = {},
): Promise<CreateResult> {
  const asked = repeatJudge(
    resolveJudge(request.preset, withBudget(request.config, request.budget)),
    request.repeat,
    request.cache,
  );
  // Spread: Env has no index signature; the LLM layer reads it as a string map.
  checkLlmConfig(llmEnvOf(env), asked);
  checkBudgetPrices(llmEnvOf(env), asked);
  const resolved = request.rubric === undefined ? null : await resolveRubricRef(env, tenant, request.rubric);
  // Certified mode: the task is checked before the calibration may start judging labelled items.
  if (request.certify !== undefined) planTask(asked, request.task, 'task', resolved?.content);
  const { judge, guarantee } = await withCertify(env, tenant, asked, request, creator, own.certify);
  const callsPlanned = planTask(judge, request.task, 'task', resolved?.content);
  // A budget no run can get a verdict from fails here, not after spending (chat completions and trigger
  // hooks create their evaluations through this function too).
  await checkBudgetFloor(llmEnvOf(env), judge, request.task, budgetPath(request), resolved?.content);
  // A one-off callback: its URL passes the outbound guard, and the tenant can sign it.
  const webhookUrl = request.webhook ? requireWebhookUrl(env, request.webhook.url, 'webhook.url') : null;
  if (webhookUrl !== null) await requireSigningSecret(env, tenant, 'webhook.url');
  const hash = idempotencyKey === null ? null : await requestHash(request);
  const limits = await limitsFor(env, tenant, creator.limits);
  // Over the tenant's spread when the caller asks for it (its own reads find the row by id wherever it is).
  const spread = own.spread === true;
  // A retry made after the spread changed goes beside its first try, where the key's conflict finds it.
  const holder = spread
    ? await keyHolder(env, tenant, { ...limits, key: idempotencyKey }, (d) =>
        findByIdempotencyKey(d, tenant, idempotencyKey ?? ''),
      )
    : null;
  const id =
    own.id ??
    (holder !== null
      ? newRecordIdBeside('ev', tenant, holder)
      : newRecordId('ev', tenant, spread ? { spread: limits.spread, key: idempotencyKey } : {}));
  const db = recordDbOf(env, tenant, id);
  const { tier, flexFallback } = resolveTier(env, judge, request, limits.defaultTier);
  const warned = withWarnings(tierPriceWarnings(env, judge, tier));
  try {
    if (creator.countedBy === undefined)
      await assertQuota(tenantDbs(env, tenant, limits.readSpread), tenant, limits, 1, Date.now());
  } catch (e) {
    // A retry of a request accepted before the cap was reached still gets its evaluation back.
    if (idempotencyKey === null || !(await findByIdempotencyKey(db, tenant, idempotencyKey))) throw e;
  }
  const rubric = await judgedRubric(env, tenant, judge, resolved, { ...creator, limits });
  // After the steps: the row's times are those of its insert.
  const now = Date.now();
  // An inline rubric's content is stored by hash (a stored version's was stored with the version, in the
  // tenant's home shard: an evaluation in another shard of its spread gets a copy beside it, for its start).
  if (rubric && (!rubric.stored || db !== tenantDb(env, tenant)))
    await contentStatement(db, tenant, rubric.record.hash, rubric.content, now).run();
  const [cache] = await requestCachePlans(
    env,
    { ...judge, rubricHash: rubric?.record.hash ?? null },
    { mode: request.cache, seed: request.seed, repeat: request.repeat !== undefined },
    [request.task],
  );
  const config = configOf(env);
  const fast = config.FAST_START;
  // The verdict cache's lookup and the fast start's running slot are decided by the insert itself (the row is
  // written once with its hit, its slot and, for a started miss, `running`).
  const decisions: InsertDecisions = {
    slot: fast ? slotOnInsertSql(deploymentDefaults(env).maxRunning) : null,
    hit:
      cache?.mode === 'use' && cache.key !== null
        ? { ...hitOnInsertSql(), since: servesSince(now, config.VERDICT_CACHE_TTL_DAYS) }
        : null,
  };
  const row: NewEvaluation = {
    id,
    tenant,
    method: judge.method.method,
    preset: request.preset ?? null,
    config: judge.config,
    task: request.task,
    metadata: request.metadata ?? null,
    idempotencyKey,
    requestHash: hash,
    metaId: null,
    callsPlanned,
    webhookUrl,
    now,
    keyId: creator.keyId,
    cacheMode: cache?.mode ?? null,
    cacheKey: cache?.key ?? null,
    tier,
    flexFallback,
    rubric: rubric?.record ?? null,
    certify: guarantee,
    source: own.source ?? sourceOfRequest(request.source),
  };
  const accepted = { body: { id, status: 'queued' as const, links: linksOf(id), ...warned }, replayed: false };
  // Written once: the object (or D1's waiting copy) stores this text.
  const taskJson = JSON.stringify(request.task);
  if (fast) {
    const job: StartJob = {
      id,
      tenant,
      method: judge.method.method,
      config: configJsonOf(judge.config),
      task: taskJson,
      batchId: null,
      cacheEntry: mayBecomeEntry(cache),
      tier,
      flexFallback,
      rubric: rubric ? JSON.stringify(rubric.content) : null,
    };
    const held = await fastStart(env, id, heldAdmissionOf(job, row, decisions, creator.countedBy), waitMs);
    if (held !== null && !held.inserted) return replayOf(env, held.existing, hash, idempotencyKey, warned);
    const started = held?.started;
    // The object holds the job and its alarm: the queue message would only find it running.
    if (started && started.status !== 'not_found') {
      const waited = waitMs > 0 ? { waited: started.status, ...(started.ended ? { ended: started.ended } : {}) } : {};
      return { ...accepted, ...waited };
    }
    // At the cap (held until a slot frees), or the RPC failed after the object's insert: the queue starts it.
    if (held !== null || (await getEvaluation(db, tenant, id)) !== null) {
      await enqueue(env, id);
      return accepted;
    }
  }
  // Without the object first (`FAST_START` off, or its RPC failed before the insert): D1 keeps a waiting copy.
  const counted = countedStatements(db, id, creator.countedBy);
  const result = await insertEvaluation(db, row, taskJson, counted, { slot: null, hit: decisions.hit });
  // The object's own insert landed after the RPC failed: this request's evaluation, its task held there.
  const mine = !result.inserted && fast && (result.existing === null || result.existing.id === id);
  if (!result.inserted && !mine) return replayOf(env, result.existing, hash, idempotencyKey, warned);
  await enqueue(env, id);
  return accepted;
}

/**
 * The answer to a request whose insert found the row holding its idempotency key: that evaluation, replayed.
 * @throws ApiError 409 `idempotency_conflict` when that row was created by a different request body.
 */
async function replayOf(
  env: Bindings,
  existing: EvaluationRecord | null,
  hash: string | null,
  idempotencyKey: string | null,
  warned: ReturnType<typeof withWarnings>,
): Promise<CreateResult> {
  // Unreachable: an insert that changed no row reads the row that holds the key (or this id) back.
  if (existing === null) throw new Error('insert changed no row and found none');
  if (existing.requestHash !== hash) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      `Idempotency-Key "${idempotencyKey}" was already used with a different request body (evaluation ${existing.id})`,
    );
  }
  // A retry may follow a send that failed: re-sending a still-queued id is harmless (start is idempotent).
  if (existing.status === 'queued') await enqueue(env, existing.id);
  return {
    body: { id: existing.id, status: existing.status, links: linksOf(existing.id), ...warned },
    replayed: true,
  };
}

/**
 * The rubric `judge` judges by, with its version's auto-CoT steps where the judge wants them, written first
 * when none are (./rubric-steps.ts): their evaluation is created here, for the same tenant and key.
 * @throws ApiError 503 `rubric_steps_pending`, 502 `rubric_steps_failed`.
 */
export function judgedRubric(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  rubric: ResolvedRubric | null,
  creator: CreatorInfo,
): Promise<ResolvedRubric | null> {
  return withRubricSteps(
    env,
    tenant,
    judge,
    rubric,
    (id, request, waitMs) => createEvaluationJob(env, tenant, request, null, creator, waitMs, { id }),
    () => newId('ev', tenant),
  );
}

/**
 * A request's `rubric` (at `field`, for messages) resolved for `judge`: the stored version or inline content,
 * with its auto-CoT steps where the judge wants them ({@link judgedRubric}); null without one.
 * @throws ApiError 404 naming `field`, 409 `rubric_archived`, 503 `rubric_steps_pending`, 502 `rubric_steps_failed`.
 */
export async function requestRubric(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  ref: RubricFieldValue | undefined,
  creator: CreatorInfo,
  field = 'rubric',
): Promise<ResolvedRubric | null> {
  const resolved = ref === undefined ? null : await resolveRubricRef(env, tenant, ref, field);
  return judgedRubric(env, tenant, judge, resolved, creator);
}

/**
 * The fast start: the evaluation's Durable Object holds the job, inserts the row (no waiting copy of the task in
 * D1) and, when the insert gave it one of its tenant's running slots (or a verdict cache hit), runs the first step
 * at once (no queue hop, no alarm hop) and, with `waitMs` (`Prefer: wait`), answers when the evaluation ended or
 * the wait is over (one round trip: ./held-start.ts). Null after a failure (logged): the row may or may not be in
 * D1 (the caller reads it); the object's watchdog erases a job D1 never got, or starts one it did.
 */
async function fastStart(env: Bindings, id: string, held: HeldAdmission, waitMs: number): Promise<HeldAdmitted | null> {
  try {
    return await evaluationStub(env, id).admitHeld(id, held, waitMs);
  } catch (err) {
    log('warn', 'api.fast_start_failed', { evaluationId: id, error: messageOf(err) });
    return null;
  }
}

/** Sends `{ id }` to the jobs queue; a failure is logged, since the sweeper re-kicks queued rows. */
async function enqueue(env: Bindings, id: string): Promise<void> {
  try {
    await env.JOBS.send({ id });
  } catch (err) {
    log('warn', 'api.queue_send_failed', { evaluationId: id, error: messageOf(err) });
  }
}
