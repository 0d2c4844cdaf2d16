/**
 * @module
 * The protocol core's side of a nesting method (the cascade, `MethodDefinition.applyRaw`): its requests are
 * complete as its `step` lists them, and each raw reply is recorded in the ledger (for the transcript, usage
 * and idempotency) with what the inner protocol made of it, leaving parsing and re-asks to the inner protocols.
 */
import type { LlmCallRequest, LlmCallResult } from './call.js';
import type { Attempt } from './ledger.js';
import { splitCallId } from './ledger.js';
import type { AnyMethod, RawApplied } from './method.js';
import { orderKeyOf, prefixOf, taskFor } from './orders.js';
import type { EngineState } from './state.js';
import { stepOf } from './step-memo.js';

/** A nesting method's requests, as its `step` lists them per order (ids prefixed by the order, messages final). */
export function nestedCalls(method: AnyMethod, state: EngineState): LlmCallRequest[] {
  return state.orders.flatMap((o) => {
    const r = stepOf(method, state.config, taskFor(state, o.key), o.m);
    return r.kind === 'calls' ? r.calls.map((c) => ({ ...c, id: prefixOf(o.key) + c.id })) : [];
  });
}

/**
 * `applyResult` (./protocol.ts) for a nesting method: a result whose id its `step` does not list now is ignored; a
 * failure ends the evaluation; a reply is recorded in the ledger with what the inner protocol made of it.
 */
export function applyNested(method: AnyMethod, state: EngineState, result: LlmCallResult): EngineState {
  const { base, attempt } = splitCallId(result.id);
  const key = orderKeyOf(base);
  const order = state.orders.findIndex((o) => o.key === key || o.key === 'main');
  const o = state.orders[order];
  if (!o || !method.applyRaw) return state;
  const prefix = prefixOf(o.key);
  const task = taskFor(state, o.key);
  const r = stepOf(method, state.config, task, o.m);
  const spec = r.kind === 'calls' ? r.calls.find((c) => prefix + c.id === result.id) : undefined;
  if (!spec) return state;
  const prior = state.ledger[base];
  if ((prior?.attempts.length ?? 0) !== attempt) return state;
  if (!result.ok) return { ...state, failure: { callId: result.id, ...result.error } };
  const applied: RawApplied<unknown> = method.applyRaw(state.config, task, o.m, {
    id: result.id.slice(prefix.length),
    content: result.content,
    model: result.model,
    usage: result.usage,
  });
  const attempts: Attempt[] = [
    ...(prior?.attempts ?? []),
    {
      content: result.content,
      model: result.model,
      usage: result.usage,
      ...(applied.parseError !== undefined ? { parseError: applied.parseError } : {}),
    },
  ];
  return {
    ...state,
    ledger: {
      ...state.ledger,
      [base]: { agent: spec.agent, label: spec.label, stage: spec.stage, attempts, final: applied.final },
    },
    log: [...state.log, `${base}#${attempt}`],
    orders: state.orders.map((x, i) => (i === order ? { key: x.key, m: applied.state } : x)),
  };
}
