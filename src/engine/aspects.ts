/**
 * @module
 * Several aspects in one evaluation (a rubric's `aspects`, or a pointwise task's): the composite's rules.
 *
 * The method decides how an aspect is scored (`MethodDefinition.aspectsAtOnce`):
 * - one call for every aspect, where its template allows it (the single judge's JSON form): the method's
 *   verdict lists each aspect's score ({@link MethodVerdict.aspects});
 * - otherwise one run of the method per aspect inside the same evaluation: the protocol core keeps one
 *   method state per aspect, as it keeps one per presentation order for calibration, and prefixes each run's
 *   call ids with {@link aspectPrefix} (`aspect0/sample0`, `aspect2/turn2/agent1#1`), so ids stay stable and
 *   replay rebuilds each run; each aspect's calls and cost are read from the ledger under its prefix.
 *
 * Then (both ways) {@link combineAspects}: the overall score is the weighted mean of the scored aspects'
 * scores, each normalised to 0-1 on its own scale; its spread the weighted standard deviation of those
 * normalised scores; the verdict's `score` is the overall on the overall scale; its confidence the
 * weighted mean of the aspects' confidences.
 */
import type { Usage } from './call.js';
import type { JudgedAspect, JudgedPointwiseTask } from './judged.js';
import type { LedgerView } from './ledger.js';
import { usageOf } from './ledger.js';
import type { AspectResult, MethodVerdict, Vote } from './verdict.js';

/** The order key of aspect `i`'s own run: `aspect<i>`. */
export const aspectKey = (i: number): `aspect${number}` => `aspect${i}`;

/** The call-id prefix of aspect `i`'s own run: `aspect<i>/`. */
export const aspectPrefix = (i: number): string => `${aspectKey(i)}/`;

/** The aspect index an order key names (`aspect3` → 3), or undefined. */
export function aspectIndexOf(key: string): number | undefined {
  const m = /^aspect(\d+)$/.exec(key);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** The aspect index a call id belongs to (`aspect3/sample0#1` → 3), or undefined. */
export function aspectOfCall(id: string): number | undefined {
  const m = /^aspect(\d+)\//.exec(id);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** What one aspect's run (or the shared call) concluded and cost. */
export interface AspectPart {
  verdict: Pick<MethodVerdict, 'score' | 'votes' | 'confidence' | 'details'>;
  calls: number;
  /** Absent when the calls were shared by every aspect. */
  usage?: Usage;
  rationale?: string;
}

/** A multi-aspect verdict's fields before the core adds calls, usage and the transcript. */
export interface CombinedAspects {
  score?: number;
  votes: Vote[];
  confidence: number;
  aspects: AspectResult[];
  overall?: number;
  spread?: number;
  details: Record<string, unknown>;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** A score normalised to 0-1 on its scale, clamped (the authors' readers check no scale). */
function normalised(score: number, scale: { min: number; max: number }): number {
  return clamp01((score - scale.min) / (scale.max - scale.min));
}

/**
 * Combines the aspects' results (see the module notes).
 * @param view the judged task with its `aspects` (their scales, weights) and overall `aspect.scale`.
 * @param parts one per aspect, in the task's order.
 * @param mode how they were scored, for `details`.
 */
export function combineAspects(
  view: JudgedPointwiseTask,
  parts: readonly AspectPart[],
  mode: 'per-aspect' | 'one-call',
): CombinedAspects {
  const aspects: readonly JudgedAspect[] = view.aspects ?? [];
  const results: AspectResult[] = aspects.map((a, i) => {
    const p = parts[i];
    const score = p?.verdict.score;
    return {
      name: a.name,
      ...(score !== undefined ? { score } : {}),
      scale: a.scale,
      weight: a.weight,
      confidence: clamp01(p?.verdict.confidence ?? 0),
      calls: p?.calls ?? 0,
      ...(p?.usage ? { costUsd: p.usage.costUsd } : {}),
      ...(p?.rationale !== undefined ? { rationale: p.rationale } : {}),
    };
  });
  const votes = parts.flatMap((p, i) =>
    p.verdict.votes.map((v) => ({
      ...v,
      agent: mode === 'per-aspect' ? `${aspectPrefix(i)}${v.agent}` : v.agent,
      label: `${aspects[i]?.name ?? `aspect ${i}`}: ${v.label}`,
    })),
  );
  const totalWeight = results.reduce((w, r) => w + r.weight, 0);
  const confidence = totalWeight > 0 ? results.reduce((c, r) => c + r.weight * r.confidence, 0) / totalWeight : 0;
  const details: Record<string, unknown> = {
    aspectMode: mode,
    overallScale: view.aspect.scale,
    ...(mode === 'per-aspect'
      ? {
          aspectDetails: Object.fromEntries(
            parts.map((p, i) => [aspects[i]?.name ?? String(i), p.verdict.details ?? {}]),
          ),
        }
      : {}),
  };
  const scored = results.flatMap((r) =>
    r.score !== undefined ? [{ w: r.weight, n: normalised(r.score, r.scale) }] : [],
  );
  const w = scored.reduce((s, x) => s + x.w, 0);
  if (scored.length === 0 || w <= 0) return { votes, confidence, aspects: results, details };
  const overall = scored.reduce((s, x) => s + x.w * x.n, 0) / w;
  const spread = Math.sqrt(scored.reduce((s, x) => s + x.w * (x.n - overall) ** 2, 0) / w);
  const { min, max } = view.aspect.scale;
  return {
    score: min + overall * (max - min),
    votes,
    confidence,
    aspects: results,
    overall,
    spread: Math.min(0.5, spread),
    details,
  };
}

/** Requests and usage recorded under a call-id prefix (one aspect's run). */
function usageUnder(state: LedgerView, prefix: string): ReturnType<typeof usageOf> {
  const ledger = Object.fromEntries(Object.entries(state.ledger).filter(([id]) => id.startsWith(prefix)));
  return usageOf({ ledger, log: [] });
}

/**
 * The verdict fields of a task with several aspects: from one run per aspect (an order each, its calls and
 * cost under its prefix `aspect<i>/`), or from the method's one call that scored them all (one `main` order).
 * @param orders the evaluation's orders' keys, in order; `verdicts` their verdicts.
 */
export function aspectsVerdict(
  state: LedgerView,
  orders: readonly string[],
  view: JudgedPointwiseTask,
  verdicts: readonly MethodVerdict[],
): CombinedAspects {
  const aspects = view.aspects ?? [];
  const [one] = verdicts;
  if (orders.length === 1 && orders[0] === 'main' && one) {
    // One call scored every aspect: each aspect shares its calls; the verdict's usage is the whole cost.
    const { calls } = usageOf(state);
    const parts = aspects.map((a) => {
      const got = one.aspectScores?.find((x) => x.name === a.name);
      return {
        verdict: { ...(got?.score !== undefined ? { score: got.score } : {}), votes: [], confidence: one.confidence },
        calls,
        ...(got?.rationale !== undefined ? { rationale: got.rationale } : {}),
      };
    });
    const c = combineAspects(view, parts, 'one-call');
    return { ...c, votes: one.votes, details: { ...one.details, ...c.details } };
  }
  const parts: AspectPart[] = orders.map((key, i) => {
    const { calls, usage } = usageUnder(state, `${key}/`);
    return { verdict: verdicts[i] ?? { votes: [], confidence: 0 }, calls, usage };
  });
  return combineAspects(view, parts, 'per-aspect');
}
