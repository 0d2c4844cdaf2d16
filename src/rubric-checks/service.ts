/**
 * @module
 * The golden check of a rubric version: its labelled examples (or the request's) judged by the version as a
 * meta-evaluation (src/meta-evaluations, so the batch machinery runs them), recorded on the version; once every
 * example ended, the agreement report (accuracy and Cohen's κ pairwise, correlations pointwise, plus accuracy on
 * a pass/fail scale; src/metrics) is stored on the version, where a tag's `minAgreement` reads it. Its own folder because it joins rubrics and
 * meta-evaluations, which already depend the other way.
 */
import type { Bindings } from '../config/bindings.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { createMetaEvaluation, viewMetaEvaluation } from '../meta-evaluations/service.js';
import { getVersion } from '../rubrics/rows.js';
import { setCheck, storeCheckReport, versionsWithOpenCheck } from '../rubrics/check-rows.js';
import type { CheckRequest, RubricCheck } from '../rubrics/schemas.js';
import { checkView, requireVersion } from '../rubrics/service.js';
import type { VersionRecord } from '../rubrics/rows.js';
import type { AgreementReport } from '../metrics/agreement.js';
import type { ScaleBounds } from '../metrics/pass-fail.js';
import { isTwoPoint, twoPointAccuracy } from '../metrics/pass-fail.js';
import { tenantDb } from '../config/d1-shards.js';

/**
 * Starts the golden check of version `version`: one meta-evaluation item per example (`example-N`), judged by
 * `rb_…@version` with the request's judge. Replaces an earlier check of the version.
 * @throws ApiError 400 `examples` when there is none to run, 404 for an unknown rubric or version, and what
 *   `POST /v1/meta-evaluations` throws (400 naming `examples.N.…`, 429, 503).
 */
export async function startCheck(
  env: Bindings,
  tenant: string,
  id: string,
  version: number,
  body: CheckRequest,
  idempotencyKey: string | null,
  creator: CreatorInfo,
): Promise<{ check: RubricCheck; replayed: boolean }> {
  const { version: v } = await requireVersion(env, tenant, id, version);
  const examples = body.examples ?? v.examples;
  if (examples.length === 0)
    throw invalidRequest(
      [{ path: 'examples', message: `version ${version} has no golden examples; send some in \`examples\`` }],
      'request body',
    );
  const kind = v.content.kind;
  const offKind = examples.findIndex((ex) => ex.task.kind !== kind);
  if (offKind >= 0)
    throw invalidRequest(
      [{ path: `examples.${offKind}.task.kind`, message: `a ${kind} rubric's examples are ${kind} tasks` }],
      'request body',
    );
  const meta = await createMetaEvaluation(
    env,
    tenant,
    {
      preset: body.preset,
      config: body.config,
      rubric: `${id}@${version}`,
      repeats: 1,
      // An example's expected score per aspect gives the check an agreement per aspect.
      items: examples.map((ex, i) => ({
        id: `example-${i}`,
        task: ex.task,
        human: ex.expected,
        ...(ex.expectedAspects !== undefined ? { humanAspects: ex.expectedAspects } : {}),
      })),
    },
    idempotencyKey,
    creator,
  );
  const judge = { preset: body.preset ?? null, config: body.config ?? null };
  // A replay records it too when the first request ended between the meta-evaluation and this write.
  if (!meta.replayed || v.checkId === null)
    await setCheck(tenantDb(env, tenant), { rubricId: id, version, checkId: meta.id, judge });
  const after = await getVersion(tenantDb(env, tenant), tenant, id, version);
  const check = after ? checkView(after) : null;
  if (!check) throw new Error(`rubric "${id}" version ${version} lost its check ${meta.id}`);
  return { check, replayed: meta.replayed };
}

/**
 * Stores the report of a version's running check once its meta-evaluation has ended (idempotent: the first
 * writer wins). Called before anything reads the check (a version's view, a tag's move).
 * @returns the version as it is now.
 */
export async function settleCheck(env: Bindings, tenant: string, v: VersionRecord): Promise<VersionRecord> {
  if (v.checkId === null || v.checkReport !== null) return v;
  const meta = await viewMetaEvaluation(env, tenant, v.checkId).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
  if (!meta?.report) return v;
  await storeCheckReport(
    tenantDb(env, tenant),
    v.checkId,
    withPassFail(meta.report, meta.items, v.content.scale),
    Date.now(),
  );
  return (await getVersion(tenantDb(env, tenant), tenant, v.rubricId, v.version)) ?? v;
}

/**
 * A pointwise check's report with `accuracy` added when the rubric scores on two points (pass/fail): the judge's
 * answer matching the expected one is the figure that means something there, and what `minAgreement` can ask.
 */
function withPassFail(
  report: AgreementReport,
  items: readonly { human: number | string; score: number | null }[],
  scale: ScaleBounds | undefined,
): AgreementReport {
  if (report.kind !== 'pointwise' || !scale || !isTwoPoint(scale)) return report;
  const observations = items.flatMap((it) =>
    typeof it.human === 'number' ? [{ human: it.human, judge: it.score }] : [],
  );
  return { ...report, accuracy: twoPointAccuracy(observations, scale, report.bootstrap ?? false) };
}

/** Settles the running check of version `version` of rubric `id`, if the tenant has it (nothing otherwise). */
export async function settleVersion(env: Bindings, tenant: string, id: string, version: number): Promise<void> {
  const v = await getVersion(tenantDb(env, tenant), tenant, id, version);
  if (v) await settleCheck(env, tenant, v);
}

/** Settles every running check of the tenant's rubric `id` (before a tag moves: whichever version it names). */
export async function settleRubric(env: Bindings, tenant: string, id: string): Promise<void> {
  for (const version of await versionsWithOpenCheck(tenantDb(env, tenant), tenant, id))
    await settleVersion(env, tenant, id, version);
}
