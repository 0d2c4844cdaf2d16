/**
 * @module
 * One step of an alignment job, run from the batches queue (./queue.ts) until it ends. Each step is idempotent,
 * so a redelivered or concurrent message repeats nothing:
 *
 * 1. every snapshotted item judged with the base version, one meta-evaluation (`Idempotency-Key`
 *    `align:<job>:base`; items judged before come from the verdict cache);
 * 2. the candidates learned from the learning items: few-shot examples (pure), or the rules an LLM writes from the
 *    disagreements (`instructions`: one `rubric-steps` evaluation under `align:<job>:rewrite:<set>`);
 * 3. `auto`: each candidate judged on the validation items (an inline rubric, `align:<job>:validation:<method>`),
 *    the best kept;
 * 4. the new version (`Idempotency-Key` `align:<job>`: one version per job, whatever repeats);
 * 5. the held-out items judged with it (`align:<job>:held-out`);
 * 6. κ of both versions on the held-out items with intervals; the tag moves when the gain's interval lies above 0.
 *
 * Every judged call runs through the pipeline (usage, budgets, the tenant's caps and quotas) under the key that
 * created the job. A step's product is recorded on the job before the next step reads it.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { rubricStepsTask } from '../engine/methods/rubric-steps/index.js';
import { createEvaluationJob } from '../evaluations/service.js';
import { requireEvaluation, viewEvaluation } from '../evaluations/views.js';
import { isTerminal } from '../evaluations/status.js';
import { ApiError } from '../http/errors.js';
import { log } from '../log/log.js';
import { getBatch } from '../batches/rows.js';
import { createMetaEvaluation, viewMetaEvaluation } from '../meta-evaluations/service.js';
import type { VersionRecord } from '../rubrics/rows.js';
import { addVersion, requireVersion, setTag } from '../rubrics/service.js';
import type { Winner } from './core.js';
import {
  bestCandidate,
  fewShotCandidate,
  heldOutAgreement,
  instructionsCriteria,
  kappaOf,
  rewriteInput,
  seedOf,
  splitOf,
  tagMoves,
} from './core.js';
import type { JudgedLabel } from './few-shot.js';
import { REWRITE_TEMPLATE } from './prompts.js';
import type { AlignmentRecord, AlignSteps, Candidate } from './rows.js';
import { endAlignment, markWaiting, storeSteps, touchAlignment } from './rows.js';
import type { AlignMethod } from './schemas.js';
import type { PointScores } from './thresholds.js';
import { learnThresholds, pointHeldOut, thresholdsKappa } from './thresholds.js';

/** What a step came to: the job ended (or was not found running), or it waits on a run. */
export type Advance = 'ended' | 'wait';

/** A step waits on a run: thrown inside, answered `wait`. */
class Waiting extends Error {}

/** The job cannot go on: it ends `failed` with this code and message. */
class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The method of the one evaluation a job creates and waits on by itself (the criteria rewrite of `instructions`);
 * every other wait is on a run's batch (./queue.ts relies on it).
 */
export const REWRITE_METHOD = 'rubric-steps';

/** The methods `auto` tries on a pairwise rubric, in order (the first wins a tie). */
export const AUTO_PAIRWISE: readonly AlignMethod[] = ['few-shot', 'instructions'];
/** The methods `auto` tries on a pointwise rubric. */
export const AUTO_POINTWISE: readonly AlignMethod[] = ['thresholds'];

/** The task without the mock's hidden quality tags (an answer key, not text a reviewer would quote). */
const untagged = (t: string) => t.replace(/ \[quality=[^\]]*\]/g, '');

/**
 * Runs the job's next steps as far as they go without waiting.
 * @throws what a step throws besides a user's error (a 4xx ends the job `failed` with its code): the queue retries.
 */
export async function advanceAlignment(env: Bindings, a: AlignmentRecord): Promise<Advance> {
  if (a.status !== 'running') return 'ended';
  const db = tenantDb(env, a.tenant);
  const steps: AlignSteps = structuredClone(a.steps);
  let saved = JSON.stringify(steps);
  const save = async () => {
    const now = JSON.stringify(steps);
    if (now === saved) return;
    if (!(await storeSteps(db, a.id, steps, Date.now()))) throw new Waiting('ended meanwhile');
    saved = now;
  };
  try {
    await run(env, a, steps, save);
    return 'ended';
  } catch (e) {
    if (e instanceof Waiting) {
      await touchAlignment(db, a.id, Date.now());
      return 'wait';
    }
    // A user's error (a refused judge, an archived rubric, the monthly quota) does not pass with time.
    const final = e instanceof JobFailure || (e instanceof ApiError && e.status < 500 && e.code !== 'rate_limited');
    if (!final) throw e;
    await fail(env, a, e.code, e.message);
    return 'ended';
  }
}

async function fail(env: Bindings, a: AlignmentRecord, code: string, message: string): Promise<void> {
  if (await endAlignment(tenantDb(env, a.tenant), a.id, { code, message }, Date.now()))
    log('info', 'align.failed', { alignmentId: a.id, code });
}

async function run(env: Bindings, a: AlignmentRecord, steps: AlignSteps, save: () => Promise<void>): Promise<void> {
  const { version: base } = await requireVersion(env, a.tenant, a.rubricId, a.baseVersion);
  const split = splitOf(a.items.length, a.holdout, seedOf(a.id));
  const all = a.items.map((_, i) => i);
  const pointwise = base.content.kind === 'pointwise';

  steps.baseRun ??= await startRun(env, a, 'base', `${a.rubricId}@${a.baseVersion}`, all);
  await save();
  const baseJudged = await judgedOf(env, a, steps.baseRun, all);
  const baseWinners = baseJudged.map((j) => j?.winner ?? null);

  const learnSet = a.method === 'auto' ? split.train : split.learn;
  const setName = a.method === 'auto' ? 'train' : 'learn';
  if (!steps.candidates) {
    const judged = learnSet.map((i) => judgedLabel(a, i, baseWinners[i] ?? null));
    const candidates: Candidate[] = [];
    for (const method of a.method !== 'auto' ? [a.method] : pointwise ? AUTO_POINTWISE : AUTO_PAIRWISE) {
      if (method === 'thresholds') {
        const learned = learnThresholds(a.items, base.content, learnSet, baseJudged);
        if (learned) candidates.push({ method, criteria: base.content.criteria, thresholds: learned });
        continue;
      }
      const criteria = await candidateCriteria(env, a, steps, save, method, setName, base, judged);
      if (criteria !== null) candidates.push({ method, criteria });
    }
    if (candidates.length === 0)
      throw new JobFailure(
        'nothing_to_learn',
        pointwise
          ? `none of the ${learnSet.length} learning items has both a human's and the judge's score to learn cut-offs from`
          : `the base version agreed with every label of the ${judged.length} learning items: there is no correction to learn from`,
      );
    steps.candidates = candidates;
    await save();
  }

  if (!steps.chosen) {
    const candidates = steps.candidates;
    // A pointwise rubric has one method (thresholds): nothing to choose between. Its κ on the validation items is
    // still shown, as for each pairwise candidate: the base scores there through the cut-offs, no judging again.
    if (candidates.length === 1 || a.method !== 'auto') {
      if (a.method === 'auto' && pointwise)
        for (const c of candidates)
          c.kappa = thresholdsKappa(a.items, base.content, c.thresholds ?? null, split.validation, baseJudged);
      steps.chosen = candidates[0];
    } else {
      for (const c of candidates)
        c.run ??= await startRun(
          env,
          a,
          `validation:${c.method}`,
          { ...base.content, criteria: c.criteria },
          split.validation,
        );
      await save();
      const humans = split.validation.map((i) => humanOf(a, i));
      for (const c of candidates) {
        const judged = await judgedOf(env, a, c.run ?? '', split.validation);
        c.kappa = kappaOf(
          humans,
          split.validation.map((i) => judged[i]?.winner ?? null),
        );
      }
      steps.chosen = bestCandidate(candidates.map((c) => ({ ...c, kappa: c.kappa ?? null }))) ?? candidates[0];
    }
    await save();
  }

  const chosen = steps.chosen as Candidate;
  if (steps.version === undefined) {
    const created = await addVersion(env, a.tenant, a.rubricId, versionBody(base, chosen), `align:${a.id}`);
    steps.version = created.body.version;
    await save();
  }

  steps.heldOutRun ??= await startRun(env, a, 'held-out', `${a.rubricId}@${steps.version}`, split.heldOut);
  await save();
  const aligned = await judgedOf(env, a, steps.heldOutRun, split.heldOut);

  const heldOut = pointwise
    ? pointHeldOut(a.items, base.content, chosen.thresholds ?? null, split.heldOut, [baseJudged, aligned], seedOf(a.id))
    : heldOutAgreement(
        split.heldOut.map((i) => humanOf(a, i)),
        split.heldOut.map((i) => baseWinners[i] ?? null),
        split.heldOut.map((i) => aligned[i]?.winner ?? null),
        seedOf(a.id),
      );
  const { moved, reason } = await moveTag(env, a, steps.version, heldOut);
  if (
    await endAlignment(
      tenantDb(env, a.tenant),
      a.id,
      { result: { heldOut, tagMoved: moved, tagReason: reason } },
      Date.now(),
    )
  )
    log('info', 'align.succeeded', { alignmentId: a.id, version: steps.version, tagMoved: moved });
}

const humanOf = (a: AlignmentRecord, i: number): Winner => a.items[i]?.human as Winner;

/** The item's label and the base verdict, as the few-shot and rewrite forms take them. */
function judgedLabel(a: AlignmentRecord, i: number, judge: Winner | null): JudgedLabel {
  const item = a.items[i] as AlignmentRecord['items'][number];
  const task = item.task;
  return task.kind === 'pairwise'
    ? {
        question: untagged(task.question ?? ''),
        answerA: untagged(task.answerA),
        answerB: untagged(task.answerB),
        human: item.human as Winner,
        judge,
        confidence: null,
      }
    : { question: '', answerA: '', answerB: '', human: 'tie', judge, confidence: null };
}

async function candidateCriteria(
  env: Bindings,
  a: AlignmentRecord,
  steps: AlignSteps,
  save: () => Promise<void>,
  method: AlignMethod,
  set: 'train' | 'learn',
  base: VersionRecord,
  judged: readonly JudgedLabel[],
): Promise<string | null> {
  const criteria = base.content.criteria;
  if (method === 'few-shot') return fewShotCandidate(criteria, judged);
  if (method !== 'instructions')
    throw new JobFailure('method_unfit', `${method} does not fit a ${base.content.kind} rubric`);
  const input = rewriteInput(criteria, judged);
  if (input === null) return null;
  const rewrites = (steps.rewrites ??= {});
  if (rewrites[set] === undefined) {
    const defaults = (a.judge.config as { defaults?: Record<string, unknown> } | null)?.defaults;
    const created = await createEvaluationJob(
      env,
      a.tenant,
      {
        config: {
          method: REWRITE_METHOD,
          ...(defaults ? { defaults } : {}),
          templates: { pairwise: REWRITE_TEMPLATE },
        },
        task: rubricStepsTask(base.content),
        rubric: { kind: base.content.kind, criteria: input },
      },
      `align:${a.id}:rewrite:${set}`,
      { keyId: a.keyId },
    );
    rewrites[set] = created.body.id;
    await save();
  }
  await markWaiting(tenantDb(env, a.tenant), a.id, rewrites[set] ?? '', Date.now());
  const row = await requireEvaluation(env, a.tenant, rewrites[set] ?? '');
  if (!isTerminal(row.status)) throw new Waiting('rewrite');
  const view = await viewEvaluation(env, row);
  const rules = (view.verdict?.details as { evaluationSteps?: unknown } | undefined)?.evaluationSteps;
  if (row.status !== 'succeeded' || typeof rules !== 'string')
    throw new JobFailure(
      'rewrite_failed',
      `the criteria rewrite (evaluation ${row.id}) ended ${row.status} without rules${view.error ? `: ${view.error.message}` : ''}`,
    );
  return instructionsCriteria(criteria, rules);
}

/**
 * The body of the new version: the base content with the candidate's criteria (and thresholds), and the base's
 * golden examples.
 */
function versionBody(base: VersionRecord, chosen: Candidate) {
  return {
    ...base.content,
    criteria: chosen.criteria,
    ...(chosen.thresholds ? { thresholds: chosen.thresholds } : {}),
    name: `aligned (${chosen.method})`,
    ...(base.examples.length > 0 ? { examples: base.examples } : {}),
  };
}

async function startRun(
  env: Bindings,
  a: AlignmentRecord,
  name: string,
  rubric: string | VersionRecord['content'],
  indices: readonly number[],
): Promise<string> {
  const meta = await createMetaEvaluation(
    env,
    a.tenant,
    {
      ...(a.judge.preset !== null ? { preset: a.judge.preset } : {}),
      ...(a.judge.config !== null ? { config: a.judge.config } : {}),
      rubric,
      repeats: 1,
      items: indices.map((i) => {
        const it = a.items[i] as AlignmentRecord['items'][number];
        return {
          id: `item-${i}`,
          task: it.task,
          human: it.human ?? 0,
          ...(it.humanAspects ? { humanAspects: it.humanAspects } : {}),
        };
      }),
    },
    `align:${a.id}:${name}`,
    { keyId: a.keyId },
  );
  return meta.id;
}

/** What the judge gave an item: the winner (pairwise), the scores (pointwise). */
type Judged = PointScores & { winner: Winner | null };

/** Each item's verdict by index (null: not judged in run `id`) once every item of run `id` ended; waits otherwise. */
async function judgedOf(
  env: Bindings,
  a: AlignmentRecord,
  id: string,
  indices: readonly number[],
): Promise<(Judged | null)[]> {
  // The batch's row says whether every item ended; the items are read once, then.
  const db = tenantDb(env, a.tenant);
  await markWaiting(db, a.id, id, Date.now());
  const batch = await getBatch(db, a.tenant, id);
  if (batch?.completedAt === null) throw new Waiting(id);
  const view = await viewMetaEvaluation(env, a.tenant, id);
  if (view.progress.ended < view.progress.total) throw new Waiting(id);
  if (view.progress.succeeded === 0)
    throw new JobFailure('judge_failed', `every item of run ${id} failed: see GET /v1/meta-evaluations/${id}`);
  const out = new Array<Judged | null>(a.items.length).fill(null);
  for (const it of view.items) {
    const i = Number(it.itemId.slice('item-'.length));
    if (indices.includes(i)) out[i] = { winner: it.winner ?? null, score: it.score ?? null, aspects: it.aspects };
  }
  return out;
}

async function moveTag(
  env: Bindings,
  a: AlignmentRecord,
  version: number,
  heldOut: ReturnType<typeof heldOutAgreement>,
): Promise<{ moved: boolean; reason: string }> {
  const gain = heldOut.gain.interval;
  const range = gain ? `[${gain.lo.toFixed(3)}, ${gain.hi.toFixed(3)}]` : 'none (too few items)';
  if (!tagMoves(heldOut))
    return { moved: false, reason: `the held-out gain's interval ${range} does not lie above 0: ${a.tag} stays` };
  try {
    await setTag(env, a.tenant, a.rubricId, a.tag, { version });
    return { moved: true, reason: `the held-out gain's interval ${range} lies above 0: ${a.tag} moved to ${version}` };
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 409) throw e;
    return {
      moved: false,
      reason: `the held-out gain's interval ${range} lies above 0, but the tag refused: ${e.message}`,
    };
  }
}
