/**
 * @module
 * Monitors: create (the judge checked against the task its scope builds), read with counts, list, update, pause,
 * delete; the tenant's active monitors as the trace objects read them (cached briefly per isolate); and one
 * match judged as an ordinary evaluation, exactly once (an idempotency key from the monitor, trace and span) and
 * within the monitor's daily budget.
 */
import type { Bindings } from '../config/bindings.js';
import { newRecordId, tenantDb } from '../config/d1-shards.js';
import type { Task } from '../engine/task.js';
import { ApiError } from '../http/errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { z } from '@hono/zod-openapi';
import type { EvaluationSource } from '../evaluations/source.js';
import type { CreateEvaluationRequest } from '../evaluations/schemas.js';
import { createEvaluationJob } from '../evaluations/service.js';
import { findByIdempotencyKey } from '../evaluations/rows.js';
import { llmEnvOf } from '../llm/settings.js';
import { checkLlmConfig, planTask, resolveJudge } from '../methods/resolve-judge.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import { requireSigningSecret, requireWebhookUrl } from '../webhooks/url-checks.js';
import { itemBudget } from '../budgets/batch-shares.js';
import { sampleTask } from './match.js';
import type { MonitorRecord } from './rows.js';
import {
  dayOf,
  deleteMonitor,
  getMonitor,
  insertMonitor,
  listMonitors,
  monitorsPage,
  monitorCounts,
  spendSince,
  updateMonitor,
} from './rows.js';
import type {
  CreateMonitorRequest,
  Monitor,
  MonitorDefinition,
  MonitorListQueryInput,
  UpdateMonitorRequest,
} from './schemas.js';
import { MAX_MONITORS } from './schemas.js';

/** How long an isolate keeps a tenant's active monitors before reading them again: 5,000 ms. */
export const MONITOR_CACHE_MS = 5_000;

const cache = new Map<string, { at: number; monitors: MonitorRecord[] }>();

/** The tenant's active (not paused) monitors, read at most every {@link MONITOR_CACHE_MS} per isolate. */
export async function activeMonitors(env: Bindings, tenant: string, now = Date.now()): Promise<MonitorRecord[]> {
  const hit = cache.get(tenant);
  if (hit && now - hit.at < MONITOR_CACHE_MS) return hit.monitors;
  const monitors = await listMonitors(tenantDb(env, tenant), tenant, true);
  cache.set(tenant, { at: now, monitors });
  return monitors;
}

/** A 400 of the judge's checks renamed to the monitor's field `field` (the evaluation's checks name their own). */
function named(err: unknown, field: (path: string) => string): unknown {
  if (!(err instanceof ApiError) || err.status !== 400) return err;
  const issues = (err.issues ?? [{ path: '', message: err.message }]).map((i) => ({ ...i, path: field(i.path) }));
  return new ApiError(400, err.code, `${issues[0]?.path ?? 'judge'}: ${issues[0]?.message ?? err.message}`, issues);
}

/** An aspect for checking only the task's kind. */
const PLACEHOLDER_ASPECT = {
  name: 'quality',
  description: 'How good the output is overall.',
  scale: { min: 1, max: 5 },
};

/**
 * Checks that the monitor's judge can judge the task its scope builds, as creating the evaluation would: the judge
 * resolves (`judge.preset`, `judge.config…`), takes the scope's task kind (`judge.preset`, or `judge.config.method`
 * for a full config without a preset), and has what it scores (`judge.aspect`, `judge.rubric`).
 * @throws ApiError 400 naming that field, or `webhook.url`; 404 for a rubric the tenant does not have.
 */
async function checkDefinition(env: Bindings, tenant: string, d: MonitorDefinition): Promise<void> {
  let judge: ReturnType<typeof resolveJudge>;
  try {
    judge = resolveJudge(d.judge.preset, d.judge.config);
    checkLlmConfig(llmEnvOf(env), judge);
  } catch (err) {
    throw named(err, (p) => (p === '' ? 'judge.preset' : `judge.${p}`));
  }
  const rubric =
    d.judge.rubric === undefined ? null : await resolveRubricRef(env, tenant, d.judge.rubric, 'judge.rubric');
  // A monitor's task is built from spans: its kind is no field of the caller's; the field that chose the judge's
  // method is (a full config sent without a preset chose it by `method`), and the rubric any other refusal here.
  const methodField =
    d.judge.preset === undefined && d.judge.config?.method !== undefined ? 'judge.config.method' : 'judge.preset';
  const judgeField = rubric ? 'judge.rubric' : methodField;
  // This step checks the task's kind, the next the aspect: so not the given aspect here, and with a rubric none
  // (the rubric says what is scored and refuses a task's aspect with a description), else the placeholder.
  const { aspect, ...rest } = d.judge;
  try {
    planTask(
      judge,
      sampleTask({ ...d, judge: rubric ? rest : { ...rest, aspect: PLACEHOLDER_ASPECT } }),
      'task',
      rubric?.content,
      { field: methodField },
    );
  } catch (err) {
    throw named(err, (p) => (p === methodField ? p : judgeField));
  }
  try {
    planTask(judge, sampleTask(d), 'task', rubric?.content);
  } catch (err) {
    // The aspect's description is what is wrong (missing for an aspect the judge does not know, or given beside a
    // rubric, whose criteria replace it): name that field, not the aspect as a whole.
    const description = aspect !== undefined && err instanceof Error && err.message.includes('aspect.description');
    throw named(err, () => (description ? 'judge.aspect.description' : 'judge.aspect'));
  }
  if (d.webhook) {
    requireWebhookUrl(env, d.webhook.url, 'webhook.url');
    await requireSigningSecret(env, tenant, 'webhook.url');
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

async function view(env: Bindings, m: MonitorRecord): Promise<Monitor> {
  return {
    id: m.id,
    ...m.definition,
    paused: m.paused,
    counts: await monitorCounts(tenantDb(env, m.tenant), m.tenant, m.id),
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

/** @throws ApiError 404 for a monitor the tenant does not have. */
async function requireMonitor(env: Bindings, tenant: string, id: string): Promise<MonitorRecord> {
  const m = await getMonitor(tenantDb(env, tenant), tenant, id);
  if (!m) throw new ApiError(404, 'not_found', `no monitor "${id}"`);
  return m;
}

/** Creates a monitor. @throws ApiError 400 (the judge, the webhook), 409 `limit_exceeded` past {@link MAX_MONITORS}. */
export async function createMonitor(env: Bindings, tenant: string, body: CreateMonitorRequest): Promise<Monitor> {
  const definition: MonitorDefinition = {
    name: body.name,
    filter: body.filter,
    scope: body.scope,
    sampleRate: body.sampleRate,
    judge: body.judge,
    tier: body.tier ?? null,
    dailyBudgetUsd: body.dailyBudgetUsd ?? null,
    webhook: body.webhook ?? null,
  };
  await checkDefinition(env, tenant, definition);
  const now = Date.now();
  const m: MonitorRecord = {
    id: newRecordId('mon', tenant),
    tenant,
    definition,
    paused: body.paused ?? false,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertMonitor(tenantDb(env, tenant), m, MAX_MONITORS)))
    throw new ApiError(409, 'limit_exceeded', `a tenant has at most ${MAX_MONITORS} monitors; delete one first`);
  cache.delete(tenant);
  return view(env, m);
}

/** The monitor with its counts. @throws ApiError 404. */
export async function readMonitor(env: Bindings, tenant: string, id: string): Promise<Monitor> {
  return view(env, await requireMonitor(env, tenant, id));
}

/**
 * A page of the tenant's monitors, newest first, with counts (`limit`, default 20; `cursor`, the previous page's `nextCursor`).
 * @throws ApiError 400 naming `cursor` for a cursor this API did not make.
 */
export async function listMonitorsView(
  env: Bindings,
  tenant: string,
  q: MonitorListQueryInput,
): Promise<{ data: Monitor[]; nextCursor: string | null }> {
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor, MonitorCursorSchema);
  const rows = await monitorsPage(tenantDb(env, tenant), tenant, q.limit, after);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: await Promise.all(page.map((m) => view(env, m))),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.createdAt, i: last.id }) : null,
  };
}

/** A monitors page's position: the last row's `createdAt` and id. */
const MonitorCursorSchema = z.object({ t: z.number().int(), i: z.string() }).strict();

/** Changes the given fields (`null` clears an optional one), checked as at creation. @throws ApiError 400, 404. */
export async function patchMonitor(
  env: Bindings,
  tenant: string,
  id: string,
  patch: UpdateMonitorRequest,
): Promise<Monitor> {
  const m = await requireMonitor(env, tenant, id);
  const d = m.definition;
  const definition: MonitorDefinition = {
    name: patch.name ?? d.name,
    filter: patch.filter ?? d.filter,
    scope: patch.scope ?? d.scope,
    sampleRate: patch.sampleRate ?? d.sampleRate,
    judge: patch.judge ?? d.judge,
    tier: patch.tier === undefined ? d.tier : patch.tier,
    dailyBudgetUsd: patch.dailyBudgetUsd === undefined ? d.dailyBudgetUsd : patch.dailyBudgetUsd,
    webhook: patch.webhook === undefined ? d.webhook : patch.webhook,
  };
  if (patch.judge !== undefined || patch.scope !== undefined || patch.webhook)
    await checkDefinition(env, tenant, definition);
  const updated: MonitorRecord = { ...m, definition, paused: patch.paused ?? m.paused, updatedAt: Date.now() };
  if (!(await updateMonitor(tenantDb(env, tenant), updated)))
    throw new ApiError(404, 'not_found', `no monitor "${id}"`);
  cache.delete(tenant);
  return view(env, updated);
}

/** Deletes a monitor (its evaluations stay). @throws ApiError 404. */
export async function removeMonitor(env: Bindings, tenant: string, id: string): Promise<void> {
  if (!(await deleteMonitor(tenantDb(env, tenant), tenant, id)))
    throw new ApiError(404, 'not_found', `no monitor "${id}"`);
  cache.delete(tenant);
}

/** What judging one match came to. */
export type JudgeOutcome =
  | { kind: 'created'; evaluationId: string }
  | { kind: 'skipped_budget' }
  | { kind: 'refused'; code: string; message: string };

/** The start of `now`'s UTC day, epoch ms. */
function dayStart(now: number): number {
  return Date.parse(`${dayOf(now)}T00:00:00Z`);
}

/**
 * The budget of the monitor's next evaluation: what is left of the day's after its ended evaluations' booked cost
 * and, for each one still running, the average cost of the ended ones (so parallel evaluations do not each get the
 * whole rest); null when nothing is left. Without a daily budget: undefined (none).
 */
async function grantOf(
  env: Bindings,
  m: MonitorRecord,
  now: number,
): Promise<{ maxCostUsd: number } | null | undefined> {
  const daily = m.definition.dailyBudgetUsd;
  if (daily === null) return undefined;
  const s = await spendSince(tenantDb(env, m.tenant), m.tenant, m.id, dayStart(now));
  const average = s.ended > 0 ? s.spentUsd / s.ended : 0;
  const grant = itemBudget(
    { maxCostUsd: daily },
    { calls: 0, tokens: 0, costUsd: s.spentUsd },
    {
      calls: 0,
      tokens: 0,
      costUsd: s.running * average,
    },
  );
  return grant?.maxCostUsd === undefined ? null : { maxCostUsd: grant.maxCostUsd };
}

/** A budget refusal of the evaluation's checks (the grant cannot produce a verdict). */
function isBudgetRefusal(err: ApiError): boolean {
  return err.status === 400 && (err.issues ?? []).some((i) => i.path.startsWith('budget'));
}

/**
 * Judges one match as an evaluation made with the idempotency key `monitor:<id>:<traceId>:<spanId | trace>`, so a repeat
 * (a redelivered message, a repeated alarm) finds the evaluation made before instead of making another. Refusals
 * of the request (4xx) are outcomes, not errors: the match is not retried.
 * @throws whatever else failed (D1, the object): the caller keeps the match pending and tries again.
 */
export async function judgeMatch(
  env: Bindings,
  m: MonitorRecord,
  task: Task,
  source: EvaluationSource & { spanId: string },
  now = Date.now(),
): Promise<JudgeOutcome> {
  const budget = await grantOf(env, m, now);
  if (budget === null) return { kind: 'skipped_budget' };
  const { judge, tier, webhook } = m.definition;
  const request: CreateEvaluationRequest = {
    ...(judge.preset !== undefined ? { preset: judge.preset } : {}),
    ...(judge.config !== undefined ? { config: judge.config } : {}),
    ...(judge.rubric !== undefined ? { rubric: judge.rubric } : {}),
    ...(tier !== null ? { tier } : {}),
    ...(webhook !== null ? { webhook } : {}),
    ...(budget !== undefined ? { budget } : {}),
    task,
    metadata: { monitor: m.id },
  };
  // One evaluation per monitor and span, or per monitor and trace (whatever its root span turns out to be).
  const key = `monitor:${m.id}:${source.traceId}:${m.definition.scope === 'trace' ? 'trace' : source.spanId}`;
  try {
    const r = await createEvaluationJob(env, m.tenant, request, key, { keyId: null }, 0, { source });
    return { kind: 'created', evaluationId: r.body.id };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    // Made before with another grant (the day's spend moved since): the match has its evaluation.
    if (err.code === 'idempotency_conflict') {
      const made = await findByIdempotencyKey(tenantDb(env, m.tenant), m.tenant, key);
      if (made) return { kind: 'created', evaluationId: made.id };
    }
    if (isBudgetRefusal(err)) return { kind: 'skipped_budget' };
    return { kind: 'refused', code: err.code, message: err.message };
  }
}
