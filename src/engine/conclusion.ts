/**
 * @module
 * What a finished evaluation's orders conclude: the orders' method verdicts combined into one verdict (both
 * presentation orders by ./calibration.ts, the aspects by ./aspects.ts), with the label its rubric's
 * thresholds give, a trajectory's first failing step, and what a budget cut.
 */
import { combineOrders, unswap } from './calibration.js';
import { transcriptOf, unparsedOf, usageOf } from './ledger.js';
import type { AnyMethod } from './method.js';
import { aspectsVerdict } from './aspects.js';
import type { JudgedTask } from './judged.js';
import { taskFor } from './orders.js';
import type { RubricContent } from './rubric.js';
import { labelOf } from './thresholds.js';
import type { EngineState, Outcome } from './state.js';
import { stepOf } from './step-memo.js';
import type { MethodVerdict, Verdict } from './verdict.js';

/** What the orders' verdicts combine into, before the core adds calls, usage and the transcript. */
type Combined = Pick<MethodVerdict, 'winner' | 'scores' | 'score' | 'votes' | 'confidence' | 'details'> & {
  flip: boolean | null;
} & Partial<Pick<Verdict, 'aspects' | 'overall' | 'spread'>>;

/**
 * The verdict or failure of a state, or null while calls remain: the orders' verdicts combined (both
 * presentations, or the aspects), with the calls, usage and transcript the ledger holds.
 */
export function computeOutcome(method: AnyMethod, state: EngineState): Outcome | null {
  if (state.failure) return { status: 'failed', error: state.failure };
  const verdicts: MethodVerdict[] = [];
  const cut: Record<string, Record<string, unknown>> = {};
  for (const o of state.orders) {
    const r = stepOf(method, state.config, taskFor(state, o.key), o.m);
    if (r.kind !== 'verdict') return null;
    verdicts.push(o.key === 'ba' ? unswap(r.verdict) : r.verdict);
    if (r.verdict.truncation) cut[o.key] = r.verdict.truncation;
  }
  const [first, second] = verdicts;
  if (!first) return null;
  const view = taskFor(state, 'main');
  const combined: Combined =
    view.kind === 'pointwise' && view.aspects !== undefined
      ? {
          ...aspectsVerdict(
            state,
            state.orders.map((o) => o.key),
            view,
            verdicts,
          ),
          flip: null,
        }
      : second
        ? combineOrders(first, second, state.config.calibration)
        : {
            ...first,
            flip: first.positionFlip ?? null,
            details: { ...first.details, ...(first.forceTie !== undefined ? { tieBecause: first.forceTie } : {}) },
          };
  const { calls, usage } = usageOf(state);
  const verdict: Verdict = {
    method: state.method,
    taskKind: view.kind,
    ...(combined.winner !== undefined ? { winner: combined.winner } : {}),
    ...(combined.scores ? { scores: combined.scores } : {}),
    ...(combined.score !== undefined ? { score: combined.score } : {}),
    ...(view.kind === 'pointwise' ? { scale: { min: view.aspect.scale.min, max: view.aspect.scale.max } } : {}),
    ...(combined.aspects
      ? {
          aspects: combined.aspects,
          ...(combined.overall !== undefined ? { overall: combined.overall } : {}),
          ...(combined.spread !== undefined ? { spread: combined.spread } : {}),
        }
      : {}),
    ...labelled(state.rubric, view, combined),
    votes: combined.votes,
    confidence: Math.min(1, Math.max(0, combined.confidence)),
    positionFlip: combined.flip,
    unparsed: unparsedOf(state),
    calls,
    usage,
    transcript: transcriptOf(state),
    details: combined.details ?? {},
    ...firstFailingOf(view, first),
    ...(state.budgetRefused
      ? {
          budgetTruncated: true as const,
          truncation: { refused: state.budgetRefused, cut: state.orders.length === 1 ? (cut.main ?? {}) : cut },
        }
      : {}),
  };
  return { status: 'succeeded', verdict };
}

/** The bands of a pointwise verdict's scores by its rubric's thresholds (./thresholds.ts), when it has them. */
function labelled(rubric: RubricContent | undefined, view: JudgedTask, c: Combined): Pick<Verdict, 'label'> {
  if (view.kind !== 'pointwise') return {};
  const label = labelOf(rubric?.thresholds, view.aspect.scale, c.score, c.aspects);
  return label ? { label } : {};
}

/** A trajectory's first failing step with its span id, where the method named one (by number) or named none. */
function firstFailingOf(view: JudgedTask, first: MethodVerdict): Pick<Verdict, 'firstFailingStep'> {
  if (view.kind !== 'pointwise' || view.steps === undefined || first.firstFailingStep === undefined) return {};
  if (first.firstFailingStep === null) return { firstFailingStep: null };
  const ref = view.steps[first.firstFailingStep - 1];
  return ref ? { firstFailingStep: { ...ref } } : {};
}
