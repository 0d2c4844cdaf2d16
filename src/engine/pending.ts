/**
 * @module
 * The calls a state is waiting on: each order's pending calls (stepped through the method, stepped in step
 * under a budget), and the requests planned for them, sampling groups merged where the provider takes `n`.
 * Read by the protocol core (./protocol.ts) to list ready calls and to match a result to its call.
 */
import type { AnyMethod, CallSpec } from './method.js';
import { orderKeyOf, prefixOf, taskFor } from './orders.js';
import type { PendingCall, PlannedRequest } from './samples.js';
import { groupTag, planRequests } from './samples.js';
import type { EngineState } from './state.js';
import { stepOf } from './step-memo.js';

/** The method's pending calls per order, with full (prefixed) ids. */
function pendingSpecs(method: AnyMethod, state: EngineState): PendingCall[] {
  const out: PendingCall[] = [];
  state.orders.forEach((o, order) => {
    const r = stepOf(method, state.config, taskFor(state, o.key), o.m);
    if (r.kind !== 'calls') return;
    for (const spec of r.calls) {
      const fullId = prefixOf(o.key) + spec.id;
      if (state.ledger[fullId]?.final) continue;
      out.push({ order, spec, fullId });
    }
  });
  return state.config.budget !== undefined && state.orders.length > 1 ? inStep(state, out) : out;
}

/**
 * Under a budget, the pending calls of the orders that have recorded the fewest calls: orders advance in
 * step, so which order's replies come back first cannot spend the budget on one order's later turns while
 * another has not reached the point where it can conclude (the submit's floor drives the same schedule).
 */
function inStep(state: EngineState, pending: PendingCall[]): PendingCall[] {
  const done = state.orders.map((o) => {
    const prefix = prefixOf(o.key);
    return Object.entries(state.ledger).filter(([id, e]) => e.final && id.startsWith(prefix)).length;
  });
  const least = Math.min(...pending.map((p) => done[p.order] ?? 0));
  return pending.filter((p) => (done[p.order] ?? 0) === least);
}

/** The pending (not yet final) call with this base id, stepping only the order its prefix names. */
export function pendingSpec(method: AnyMethod, state: EngineState, base: string): PendingCall | undefined {
  if (state.ledger[base]?.final) return undefined;
  const key = orderKeyOf(base);
  // Without calibration the only order is `main`, whose ids carry no prefix whatever they start with.
  const order = state.orders.findIndex((o) => o.key === key || o.key === 'main');
  const o = state.orders[order];
  if (!o) return undefined;
  const r = stepOf(method, state.config, taskFor(state, o.key), o.m);
  if (r.kind !== 'calls') return undefined;
  const prefix = prefixOf(o.key);
  const spec = r.calls.find((c) => prefix + c.id === base);
  return spec ? { order, spec, fullId: base } : undefined;
}

/** The sampling group tag of a pending call, or undefined when it stands alone. */
export function tagOf(state: EngineState, p: PendingCall): string | undefined {
  const key = state.orders[p.order]?.key;
  return p.spec.sampleOf === undefined || key === undefined ? undefined : groupTag(prefixOf(key), p.spec.sampleOf);
}

/**
 * The requests for the pending calls: sampling groups merged where `supportsN` says their provider takes
 * `n`. `applyResult` (./protocol.ts) plans with every group mergeable (`() => true`), so the choices a stored result
 * carries fill the same members whatever the capability says now: a result without `choices` fills one.
 */
export function plannedRequests(
  method: AnyMethod,
  state: EngineState,
  supportsN: (call: CallSpec) => boolean,
): PlannedRequest[] {
  const pending = pendingSpecs(method, state);
  const asked = new Set(Object.values(state.ledger).flatMap((e) => (e.sampleOf !== undefined ? [e.sampleOf] : [])));
  return planRequests(
    pending,
    (p) => (supportsN(p.spec) ? tagOf(state, p) : undefined),
    asked,
    (id) => state.ledger[id] === undefined,
  );
}

/** Every sampling group mergeable: the plan a result's choices are matched against. */
export const ANY_PROVIDER = (): boolean => true;
