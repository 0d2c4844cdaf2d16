/**
 * @module
 * When a cascade stage escalates (Jung et al. 2024, "Trust or Escalate": trust a judge only when it is
 * confident, else ask the next, stronger one). A stage's verdict gives its signals; the stage's rules turn
 * them into reasons to escalate. Pure and shared: the cascade decides with it, and the meta-evaluation
 * replays other thresholds over recorded stage verdicts with it (src/metrics/cascade.ts), no LLM call.
 */
import { z } from 'zod';
import type { Usage } from '../../call.js';
import type { Verdict, Vote, Winner } from '../../verdict.js';

/** A stage's escalation rules; any rule that fires sends the item to the next stage. */
export const EscalateSchema = z
  .object({
    /** Escalate when the stage's two presentation orders disagree (`positionFlip`). Default true. */
    orderFlip: z.boolean().default(true),
    /** Escalate when the stage's votes (jurors, agents, samples) within an order disagree. Default true. */
    split: z.boolean().default(true),
    /** Escalate when the stage says tie. Default false. */
    tie: z.boolean().default(false),
    /** Escalate when a reply of the stage never parsed. Default true. */
    unparsed: z.boolean().default(true),
    /** Escalate when the stage's confidence (0-1, see the verdict's `confidence`) is below this. Default 0 (never). */
    minConfidence: z.number().min(0).max(1).default(0),
  })
  .strict();
export type Escalate = z.infer<typeof EscalateSchema>;

/** The escalation rules a stage has when its config names none. */
export const DEFAULT_ESCALATE: Escalate = EscalateSchema.parse({});

/**
 * Why a stage escalated. `below-threshold`: under calibrated thresholds (Trust or Escalate), the stage's
 * confidence is below its threshold, or the stage trusts nothing (no threshold passed the calibration).
 */
export type EscalationReason =
  'orders-disagree' | 'votes-split' | 'tie' | 'unparsed' | 'low-confidence' | 'below-threshold';

/**
 * Calibrated thresholds (Trust or Escalate, from `POST /v1/meta-evaluations/{id}/calibrate`): stage k trusts
 * its verdict when its confidence is at least `thresholds[k]` (null: it trusts nothing), else escalates; an
 * item no stage trusts is abstained on (no winner), never decided by the last stage's coin flip.
 */
export const CalibratedSchema = z
  .object({
    /** One per stage (a single-stage cascade: trust or abstain). */
    thresholds: z.array(z.number().min(0).max(1).nullable()).min(1).max(4),
    /** The calibration's target disagreement and risk, kept for the record (see its `guarantee`). */
    alpha: z.number().gt(0).lt(1).optional(),
    delta: z.number().gt(0).lt(1).optional(),
  })
  .strict();
export type Calibrated = z.infer<typeof CalibratedSchema>;

/** What the rules look at in a stage's verdict. */
export interface StageSignals {
  winner?: Winner;
  confidence: number;
  /** Null when the stage ran one order. */
  positionFlip: boolean | null;
  split: boolean;
  /** Replies of the stage that never parsed. */
  unparsed: number;
}

/**
 * True when the parsed votes cast in one order disagree: pairwise, more than one winner among them;
 * pointwise, more than one score. Votes without an order (one-order runs) form one group.
 */
export function votesSplit(votes: readonly Vote[]): boolean {
  const groups = new Map<string, Set<string>>();
  for (const v of votes) {
    if (!v.parsed) continue;
    const value = v.winner ?? (v.score !== undefined ? String(v.score) : undefined);
    if (value === undefined) continue;
    const key = v.order ?? '-';
    const seen = groups.get(key) ?? new Set<string>();
    seen.add(value);
    groups.set(key, seen);
  }
  return [...groups.values()].some((s) => s.size > 1);
}

/** The signals of a stage's verdict. */
export function signalsOf(
  verdict: Pick<Verdict, 'winner' | 'confidence' | 'positionFlip' | 'votes' | 'unparsed'>,
): StageSignals {
  return {
    ...(verdict.winner !== undefined ? { winner: verdict.winner } : {}),
    confidence: verdict.confidence,
    positionFlip: verdict.positionFlip,
    split: votesSplit(verdict.votes),
    unparsed: verdict.unparsed.length,
  };
}

/** The reasons the rules find to escalate (empty: the stage decides). */
export function escalationReasons(s: StageSignals, rules: Escalate): EscalationReason[] {
  const out: EscalationReason[] = [];
  if (rules.orderFlip && s.positionFlip === true) out.push('orders-disagree');
  if (rules.split && s.split) out.push('votes-split');
  if (rules.tie && s.winner === 'tie') out.push('tie');
  if (rules.unparsed && s.unparsed > 0) out.push('unparsed');
  if (s.confidence < rules.minConfidence) out.push('low-confidence');
  return out;
}

/** One stage as a cascade verdict reports it (`details.cascade.stages[k]`). */
export interface StageReport {
  stage: number;
  label: string;
  method: string;
  preset?: string;
  /** False for a stage the item never reached (no call made). */
  ran: boolean;
  /** The stage's own verdict and signals (when it ran). */
  winner?: Winner;
  score?: number;
  confidence?: number;
  positionFlip?: boolean | null;
  split?: boolean;
  unparsed?: number;
  /** The rules of the stage (absent for the last stage, which decides whatever it finds). */
  rules?: Escalate;
  /** Why it escalated (empty when it decided); absent for the last stage or a stage that did not run. */
  escalatedBecause?: EscalationReason[];
  /** Calls made (re-asks included), planned first-attempt calls, and usage of the stage. */
  calls: number;
  plannedCalls: number;
  usage: Usage;
}

/** What escalation saved on this item against running only the last stage. Positive = cheaper. */
export interface CascadeSavings {
  /** `measured`: the last stage ran, so its cost is known; `planned`: it did not, only its planned calls are. */
  basis: 'measured' | 'planned';
  calls: number;
  /** Null when not measured (see `basis`); the meta-evaluation report estimates them over a run. */
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | null;
}

/** `details.cascade` of a cascade verdict. */
export interface CascadeDetails {
  /** The stage whose verdict the cascade returns (under calibrated thresholds, the last stage of an abstention). */
  decidedBy: { stage: number; label: string };
  /**
   * Under calibrated thresholds, an item no stage trusted: the verdict has no winner, and this says which
   * stage abstained (the last) and why. Absent otherwise.
   */
  abstained?: { stage: number; label: string; reason: string };
  /** True when every stage ran whatever the rules said (a calibration run). */
  runAllStages: boolean;
  stages: StageReport[];
  /** Against the last stage alone on this item: what the cascade would spend up to the deciding stage, subtracted from it. */
  savings: CascadeSavings;
}
