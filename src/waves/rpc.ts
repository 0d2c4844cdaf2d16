/**
 * @module
 * What an evaluation's object and a wave coordinator say to each other (docs/architecture.md, "Provider
 * batches in waves"): an item registers its ready calls with the coordinator of their (group, provider, model),
 * the coordinator hands each line's outcome back to the item, and an ended item withdraws its calls.
 */
import type { BatchLineOutcome } from '../llm/batch-lines.js';
import type { BatchInputLine } from '../llm/request.js';

/** One call an item registers with a coordinator. */
export interface WaveCall {
  /** The engine's call id (unique in its evaluation). */
  callId: string;
  /** Which try of the call this is, 1-based: a failed or expired line registers again with the next one. */
  attempt: number;
  /** The Batch API input line, built by `batchLine` over the same `buildChatBody` as the other tiers. */
  line: BatchInputLine;
}

/** The outcome of one registered call, as the coordinator hands it to its item. */
export interface WaveResult {
  callId: string;
  /** The try it answers ({@link WaveCall.attempt}): a stale one (already retried or stored) is ignored. */
  attempt: number;
  /** The line's outcome as `readBatchLine` read it. */
  outcome: BatchLineOutcome;
  /** From the wave's submission to its results, ms. */
  latencyMs: number;
}

/** A wave coordinator's RPC (durable-objects/wave-coordinator/). */
export interface WaveCoordinatorRpc {
  /**
   * Registers calls of one evaluation, idempotently by (evaluation, call, attempt). `name` is the
   * coordinator's own name ({@link coordinatorName}); an item with nothing ready may register no call.
   */
  register(name: string, evaluationId: string, calls: WaveCall[]): Promise<void>;
  /**
   * Drops the evaluation's calls not yet delivered; a provider batch left with none of its calls is cancelled.
   * Answers the call ids whose lines may run at the provider all the same (already uploaded or submitted):
   * their outcomes are still delivered, and the item stores and bills them, as a synchronous call in flight at
   * a cancel is.
   */
  withdraw(name: string, evaluationId: string): Promise<string[]>;
}

/** The item's side: the evaluation's object (durable-objects/evaluation/). */
export interface WaveItemRpc {
  /**
   * Stores the results (each through the idempotent result store), then answers the item's next ready calls
   * for the coordinator `name` (its calls for other coordinators it registers itself).
   */
  batchResults(evaluationId: string, name: string, results: WaveResult[]): Promise<WaveCall[]>;
}

/** The separator of a coordinator's name: group ids, provider ids and model names do not contain it. */
const SEP = '|';

/** The name of the coordinator of one group's calls to one provider and model (`idFromName` of it). */
export function coordinatorName(group: string, provider: string, model: string): string {
  return [group, provider, model].join(SEP);
}

/** The parts of a coordinator's name. */
export function parseCoordinatorName(name: string): { group: string; provider: string; model: string } {
  const [group = '', provider = '', ...model] = name.split(SEP);
  return { group, provider, model: model.join(SEP) };
}
