/**
 * @module
 * A held evaluation's first calls ask the provider gate for their slots while its D1 insert is in flight
 * (./held.ts), so the gate's exchange overlaps the insert's round trip instead of following it on the waited
 * verdict's path. Nothing is sent any sooner: the calls still go only once the insert admitted the row and the
 * start ran them (a replay, the tenant's cap or a verdict cache hit sends nothing), and every slot their first
 * attempts did not take is given back (`GateChannel.drop`: a granted one with outcome `failed`, which neither grows
 * nor shrinks the window; one still asked for withdrawn). Asked under a lease id of its own (`…/ahead`), so a slot
 * given back late never frees the one an attempt asked for itself.
 */
import { createEvaluation, readyCalls } from '../../src/engine/protocol.js';
import { getMethod, parsedMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import { budgetOf } from '../../src/budgets/call-check.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import type { HeldAdmission } from '../../src/evaluations/held-types.js';
import { supportsNOf } from '../../src/llm/settings.js';
import type { Caller } from './calls.js';

/**
 * Whether a held job's first calls ask ahead: only when the insert cannot make it a verdict cache hit (no hit
 * lookup: the cache is `off`, `bypass` or `refresh`), and not at the batch tier (its calls go in waves, through no
 * gate). A hit would hold its slot only for the insert's round trip and cost the gate an ask and a release for no
 * call: a burst of hits would then break the bound on a gate shard's requests (at most 2 × its slots per call
 * latency, docs/scale.md), so a request the cache may serve asks after its insert, as before.
 */
export function asksAhead(a: HeldAdmission): boolean {
  return a.decisions.hit === null && a.job.tier !== 'batch';
}

/**
 * Asks the gate of `caller` ahead for the slots of `job`'s first ready calls, routed as the client routes them
 * (provider and model, the defaults' when the call names none). Nothing without a gate, with a budget (its check
 * may refuse the first call), or when the job or the settings cannot be used: the start finds that out and says why.
 */
export function askAhead(caller: Caller, job: StartJob): void {
  const gate = caller.gateOf(job);
  if (!gate) return;
  try {
    const settings = caller.settingsOf();
    const method = getMethod(job.method);
    const rubric = job.rubric ? (JSON.parse(job.rubric) as RubricContent) : undefined;
    const state = createEvaluation(method, parsedMethodConfig(job.config), JSON.parse(job.task) as Task, rubric);
    if (budgetOf(state.config)) return;
    const calls = readyCalls(method, state, { supportsN: supportsNOf(settings) }).map((r) => ({
      provider: r.provider ?? settings.defaultProvider,
      model: r.model ?? settings.defaultModel,
      callId: r.id,
    }));
    gate.prefetch(calls.filter((c) => settings.providers[c.provider] !== undefined));
  } catch {
    // Bad stored input or unusable settings: no slot asked for; the start fails it with the reason.
  }
}
