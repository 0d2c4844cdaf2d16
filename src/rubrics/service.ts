/**
 * @module
 * Rubric use cases behind the thin route handlers (./routes.ts): create a rubric (version 1), add an
 * immutable version, read and list rubrics and versions, move a tag (under its minimum agreement), archive.
 * Idempotency as everywhere: with a key, the canonical request's sha-256 is stored; the same key and body
 * answer the first result again, another body is 409 `idempotency_conflict`.
 */
import type { Bindings } from '../config/bindings.js';
import { rubricHash } from '../engine/rubric.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { ApiError, invalidRequest, toIssues } from '../http/errors.js';
import { requestHash } from '../http/request-hash.js';
import { AgreementReportSchema } from '../metrics/agreement.js';
import { z } from 'zod';
import type { VersionRecord } from './rows.js';
import type { ListPosition, RubricRecord } from './rubric-rows.js';
import type { TagRecord } from './tag-rows.js';
import { findVersionByKey, getVersion, insertVersion, listVersions } from './rows.js';
import { archiveRubric, findRubricByKey, getRubric, insertRubric, listRubrics } from './rubric-rows.js';
import { putTag, tagsOf } from './tag-rows.js';
import type {
  CreateRubricRequest,
  CreateRubricVersionRequest,
  PutTagRequest,
  Rubric,
  RubricCheck,
  RubricTag,
  RubricVersion,
} from './schemas.js';
import { contentOf, RubricBodySchema } from './schemas.js';
import type { StepsState } from './steps.js';
import { stepsStateOf, storeStepsOf } from './steps.js';
import { metricRefusal, policyRefusal } from './tag-policy.js';
import { tenantDb } from '../config/d1-shards.js';

/** A new rubric id: `rb_` and 32 hex characters. */
export function newRubricId(): string {
  return `rb_${crypto.randomUUID().replaceAll('-', '')}`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Relative links of a rubric. */
export function rubricLinks(id: string): Rubric['links'] {
  return { self: `/v1/rubrics/${id}`, versions: `/v1/rubrics/${id}/versions` };
}

function tagView(t: TagRecord): RubricTag {
  return { tag: t.tag, version: t.version, minAgreement: t.minAgreement, updatedAt: iso(t.updatedAt) };
}

/** A rubric as the API shows it. */
export function rubricView(r: RubricRecord, tags: readonly TagRecord[]): Rubric {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    latestVersion: r.latestVersion,
    tags: tags.map(tagView),
    archivedAt: r.archivedAt === null ? null : iso(r.archivedAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    links: rubricLinks(r.id),
  };
}

/** The steps part of a version's view: the auto-CoT steps written for it (given steps are the content's). */
function stepsView(v: VersionRecord, known?: StepsState): RubricVersion['steps'] {
  const state = known ?? stepsStateOf(v, Date.now());
  if (v.stepsEvaluationId === null || state === 'none') return null;
  const written = state === 'written' ? v.stepsContent : null;
  return {
    status: state === 'written' ? 'written' : state === 'failed' ? 'failed' : 'pending',
    evaluationId: v.stepsEvaluationId,
    evaluationSteps: written?.evaluationSteps ?? null,
    aspects: written?.aspects
      ? written.aspects.map((a) => ({ name: a.name, evaluationSteps: a.evaluationSteps ?? null }))
      : null,
    hash: written ? v.stepsHash : null,
  };
}

/** The check part of a version's view. */
export function checkView(v: VersionRecord): RubricCheck | null {
  if (v.checkId === null) return null;
  const report = v.checkReport === null ? null : AgreementReportSchema.parse(JSON.parse(v.checkReport));
  return {
    metaEvaluationId: v.checkId,
    status: report ? 'completed' : 'running',
    preset: v.checkJudge?.preset ?? null,
    config: v.checkJudge?.config ?? null,
    report,
    completedAt: v.checkedAt === null ? null : iso(v.checkedAt),
  };
}

/** A version as the API shows it. */
export function versionView(
  r: RubricRecord,
  v: VersionRecord,
  tags: readonly TagRecord[],
  steps?: StepsState,
): RubricVersion {
  const c = v.content;
  return {
    id: r.id,
    version: v.version,
    ref: `${r.id}@${v.version}`,
    name: r.name,
    kind: c.kind,
    criteria: c.criteria,
    ...(c.scale !== undefined ? { scale: c.scale } : {}),
    ...(c.aspects !== undefined ? { aspects: c.aspects } : {}),
    ...(c.evaluationSteps !== undefined ? { evaluationSteps: c.evaluationSteps } : {}),
    ...(c.autoSteps !== undefined ? { autoSteps: c.autoSteps } : {}),
    ...(c.thresholds !== undefined ? { thresholds: c.thresholds } : {}),
    examples: v.examples,
    hash: v.hash,
    tags: tags.filter((t) => t.version === v.version).map((t) => t.tag),
    steps: stepsView(v, steps),
    check: checkView(v),
    createdAt: iso(v.createdAt),
  };
}

/** The tenant's rubric or 404 `not_found`. */
export async function requireRubric(env: Bindings, tenant: string, id: string): Promise<RubricRecord> {
  const r = await getRubric(tenantDb(env, tenant), tenant, id);
  if (!r) throw new ApiError(404, 'not_found', `no rubric "${id}"`);
  return r;
}

/** A version of the tenant's rubric or 404 `not_found` naming the version. */
export async function requireVersion(
  env: Bindings,
  tenant: string,
  id: string,
  version: number,
): Promise<{ rubric: RubricRecord; version: VersionRecord }> {
  const rubric = await requireRubric(env, tenant, id);
  const v = await getVersion(tenantDb(env, tenant), tenant, id, version);
  if (!v) throw new ApiError(404, 'not_found', `rubric "${id}" has no version ${version}`);
  return { rubric, version: v };
}

/** What a create answers: the rubric with its new version, and whether it replays an earlier request. */
export interface Created {
  body: RubricVersion & { links: Rubric['links'] };
  replayed: boolean;
}

async function createdView(
  env: Bindings,
  tenant: string,
  id: string,
  version: number,
  replayed: boolean,
): Promise<Created> {
  const { rubric, version: v } = await requireVersion(env, tenant, id, version);
  const tags = (await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? [];
  return { body: { ...versionView(rubric, v, tags), links: rubricLinks(id) }, replayed };
}

function conflict(key: string, what: string): ApiError {
  return new ApiError(
    409,
    'idempotency_conflict',
    `Idempotency-Key "${key}" was already used with a different request body (${what})`,
  );
}

/**
 * Creates a rubric and its version 1.
 * @throws ApiError 409 `idempotency_conflict`.
 */
export async function createRubric(
  env: Bindings,
  tenant: string,
  body: CreateRubricRequest,
  idempotencyKey: string | null,
): Promise<Created> {
  const content = contentOf(body);
  const hash = await rubricHash(content);
  const id = newRubricId();
  const reqHash = idempotencyKey === null ? null : await requestHash(body);
  const created = await insertRubric(tenantDb(env, tenant), {
    id,
    tenant,
    name: body.name,
    kind: body.kind,
    hash,
    content,
    examples: body.examples,
    idempotencyKey,
    requestHash: reqHash,
    now: Date.now(),
  });
  if (created) return createdView(env, tenant, id, 1, false);
  const existing =
    idempotencyKey === null ? null : await findRubricByKey(tenantDb(env, tenant), tenant, idempotencyKey);
  if (!existing) throw new Error(`rubric insert changed no row and no rubric holds key "${idempotencyKey ?? ''}"`);
  if (existing.requestHash !== reqHash) throw conflict(idempotencyKey ?? '', `rubric ${existing.id}`);
  return createdView(env, tenant, existing.id, 1, true);
}

/**
 * Adds an immutable version (latest + 1). The body is a whole rubric; `kind`, when given, must be the rubric's.
 * @throws ApiError 400 naming the field, 404, 409 `rubric_archived` / `idempotency_conflict`.
 */
export async function addVersion(
  env: Bindings,
  tenant: string,
  id: string,
  body: CreateRubricVersionRequest,
  idempotencyKey: string | null,
): Promise<Created> {
  const rubric = await requireRubric(env, tenant, id);
  if (body.kind !== undefined && body.kind !== rubric.kind)
    throw invalidRequest(
      [{ path: 'kind', message: `rubric "${id}" is ${rubric.kind}; a version cannot change its kind` }],
      'request body',
    );
  const parsed = RubricBodySchema.safeParse({ ...body, kind: rubric.kind });
  if (!parsed.success) throw invalidRequest(toIssues(parsed.error), 'request body');
  const content = contentOf(parsed.data);
  const reqHash = idempotencyKey === null ? null : await requestHash(body);
  if (rubric.archivedAt !== null) throw archived(id);
  const version = await insertVersion(tenantDb(env, tenant), {
    rubricId: id,
    tenant,
    name: body.name ?? null,
    hash: await rubricHash(content),
    content,
    examples: parsed.data.examples,
    idempotencyKey,
    requestHash: reqHash,
    now: Date.now(),
  });
  if (version !== null) return createdView(env, tenant, id, version, false);
  const existing =
    idempotencyKey === null ? null : await findVersionByKey(tenantDb(env, tenant), tenant, id, idempotencyKey);
  if (!existing) throw archived(id);
  if (existing.requestHash !== reqHash) throw conflict(idempotencyKey ?? '', `version ${existing.version}`);
  return createdView(env, tenant, id, existing.version, true);
}

function archived(id: string): ApiError {
  return new ApiError(
    409,
    'rubric_archived',
    `rubric "${id}" is archived: its versions are read-only and it takes no new version or tag`,
  );
}

/** `GET /v1/rubrics/{id}`. */
export async function viewRubric(env: Bindings, tenant: string, id: string): Promise<Rubric> {
  const r = await requireRubric(env, tenant, id);
  return rubricView(r, (await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? []);
}

/**
 * `GET /v1/rubrics/{id}/versions/{n}`. Steps whose evaluation succeeded but which nobody stored yet are stored
 * now (./steps.ts), so the version shows them as written.
 */
export async function viewVersion(env: Bindings, tenant: string, id: string, version: number): Promise<RubricVersion> {
  const found = await requireVersion(env, tenant, id, version);
  let v = found.version;
  // A succeeded run without readable steps shows as failed: the next use claims again.
  let state: StepsState | undefined;
  if (stepsStateOf(v, Date.now()) === 'ended') {
    const stored = await storeStepsOf(env, tenant, v);
    if ('version' in stored) v = stored.version;
    else state = 'failed';
  }
  return versionView(found.rubric, v, (await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? [], state);
}

const ListCursorSchema = z.object({ t: z.number().int(), i: z.string() }).strict();
const VersionCursorSchema = z.object({ r: z.string(), v: z.number().int().positive() }).strict();

/** `GET /v1/rubrics`: the tenant's rubrics, newest first. */
export async function listRubricsView(
  env: Bindings,
  tenant: string,
  q: { cursor?: string | undefined; limit: number; archived?: 'true' | 'false' | undefined },
): Promise<{ data: Rubric[]; nextCursor: string | null }> {
  const after: ListPosition | null = q.cursor === undefined ? null : decodeCursor(q.cursor, ListCursorSchema);
  const rows = await listRubrics(tenantDb(env, tenant), tenant, {
    after,
    limit: q.limit,
    archived: q.archived === undefined ? undefined : q.archived === 'true',
  });
  const page = rows.slice(0, q.limit);
  const tags = await tagsOf(
    tenantDb(env, tenant),
    page.map((r) => r.id),
  );
  const last = page[page.length - 1];
  return {
    data: page.map((r) => rubricView(r, tags.get(r.id) ?? [])),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.createdAt, i: last.id }) : null,
  };
}

/** `GET /v1/rubrics/{id}/versions`: newest first, without examples (their count instead). */
export async function listVersionsView(
  env: Bindings,
  tenant: string,
  id: string,
  q: { cursor?: string | undefined; limit: number },
): Promise<{ data: (Omit<RubricVersion, 'examples'> & { examples: number })[]; nextCursor: string | null }> {
  const rubric = await requireRubric(env, tenant, id);
  const position = q.cursor === undefined ? null : decodeCursor(q.cursor, VersionCursorSchema);
  if (position && position.r !== id)
    throw invalidRequest([{ path: 'cursor', message: 'belongs to another rubric' }], 'query');
  const rows = await listVersions(tenantDb(env, tenant), tenant, id, { before: position?.v ?? null, limit: q.limit });
  const page = rows.slice(0, q.limit);
  const tags = (await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? [];
  const last = page[page.length - 1];
  return {
    data: page.map((v) => ({ ...versionView(rubric, v, tags), examples: v.examples.length })),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ r: id, v: last.version }) : null,
  };
}

/**
 * Points a tag at a version (creating it), keeping its policy unless the body sets one (null clears it).
 * @throws ApiError 404 (rubric, version), 409 `agreement_below_minimum` naming the figure, 409 `rubric_archived`.
 */
export async function setTag(
  env: Bindings,
  tenant: string,
  id: string,
  tag: string,
  body: PutTagRequest,
): Promise<RubricTag> {
  const rubric = await requireRubric(env, tenant, id);
  if (rubric.archivedAt !== null) throw archived(id);
  const v = await getVersion(tenantDb(env, tenant), tenant, id, body.version);
  if (!v) throw new ApiError(404, 'not_found', `version: rubric "${id}" has no version ${body.version}`);
  const current = ((await tagsOf(tenantDb(env, tenant), [id])).get(id) ?? []).find((t) => t.tag === tag);
  const policy = body.minAgreement === undefined ? (current?.minAgreement ?? null) : body.minAgreement;
  if (policy) {
    const refused = metricRefusal(rubric.kind, v, policy.metric);
    if (refused) throw invalidRequest([{ path: 'minAgreement.metric', message: refused }], 'request body');
    const refusal = policyRefusal(id, v, checkView(v), tag, policy);
    if (refusal) throw new ApiError(409, 'agreement_below_minimum', `minAgreement.${policy.metric}: ${refusal}`);
  }
  const now = Date.now();
  if (!(await putTag(tenantDb(env, tenant), { rubricId: id, tag, version: body.version, minAgreement: policy, now })))
    throw archived(id);
  return tagView({ tag, version: body.version, minAgreement: policy, updatedAt: now });
}

/** Archives a rubric (idempotent): every version stays readable; only `rb_…@n` still judges. */
export async function archive(env: Bindings, tenant: string, id: string): Promise<Rubric> {
  await requireRubric(env, tenant, id);
  await archiveRubric(tenantDb(env, tenant), tenant, id, Date.now());
  return viewRubric(env, tenant, id);
}
