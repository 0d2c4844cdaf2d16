/**
 * @module
 * The engine's input error: a config, task or rubric a method cannot run, surfaced as a 4xx by the API.
 */

/** Thrown for a config, task or rubric the method cannot run (a user error, surfaced as 4xx by the API). */
export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
  constructor(
    message: string,
    /** Stable code, e.g. `task_kind_unsupported`, `unknown_method`, `rubric_task_mismatch`. */
    readonly code: string,
    /** Each failing field with its full path from the request (`config.turns`, `preset`), when known. */
    readonly issues?: readonly { path: string; message: string }[],
  ) {
    super(message);
  }
}

/** Zod issues as `<prefix>.<path>: message; …`, naming each field (e.g. `rubric.aspects.2.name: …`). */
export function issuesMessage(
  prefix: string,
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
): string {
  return error.issues.map((i) => `${[prefix, ...i.path.map(String)].join('.')}: ${i.message}`).join('; ');
}
