/**
 * @module
 * A stored version's G-Eval auto-CoT steps as the rubric sees them: which state they are in (from the claim
 * columns and the claimed evaluation's status), the steps written from that evaluation's verdict and stored
 * with the version (content-addressed, the first writer wins), and a resolved rubric with its steps applied.
 * Running the `rubric-steps` evaluation is the evaluations feature's (src/evaluations/rubric-steps.ts): it
 * creates evaluations, which this feature may not import.
 *
 * The steps are stored by whoever needs them first once their evaluation succeeded (the request waiting for
 * them, a later use, `GET` of the version): the verdict is durable and the steps a pure function of it, so
 * every writer stores the same content under the same hash, and a repeat changes nothing.
 */
import type { Bindings } from '../config/bindings.js';
import { withGeneratedSteps } from '../engine/methods/rubric-steps/index.js';
import type { RubricContent } from '../engine/rubric.js';
import { rubricHash } from '../engine/rubric.js';
import type { Verdict } from '../engine/verdict.js';
import type { ResolvedRubric } from './resolve.js';
import type { VersionRecord } from './rows.js';
import { getVersion, stepsEvaluationOf, storeSteps } from './rows.js';
import { tenantDb } from '../config/d1-shards.js';

/**
 * How long a claim whose evaluation row does not exist yet counts as pending, ms (60 s): the claimant inserts
 * the row right after claiming, so a claim this old without a row was abandoned (the claimant died between).
 */
export const ABANDONED_CLAIM_MS = 60_000;

/**
 * Where a version's steps stand:
 * - `written`: stored; `none`: never claimed;
 * - `pending`: its evaluation is queued or running (or its row is about to be inserted);
 * - `ended`: its evaluation succeeded but the steps are not stored yet (whoever reads it next stores them);
 * - `failed`: its evaluation failed, was cancelled, or its claim was abandoned: the next use claims again.
 */
export type StepsState = 'written' | 'none' | 'pending' | 'ended' | 'failed';

/** The state of `v`'s steps at `now` (epoch ms). */
export function stepsStateOf(v: VersionRecord, now: number): StepsState {
  if (v.stepsContent !== null && v.stepsHash !== null) return 'written';
  if (v.stepsEvaluationId === null) return 'none';
  switch (v.stepsStatus) {
    case 'succeeded':
      return 'ended';
    case 'failed':
    case 'cancelled':
      return 'failed';
    case null:
      return v.stepsClaimedAt !== null && now - v.stepsClaimedAt < ABANDONED_CLAIM_MS ? 'pending' : 'failed';
    default:
      return 'pending';
  }
}

/**
 * Whether a content lacks evaluation steps that auto-CoT would write: the rubric's (no aspects) or an
 * aspect's; never when it opts out (`autoSteps: false`).
 */
export function missingSteps(content: RubricContent): boolean {
  if (content.autoSteps === false) return false;
  return content.aspects !== undefined
    ? content.aspects.some((a) => a.evaluationSteps === undefined)
    : content.evaluationSteps === undefined;
}

/** The resolved rubric judged by its version's stored steps: that content, and its hash in the record. */
export function withStoredSteps(rubric: ResolvedRubric, v: VersionRecord): ResolvedRubric {
  if (v.stepsContent === null || v.stepsHash === null) return rubric;
  return {
    content: v.stepsContent,
    record: { ...rubric.record, hash: v.stepsHash },
    ...(rubric.stored ? { stored: { rubric: rubric.stored.rubric, version: v } } : {}),
  };
}

/** Why the steps evaluation of a version gave no steps: its error, or its verdict's unread reply. */
export interface StepsFailure {
  evaluationId: string;
  /** The evaluation's error code, or `no_steps` when it succeeded without readable steps. */
  code: string;
  /** Its error message (every attempt's cause for an LLM failure) or why no steps were read. */
  message: string;
}

/**
 * Stores the steps of `v`'s succeeded steps evaluation on the version (idempotent), and returns the version
 * as stored then; or the failure when its verdict holds no steps for every criteria that lacks them.
 */
export async function storeStepsOf(
  env: Bindings,
  tenant: string,
  v: VersionRecord,
): Promise<{ version: VersionRecord } | { failure: StepsFailure }> {
  const id = v.stepsEvaluationId;
  if (id === null) throw new Error(`rubric ${v.rubricId}@${v.version} has no steps evaluation`);
  const ended = await stepsEvaluationOf(tenantDb(env, tenant), tenant, id);
  if (ended?.status !== 'succeeded' || ended.verdict === null)
    return {
      failure: {
        evaluationId: id,
        code: ended?.errorCode ?? 'evaluation_failed',
        message: ended?.errorMessage ?? `the steps evaluation ended ${ended?.status ?? 'without a row'}`,
      },
    };
  // Stored JSON: read defensively, a verdict without details has no steps.
  const json = ended.verdict as { details?: Verdict['details'] };
  const verdict = { details: json.details ?? {} };
  const content = withGeneratedSteps(v.content, verdict);
  if (missingSteps(content))
    return {
      failure: { evaluationId: id, code: 'no_steps', message: unreadOf(verdict) ?? 'no numbered steps were read' },
    };
  await storeSteps(tenantDb(env, tenant), {
    tenant,
    rubricId: v.rubricId,
    version: v.version,
    hash: await rubricHash(content),
    content,
    now: Date.now(),
  });
  const stored = await getVersion(tenantDb(env, tenant), tenant, v.rubricId, v.version);
  if (!stored) throw new Error(`rubric ${v.rubricId}@${v.version} vanished while its steps were stored`);
  return { version: stored };
}

/** The reason a `rubric-steps` verdict gives for steps it could not read (per aspect, the first). */
function unreadOf(verdict: Pick<Verdict, 'details'>): string | undefined {
  const details = verdict.details as { unread?: unknown; aspectDetails?: Record<string, { unread?: unknown }> };
  if (typeof details.unread === 'string') return details.unread;
  for (const d of Object.values(details.aspectDetails ?? {})) if (typeof d.unread === 'string') return d.unread;
  return undefined;
}
