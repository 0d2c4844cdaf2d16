/**
 * @module
 * The state of one evaluation as the protocol core (./protocol.ts) keeps it, its outcome, and what the core
 * answered for a state object (so that asking again the same question of the same state costs nothing).
 */
import type { LlmCallRequest, LlmError } from './call.js';
import type { LedgerEntry } from './ledger.js';
import type { AnyMethod, Calibration, CallSpec, Repair } from './method.js';
import type { AnyTask } from './judged.js';
import type { OrderKey } from './orders.js';
import type { RubricContent } from './rubric.js';
import type { Verdict } from './verdict.js';

/** Version of {@link EngineState}; bumped on any incompatible change. */
export const ENGINE_STATE_VERSION = 1;

/** The whole state of one evaluation. Plain JSON: store it, send it, restore it anywhere. */
export interface EngineState {
  v: typeof ENGINE_STATE_VERSION;
  method: string;
  /** The resolved method config (defaults filled). */
  config: { method: string; parseRetries: number; calibration: Calibration; repair?: Repair } & Record<string, unknown>;
  /** The task as the request gave it (or as a nesting method's stage got it). */
  task: AnyTask;
  /** The rubric the evaluation judges by, parsed (absent: the method's own criteria, exactly as without rubrics). */
  rubric?: RubricContent;
  /** The method's own state per order: presentation order, or aspect (./orders.ts). */
  orders: { key: OrderKey; m: unknown }[];
  /** Results by base call id (order prefix included, repair suffix excluded). */
  ledger: Record<string, LedgerEntry>;
  /** `baseId#attempt` in the order results were recorded: the transcript order. */
  log: string[];
  /** The terminal LLM failure that ended the evaluation, if any. */
  failure?: { callId: string } & LlmError;
  /** Calls a budget refused and the method truncated at (absent when none), in the order refused. */
  budgetRefused?: { callId: string; message: string }[];
}

/** Outcome of an evaluation: a verdict, or a terminal failure with its reason. */
export type Outcome =
  { status: 'succeeded'; verdict: Verdict } | { status: 'failed'; error: { callId: string } & LlmError };

/**
 * What `readyCalls` and `outcome` (./protocol.ts) answered for a state, by state object. A state is a value: every
 * function of the core returns a new object for a changed state and never changes one it was given, so the answer for
 * an object never changes. Drivers ask both several times per result on the same state (is it over? which call
 * is this? what goes next?), and each answer steps every order's method, building its prompts. Weak: a state
 * no longer referenced takes its answers with it.
 */
export interface Answers {
  outcome?: { method: AnyMethod; value: Outcome | null };
  ready?: { method: AnyMethod; supportsN: ((call: CallSpec) => boolean) | undefined; value: readonly LlmCallRequest[] };
}
const answers = new WeakMap<EngineState, Answers>();

/** The answers remembered for this state object (an empty record the first time it is asked). */
export function answersOf(state: EngineState): Answers {
  let a = answers.get(state);
  if (!a) {
    a = {};
    answers.set(state, a);
  }
  return a;
}
