/**
 * @module
 * The API's shapes as the viewer reads them: type-only imports of the Worker's own zod schemas and event
 * types, so a change to the API contract fails `npm run typecheck` here instead of breaking the page.
 * Nothing here reaches the bundle (`import type` is erased).
 */
import type { z } from 'zod';
import type { ErrorBody } from '../../api/errors.js';
import type {
  CreateEvaluationRequest,
  Evaluation,
  EvaluationAccepted,
  MetaEvaluation,
  MethodsResponseSchema,
  TranscriptMessage,
  TranscriptSchema,
  UsageTotals,
  VerdictSummary,
} from '../../api/schemas.js';
import type { EvaluationEvent } from '../../pipeline/events.js';

export type { CreateEvaluationRequest, ErrorBody, Evaluation, EvaluationAccepted, EvaluationEvent, MetaEvaluation, TranscriptMessage, UsageTotals, VerdictSummary };
export type { Vote } from '../../engine/verdict.js';
export type { AgreementReport, PairwiseReport, PointwiseReport, Estimate } from '../../meta/metrics.js';
export type { PairwiseTask, PointwiseTask, Task } from '../../engine/task.js';

/** Answer to `GET /v1/evaluations/{id}/transcript`. */
export type Transcript = z.infer<typeof TranscriptSchema>;
/** Answer to `GET /v1/methods`. */
export type MethodsResponse = z.infer<typeof MethodsResponseSchema>;
/** One preset of `GET /v1/methods`. */
export type PresetInfo = MethodsResponse['presets'][number];
/** Status of an evaluation. */
export type EvaluationStatus = Evaluation['status'];
