/**
 * @module
 * The API's shapes as the viewer reads them (type-only imports: no server code reaches the bundle):
 * - requests and answers from src/client/api-types.ts, the types generated from the API's OpenAPI
 *   document (`npm run client:types`, kept current by tests/client/api-types.test.ts), which is generated
 *   from the routes' zod schemas: the viewer is a client of the published contract;
 * - the live events from src/evaluations/live-events.ts (the stream's data is not in the document), which names
 *   only platform-free engine types.
 * So a change to the contract fails `npm run typecheck` here instead of breaking the page, and the
 * browser code never type-checks Worker modules (their workerd globals clash with the DOM's).
 */
import type { components } from '../../client/api-types.js';

type Schemas = components['schemas'];

/** Answer to `GET /health` (its `auth`: what `/v1` asks of a caller). */
export type Health = Schemas['Health'];
/** `{ error: { code, message, issues? } }`. */
export type ErrorBody = Schemas['Error'];
/** Body of `POST /v1/evaluations`. */
export type CreateEvaluationRequest = Schemas['CreateEvaluationRequest'];
/** Answer to `POST /v1/evaluations`. */
export type EvaluationAccepted = Schemas['EvaluationAccepted'];
/** Answer to `GET /v1/evaluations/{id}`. */
export type Evaluation = Schemas['Evaluation'];
/** Status of an evaluation. */
export type EvaluationStatus = Schemas['EvaluationStatus'];
/** A verdict without its transcript (the document marks the component nullable, as `Evaluation.verdict` is). */
export type VerdictSummary = NonNullable<Schemas['VerdictSummary']>;
/** One agent's vote or score. */
export type Vote = VerdictSummary['votes'][number];
/** Answer to `GET /v1/evaluations/{id}/task`. */
export type EvaluationTask = Schemas['EvaluationTask'];
/** Answer to `GET /v1/evaluations/{id}/transcript`. */
export type Transcript = Schemas['Transcript'];
/** Answer to `GET /v1/methods`. */
export type MethodsResponse = Schemas['MethodsResponse'];
/** `GET /v1/rubrics`. */
export type RubricList = Schemas['RubricList'];
/** A rubric as `GET /v1/rubrics` and `GET /v1/rubrics/{id}` show it. */
export type Rubric = Schemas['Rubric'];
/** A tag of a rubric: the version it points at and its minimum agreement. */
export type RubricTag = Schemas['RubricTag'];
/** `GET /v1/rubrics/{id}/versions/{n}`: one immutable version. */
export type RubricVersion = Schemas['RubricVersion'];
/** One golden example of a version. */
export type RubricExample = RubricVersion['examples'][number];
/** One aspect of a version. */
export type RubricAspect = NonNullable<RubricVersion['aspects']>[number];
/** A score scale of a version or an aspect. */
export type RubricScale = NonNullable<RubricVersion['scale']>;
/** A version's golden check (`check`). */
export type RubricCheck = Schemas['RubricCheck'];
/** A version's auto-CoT steps (`steps`). */
export type RubricSteps = Schemas['RubricSteps'];
/** What an evaluation records of its rubric: `{id, version, hash}` (id and version absent for an inline rubric). */
export type RubricStamp = Schemas['RubricStamp'];
/** One preset of `GET /v1/methods`. */
export type PresetInfo = Schemas['PresetInfo'];
/** What is judged. */
export type Task = Schemas['Task'];
/** Answer to `GET /v1/meta-evaluations/{id}`. */
export type MetaEvaluation = Schemas['MetaEvaluation'];
/** An agreement report (pairwise or pointwise). */
export type AgreementReport = NonNullable<MetaEvaluation['report']>;
/** A pairwise agreement report. */
export type PairwiseReport = Extract<AgreementReport, { kind: 'pairwise' }>;
/** A pointwise agreement report. */
export type PointwiseReport = Extract<AgreementReport, { kind: 'pointwise' }>;
/** Metadata as stored: string, number or boolean values. */
export type Metadata = Schemas['Metadata'];

/**
 * An evaluation's metadata. The generator writes a nullable `$ref` as `Metadata & (Record<string, never> |
 * null)`, whose values read as `never`; this is the type the schema means.
 */
export function metadataOf(e: { metadata: unknown }): Metadata | null {
  return e.metadata as Metadata | null;
}

/** Answer to `GET /v1/evaluations`. */
export type EvaluationList = Schemas['EvaluationList'];
/** An evaluation in `GET /v1/evaluations`: the verdict's headline only. */
export type EvaluationListItem = Schemas['EvaluationListItem'];
/** Answer to `GET /v1/batches`. */
export type BatchList = Schemas['BatchList'];
/** A batch in `GET /v1/batches`. */
export type BatchSummary = Schemas['BatchSummary'];
/** Answer to `GET /v1/batches/{id}` (`webhook` and `budget` as the schema means them: see {@link metadataOf}). */
export type Batch = Omit<Schemas['Batch'], 'webhook' | 'budget'> & {
  webhook: Schemas['OneOffWebhook'] | null;
  budget: Schemas['Budget'] | null;
};
/** One NDJSON line of `GET /v1/batches/{id}/results`. */
export type BatchResultLine = Schemas['BatchResultLine'];

/** A comparison in `GET /v1/comparisons`. */
export type ComparisonSummary = Schemas['ComparisonSummary'];
/** `GET /v1/comparisons/{id}`. */
export type Comparison = Omit<Schemas['Comparison'], 'webhook' | 'budget'>;
/** One line of `GET /v1/comparisons/{id}/results`. */
export type ComparisonResultLine = Schemas['ComparisonResultLine'];
/** A meta-evaluation's reliability report (`repeats` > 1). */
export type ReliabilityReport = NonNullable<MetaEvaluation['reliability']>;

/** An annotation queue (`GET /v1/annotation-queues/{id}`). */
export type AnnotationQueue = Schemas['AnnotationQueue'];
/** `GET /v1/annotation-queues`. */
export type AnnotationQueueList = Schemas['AnnotationQueueList'];
/** The caller's next item to label (`GET /v1/annotation-queues/{id}/next`). */
export type AnnotationNextItem = Schemas['AnnotationNextItem'];
/** An item with its labels (the answer to a label). */
export type AnnotationItem = Schemas['AnnotationItem'];
/** One label: `winner`, or `score` and/or `aspects`. */
export type Label = Schemas['Label'];
/** Body of `POST /v1/annotation-queues/{id}/items/{itemId}/labels`. */
export type PostLabelRequest = Schemas['PostLabelRequest'];

/** An OpenAI Evals eval (`GET /v1/evals/{eval_id}`). */
export type Eval = Schemas['Eval'];
/** A run of an eval (`GET /v1/evals/{eval_id}/runs/{run_id}`). */
export type EvalRun = Schemas['EvalRun'];
/** A graded item of a run (`GET …/runs/{run_id}/output_items`). */
export type EvalOutputItem = Schemas['EvalRunOutputItem'];
/** A page of an OpenAI list: `{data, first_id, last_id, has_more}`. */
export interface OpenAiList<T> {
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}
/** Body of `POST /v1/estimates`. */
export type EstimateRequest = Schemas['EstimateRequest'];
/** Answer to `POST /v1/estimates`. */
export type Estimate = Schemas['Estimate'];
/** One rendered request of an estimate's `prompts` (`include: ["prompts"]`). */
export type RenderedCall = Schemas['RenderedCall'];

/** `GET /v1/traces/{traceId}`: the spans received so far and the evaluations made of them. */
export type Trace = Schemas['Trace'];
/** One span of a trace, with its depth and its evaluations. */
export type TraceSpan = Schemas['TraceTreeSpan'];
/** An evaluation as a trace lists it: its status and its verdict's headline. */
export type TraceEvaluation = Schemas['TraceEvaluation'];
/** Where an evaluation came from: its trace, span and monitor. */
export type EvaluationSource = Schemas['EvaluationSource'];
