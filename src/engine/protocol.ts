/**
 * @module
 * The protocol core: one resumable state machine for every method.
 *
 * - {@link createEvaluation} builds a plain-JSON {@link EngineState} from a resolved config and a task;
 * - {@link readyCalls} lists every LLM call that can run now (ids stable; parallel calls listed together);
 * - {@link applyResult} records one call's result; a result for an id that is not ready (a duplicate or a
 *   stale delivery) leaves the state unchanged, so drivers may deliver at least once;
 * - {@link outcome} is the verdict or the failure once there is one.
 *
 * Shared by all methods: replies that do not parse are re-asked up to `parseRetries` times (with a repair
 * instruction, or with the identical prompt when `repair` is `resend`), then handed to the method as
 * unparsed; pairwise tasks with calibration run the method in both orders (ids prefixed `ab/` and `ba/`) and
 * combine the two verdicts ({@link ./calibration.ts}).
 *
 * A method that runs other methods' protocols inside its state (the cascade, `MethodDefinition.applyRaw`)
 * is nested: its `step` lists complete requests, and the core records each raw reply in the ledger (for the
 * transcript, usage and idempotency) and hands it to `applyRaw`, leaving parsing, re-asks and calibration
 * to the inner protocols (./nested.ts). The state's types live in ./state.ts, the verdict a finished state
 * concludes in ./conclusion.ts.
 *
 * Calls a method marks as samples of one prompt (`sampleOf`) go out as one request with `n` (./samples.ts)
 * where the driver says the provider takes `n` (`readyCalls`' `supportsN`), else as separate calls in one
 * wave. A request's further choices are recorded as the other samples' first replies (`request` in the
 * transcript names the request, whose own entry carries its usage), and `usageOf` (./ledger.ts) counts it as one call.
 *
 * Budgets (src/budgets/): a driver that refuses a call records it as a failed result with code
 * `budget_exceeded` (no LLM call is made). Applying it hands the refusal to the method's optional
 * `truncate`, which concludes with what it has (the verdict then carries `budgetTruncated: true` and what
 * was cut), or fails the evaluation like any other failed call. Stored refusals replay like results.
 */
import { BUDGET_EXCEEDED } from './budget.js';
import { EngineInputError } from './errors.js';
import type { LlmCallRequest, LlmCallResult } from './call.js';
import { ZERO_USAGE } from './call.js';
import type { Attempt, LedgerEntry } from './ledger.js';
import { splitCallId } from './ledger.js';
import type { AnyMethod, CallSpec, RawApplied } from './method.js';
import { parseReply, repairInstruction } from './parsers/parse.js';
import { aspectKey } from './aspects.js';
import type { AnyTask, JudgedTask } from './judged.js';
import { parseRubric } from './judged.js';
import type { OrderKey } from './orders.js';
import { taskFor } from './orders.js';
import type { PendingCall } from './samples.js';
import { ANY_PROVIDER, pendingSpec, plannedRequests, tagOf } from './pending.js';
import { computeOutcome } from './conclusion.js';
import { applyNested, nestedCalls } from './nested.js';
import type { EngineState, Outcome } from './state.js';
import { ENGINE_STATE_VERSION, answersOf } from './state.js';

/** The orders of a new evaluation: both presentations when calibrated, one run per aspect, else `main`. */
function orderKeys(method: AnyMethod, config: EngineState['config'], view: JudgedTask): OrderKey[] {
  if (view.kind === 'pointwise' && view.aspects !== undefined && !(method.aspectsAtOnce?.(config) ?? false))
    return view.aspects.map((_, i) => aspectKey(i));
  // A nesting method has no calibration of its own: its inner protocols calibrate.
  return !method.applyRaw && view.kind === 'pairwise' && config.calibration.enabled ? ['ab', 'ba'] : ['main'];
}

/**
 * Whether this config judges a pairwise task in both presentation orders itself (position calibration:
 * the verdict combines AB and BA and says whether they disagreed, `positionFlip`), or in one order only.
 * A nesting method answers for its inner protocols (`MethodDefinition.judgesBothOrders`, default false).
 */
export function judgesBothOrders(method: AnyMethod, config: EngineState['config']): boolean {
  if (method.applyRaw) return method.judgesBothOrders?.(config) ?? false;
  return config.calibration.enabled;
}

/**
 * Creates the initial state. `config` must already be resolved by the method's schema
 * (see `resolveMethodConfig` in the registry). The rubric is an input beside the task, not part of the
 * config: without one the state is exactly what it was before rubrics existed.
 * @param rubric the criteria to judge by (parsed here); each method puts them in its templates' slot.
 * @throws EngineInputError when the method does not accept the task kind, the rubric is invalid or of the
 *   other kind (`rubric.kind`), the task lacks what the method needs, or a template has no criteria slot.
 */
export function createEvaluation(
  method: AnyMethod,
  config: EngineState['config'],
  task: AnyTask,
  rubric?: unknown,
): EngineState {
  // A trajectory is judged as a pointwise task (./trajectory.ts).
  if (!method.taskKinds.includes(task.kind === 'trajectory' ? 'pointwise' : task.kind)) {
    throw new EngineInputError(
      `task.kind: method "${method.method}" judges ${method.taskKinds.join(' or ')} tasks, not ${task.kind} ones`,
      'task_kind_unsupported',
    );
  }
  // Only the single judge's templates can hold a pointwise reference (its own check needs the slot there).
  if (task.kind === 'pointwise' && task.reference !== undefined && method.method !== 'single')
    throw new EngineInputError(
      `task.reference: method "${method.method}" has no slot for a pointwise task's expected output; use the single judge with a template that has {{reference}}, or leave it out`,
      'invalid_task',
    );
  const parsed = rubric === undefined ? undefined : parseRubric(rubric);
  const state = { task, ...(parsed ? { rubric: parsed } : {}) };
  const keys = orderKeys(method, config, taskFor(state, 'main'));
  return {
    v: ENGINE_STATE_VERSION,
    method: method.method,
    config,
    ...state,
    orders: keys.map((key) => ({ key, m: method.init(config, taskFor(state, key)) })),
    ledger: {},
    log: [],
  };
}

/** Options of {@link readyCalls}. */
export interface ReadyOptions {
  /**
   * Whether the provider a call goes to is declared to honour OpenAI's `n` (the driver's LLM settings:
   * `LLM_SUPPORTS_N`, `supportsN` per provider). Only such calls' sampling groups are asked in one request
   * with `n` (`samples.ts`); every other sample is a call of its own, all in the same wave. Default: none
   * does, so nothing is grouped. A nesting method (the cascade) passes none: it records one reply per request.
   */
  supportsN?: (call: CallSpec) => boolean;
}

/** No provider takes `n`: the default of {@link ReadyOptions.supportsN}. */
const NO_PROVIDER = (): boolean => false;

/**
 * The call ids a result for this ready request fills with its choices, in choice order (its own id
 * first); `[id]` when it is no sampling group's lead. Drivers and tests use it to label each choice.
 */
export function samplesOf(method: AnyMethod, state: EngineState, requestId: string): string[] {
  const planned = method.applyRaw
    ? undefined
    : plannedRequests(method, state, ANY_PROVIDER).find((r) => r.lead.fullId === requestId);
  return planned && planned.members.length > 1 ? planned.members.map((m) => m.fullId) : [requestId];
}

/**
 * LLM calls that can run now. Empty when the evaluation is finished or failed. Samples of one prompt go as
 * one request with `n` only where `options.supportsN` says the provider takes it; else each is its own call.
 * Remembered per state object (and method and `supportsN` function): pass the same function to be answered
 * from memory. The requests are shared between answers: read them, never change them.
 */
export function readyCalls(method: AnyMethod, state: EngineState, options: ReadyOptions = {}): LlmCallRequest[] {
  const a = answersOf(state);
  if (a.ready?.method === method && a.ready.supportsN === options.supportsN) return [...a.ready.value];
  const value = computeReadyCalls(method, state, options);
  a.ready = { method, supportsN: options.supportsN, value };
  return [...value];
}

function computeReadyCalls(method: AnyMethod, state: EngineState, options: ReadyOptions): LlmCallRequest[] {
  if (state.failure) return [];
  if (method.applyRaw) return nestedCalls(method, state);
  return plannedRequests(method, state, options.supportsN ?? NO_PROVIDER).map(({ lead: { spec, fullId }, members }) => {
    const attempts = state.ledger[fullId]?.attempts ?? [];
    const messages = [...spec.messages];
    // `resend` (ChatEval's agents) asks again with the identical prompt; `instruct` names the expected format.
    if (state.config.repair !== 'resend') {
      for (const a of attempts) {
        messages.push({ role: 'assistant', content: a.content });
        messages.push({ role: 'user', content: repairInstruction(spec.parser, a.parseError ?? 'unknown format') });
      }
    }
    const { sampleOf: _sampleOf, ...request } = spec;
    return {
      ...request,
      id: attempts.length === 0 ? fullId : `${fullId}#${attempts.length}`,
      messages,
      ...(members.length > 1 ? { n: members.length } : {}),
    };
  });
}

/**
 * Records one result. Idempotent: a result whose id is not ready now (already recorded, or from a stale
 * state) returns the state unchanged. A failed result ends the evaluation with that failure.
 */
export function applyResult(method: AnyMethod, state: EngineState, result: LlmCallResult): EngineState {
  if (state.failure) return state;
  if (method.applyRaw) return applyNested(method, state, result);
  const { base, attempt } = splitCallId(result.id);
  const pending = pendingSpec(method, state, base);
  if (!pending) return state;
  const prior = state.ledger[base];
  if ((prior?.attempts.length ?? 0) !== attempt) return state;
  if (!result.ok)
    return (
      (result.error.code === BUDGET_EXCEEDED && truncated(method, state, pending, result.id, result.error.message)) || {
        ...state,
        failure: { callId: result.id, ...result.error },
      }
    );

  const choices = result.choices ?? [result.content];
  // A request with `n` stood for the group's fresh members: its further choices are their first replies.
  const members =
    attempt === 0 && choices.length > 1
      ? (plannedRequests(method, state, ANY_PROVIDER).find((r) => r.lead.fullId === base)?.members ?? [pending])
      : [pending];
  let next = recordReply(method, state, pending, {
    content: choices[0] ?? result.content,
    model: result.model,
    usage: result.usage,
  });
  for (const [j, member] of members.entries()) {
    const content = choices[j];
    if (j === 0 || content === undefined) continue;
    // The member is still pending and fresh unless the method concluded on the replies before it.
    const now = next.ledger[member.fullId] ? undefined : pendingSpec(method, next, member.fullId);
    if (now) next = recordReply(method, next, now, { content, model: result.model, usage: ZERO_USAGE, choiceOf: base });
  }
  return next;
}

/** Records one reply for a pending call (its next attempt): parses it, re-asks or hands the method the final reply. */
function recordReply(
  method: AnyMethod,
  state: EngineState,
  pending: PendingCall,
  reply: Omit<Attempt, 'parseError'>,
): EngineState {
  const { spec, order, fullId: base } = pending;
  const prior = state.ledger[base];
  const attempt = prior?.attempts.length ?? 0;
  const parsed = parseReply(spec.parser, reply.content);
  const attempts: Attempt[] = [
    ...(prior?.attempts ?? []),
    { ...reply, ...(parsed.ok ? {} : { parseError: parsed.reason }) },
  ];
  const final = parsed.ok || parsed.final === true || attempts.length > state.config.parseRetries;
  const tag = tagOf(state, pending);
  const entry: LedgerEntry = {
    agent: spec.agent,
    label: spec.label,
    stage: spec.stage,
    attempts,
    final,
    ...(tag !== undefined ? { sampleOf: tag } : {}),
  };
  const next: EngineState = {
    ...state,
    ledger: { ...state.ledger, [base]: entry },
    log: [...state.log, `${base}#${attempt}`],
  };
  if (!final) return next;
  const o = state.orders[order];
  if (!o) return next;
  const handed = parsed.ok
    ? { callId: spec.id, ok: true as const, value: parsed.value, content: reply.content }
    : { callId: spec.id, ok: false as const, reason: parsed.reason, content: reply.content };
  const m = method.reduce(state.config, taskFor(state, o.key), o.m, handed);
  next.orders = state.orders.map((x, i) => (i === order ? { key: x.key, m } : x));
  return next;
}

/**
 * A nesting method's raw reply applied to one inner protocol's state (a cascade stage, a repeat's run):
 * `innerId` is the inner request's id (re-ask suffix included). The new inner state and, for the transcript,
 * how the reply read and whether the inner protocol is done with the call.
 */
export function applyInnerReply(
  method: AnyMethod,
  inner: EngineState,
  innerId: string,
  reply: Pick<LlmCallResult & { ok: true }, 'content' | 'model' | 'usage'>,
): RawApplied<EngineState> {
  const next = applyResult(method, inner, {
    id: innerId,
    ok: true,
    content: reply.content,
    model: reply.model,
    usage: reply.usage,
  });
  const { base, attempt } = splitCallId(innerId);
  const entry = next.ledger[base];
  const parseError = entry?.attempts[attempt]?.parseError;
  return { state: next, ...(parseError !== undefined ? { parseError } : {}), final: entry?.final ?? true };
}

/**
 * The state after a budget refused `callId` (a pending call of order `pending.order`), when the method can
 * conclude without it: its `truncate` returns a state that no longer lists the refused call. Else undefined.
 */
function truncated(
  method: AnyMethod,
  state: EngineState,
  pending: PendingCall,
  callId: string,
  message: string,
): EngineState | undefined {
  const o = state.orders[pending.order];
  if (!o || !method.truncate) return undefined;
  const task = taskFor(state, o.key);
  const m = method.truncate(state.config, task, o.m, { callId: pending.spec.id });
  if (m === null) return undefined;
  const after = method.step(state.config, task, m);
  // A method that lists the refused call again would be refused forever: that is a failure, not a truncation.
  if (after.kind === 'calls' && after.calls.some((c) => c.id === pending.spec.id)) return undefined;
  return {
    ...state,
    orders: state.orders.map((x, i) => (i === pending.order ? { key: x.key, m } : x)),
    budgetRefused: [...(state.budgetRefused ?? []), { callId, message }],
  };
}

/**
 * Whether this method and config carry G-Eval style evaluation steps (`MethodDefinition.usesEvaluationSteps`),
 * so that a rubric without `evaluationSteps` is worth completing by `rubric-steps` (auto-CoT) first.
 */
export function wantsEvaluationSteps(method: AnyMethod, config: EngineState['config']): boolean {
  return method.usesEvaluationSteps?.(config) ?? false;
}

/** Planned first-attempt calls for progress (both orders when calibrated). */
export function plannedCalls(method: AnyMethod, state: EngineState): number {
  return state.orders.reduce((n, o) => n + method.plannedCalls(state.config, taskFor(state, o.key)), 0);
}

/**
 * The verdict or failure, or null while calls remain. Remembered per state object (and method), as
 * {@link readyCalls} is: the verdict is shared between answers, read it, never change it.
 */
export function outcome(method: AnyMethod, state: EngineState): Outcome | null {
  const a = answersOf(state);
  if (a.outcome?.method === method) return a.outcome.value;
  const value = computeOutcome(method, state);
  a.outcome = { method, value };
  return value;
}
