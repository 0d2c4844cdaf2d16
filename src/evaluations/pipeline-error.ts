/**
 * @module
 * Typed pipeline errors with stable codes. Codes end up in D1 (`evaluations.error_code`) and API responses.
 */

/** Stable codes of failures the pipeline itself decides (LLM failures keep the LLM layer's codes). */
export type PipelineErrorCode =
  /** The evaluation row does not exist in D1. */
  | 'not_found'
  /** `start(id)` reached a Durable Object that is not the one for `id`. */
  | 'wrong_object'
  /** The stored config/task cannot be run by the engine (normally rejected by the API first). */
  | 'invalid_evaluation'
  /** The engine listed no ready calls and no outcome (a method bug). */
  | 'engine_stuck'
  /**
   * The deployment's engine version for the method differs from the one the evaluation started with
   * (src/engine/version.ts): its stored calls cannot be replayed, so it ends without new calls.
   */
  | 'engine_version_changed'
  /** A status change the status module does not allow (src/evaluations/status.ts): a bug. */
  | 'invalid_transition'
  /** The alarm kept throwing (bug, storage reset) past the retry bound. */
  | 'internal_error'
  /** The job message went to the dead-letter queue: no consumer managed to start the evaluation. */
  | 'queue_delivery_failed';

/** An error the pipeline raises on purpose; `code` is stable, `message` is for humans. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
  constructor(
    readonly code: PipelineErrorCode,
    message: string,
  ) {
    super(message);
  }
}
