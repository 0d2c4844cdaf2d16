/**
 * @module
 * Engine versions, pinned per evaluation.
 *
 * A driver replays stored results through today's code (the Durable Object rebuilds its state after
 * every eviction and deploy). If a deploy changed a method's step order, ids or prompts, that replay
 * would rebuild a different state: the evaluation could end `engine_stuck`, or ask for a call it has
 * already paid for under another id. So each evaluation stores the version it started with, and a
 * driver only continues it while the running code has the same version; otherwise it ends the
 * evaluation `failed` with code `engine_version_changed`, keeping every stored call (billed, in the
 * transcript) and making no new one.
 *
 * The version is `<ENGINE_STATE_VERSION>/<method id>@<method version>`, e.g. `1/chateval@1`:
 * - `ENGINE_STATE_VERSION` (src/engine/protocol.ts) covers the protocol core every method shares
 *   (state shape, call ids, parse-and-repair, calibration): bump it when the core changes how stored
 *   results replay;
 * - the method's `version` (MethodDefinition, default 1) covers the method itself: bump it when its
 *   steps, ids, prompts or reducer change.
 * Changes that leave replay identical (docs, refactors, new presets that only set config) bump nothing.
 */
import type { AnyMethod } from './method.js';
import { ENGINE_STATE_VERSION } from './state.js';

/** A method's version when its definition names none. */
export const DEFAULT_METHOD_VERSION = 1;

/**
 * The engine version the running code has for `method`, e.g. `1/debate@1`.
 * @param method the method definition (its id and optional `version`, default {@link DEFAULT_METHOD_VERSION}).
 */
export function engineVersionOf(method: Pick<AnyMethod, 'method' | 'version'>): string {
  return `${ENGINE_STATE_VERSION}/${method.method}@${method.version ?? DEFAULT_METHOD_VERSION}`;
}

/**
 * The version recorded for evaluations that started before versions were pinned: the first engine
 * state and every method at version 1, i.e. `1/<method>@1` (`<method>` filled in per evaluation).
 */
export function baselineEngineVersion(methodId: string): string {
  return `1/${methodId}@1`;
}
