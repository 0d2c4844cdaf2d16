/**
 * @module
 * `POST /v1/chat/completions` as a use case: read the judge from the model name and the task from the
 * one user message, create an ordinary evaluation (the same function, checks, idempotency and billing as
 * `POST /v1/evaluations`), then follow it until its verdict or the wait bound (`OPENAI_WAIT_SECONDS`),
 * answering in one piece or as a stream of chunks (./chunks.ts).
 */
import type { Issue } from '../http/errors.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import type { CreateEvaluationRequest, Evaluation, TranscriptMessage } from '../evaluations/schemas.js';
import { getEvaluation } from '../evaluations/rows.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { createEvaluationJob } from '../evaluations/service.js';
import { linksOf, requireEvaluation, viewEvaluation, viewTranscript } from '../evaluations/views.js';
import type { Task } from '../engine/task.js';
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import type { JudgeModel } from './models.js';
import { configOverridesOf, ModelNameError, parseModelId } from './models.js';
import type { ChatCompletionRequest, ChatRequestMessage, JudgeVerdict, OpenAIErrorBody } from './schemas.js';
import { NO_EFFECT_PARAMETERS } from './schemas.js';
import { taskFromText } from './task-text.js';
import type { TaskForm } from './task-text.js';
import { judgeVerdictOf } from './answer.js';
import { followEvaluation } from './follow.js';
import type { FollowEnd, FollowItem } from './follow.js';
import { openAiError } from './errors.js';
import { recordDbOf } from '../config/d1-shards.js';

/** A chat request read as a judge request. */
export interface JudgeRequest {
  model: JudgeModel;
  task: Task;
  form: TaskForm;
  /** The evaluation request it becomes (what `POST /v1/evaluations` would take). */
  evaluation: CreateEvaluationRequest;
  /** No-effect parameters the request set (header `Tribunal-Unused-Parameters`). */
  unused: string[];
  stream: boolean;
  includeUsage: boolean;
}

/** The one user message's text, or the issues that make it unreadable. */
function userText(messages: readonly ChatRequestMessage[]): string {
  const issues: Issue[] = [];
  const roles = messages.map((m) => m.role);
  if (messages.length !== 1 || roles[0] !== 'user') {
    throw invalidRequest(
      [
        {
          path: 'messages',
          message: `send exactly one user message holding the task (got ${roles.join(', ')}): a judge preset brings its own prompts, so other messages would be ignored`,
        },
      ],
      'request body',
    );
  }
  const content = messages[0]?.content ?? null;
  if (content === null)
    throw invalidRequest([{ path: 'messages.0.content', message: 'the user message has no content' }], 'request body');
  if (typeof content === 'string') return content;
  content.forEach((part, i) => {
    if (part.type !== 'text') {
      issues.push({
        path: `messages.0.content.${i}`,
        message: `only text parts are read; a judge cannot take a "${part.type}" part`,
      });
    } else if (typeof part.text !== 'string') {
      issues.push({
        path: `messages.0.content.${i}.text`,
        message: 'a "text" part needs its text: {"type":"text","text":"…"}',
      });
    }
  });
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
  return content.map((p) => p.text ?? '').join('\n');
}

/**
 * Reads a validated chat request as a judge request.
 * @throws ApiError 400: `invalid_request` (messages, task, model name) or `unknown_preset`
 */
export function judgeRequestOf(body: ChatCompletionRequest): JudgeRequest {
  let model: JudgeModel;
  try {
    model = parseModelId(body.model);
  } catch (err) {
    if (!(err instanceof ModelNameError)) throw err;
    throw new ApiError(400, err.reason === 'preset' ? 'unknown_preset' : 'invalid_request', err.message, [
      { path: 'model', message: err.message },
    ]);
  }
  const { task, form, rubric } = taskFromText(userText(body.messages), 'messages.0.content');
  const metadata = body.metadata ?? undefined;
  const config = configOverridesOf(model);
  return {
    model,
    task,
    form,
    evaluation: {
      preset: model.preset.id,
      ...(config ? { config } : {}),
      task,
      ...(metadata ? { metadata } : {}),
      ...(body.cache !== undefined ? { cache: body.cache } : {}),
      ...(rubric !== undefined ? { rubric } : {}),
    },
    unused: NO_EFFECT_PARAMETERS.filter((p) => body[p] !== undefined && body[p] !== null),
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
  };
}

/** The evaluation a chat request created (or found again through its `Idempotency-Key`). */
export interface StartedJudge {
  id: string;
  replayed: boolean;
}

/** Creates the evaluation exactly as `POST /v1/evaluations` does (see `createEvaluationJob`). */
export async function startJudge(
  env: Bindings,
  tenant: string,
  req: JudgeRequest,
  idempotencyKey: string | null,
  creator: CreatorInfo = { keyId: null },
): Promise<StartedJudge> {
  try {
    const { body, replayed } = await createEvaluationJob(env, tenant, req.evaluation, idempotencyKey, creator);
    return { id: body.id, replayed };
  } catch (err) {
    throw req.evaluation.rubric === undefined ? err : namingRubric(err);
  }
}

/** A message about the request's rubric (`rubric: no rubric "rb_…"`, `rubric.kind: a pairwise rubric …`). */
const ABOUT_RUBRIC = /^rubric(\.[\w.]+)?: /;

/**
 * A client error about the message's `rubric` (an unknown rubric, version or tag, an archived rubric, a rubric of
 * the other kind) that names no field, named: the OpenAI shape's `param` is then `rubric`, the field of the
 * message's JSON, as it is for any other field the request gets wrong.
 */
function namingRubric(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status >= 500 || (err.issues?.length ?? 0) > 0) return err;
  if (!ABOUT_RUBRIC.test(err.message)) return err;
  return new ApiError(err.status, err.code, err.message, [{ path: 'rubric', message: err.message }], err.extra);
}

/** How a judge request ends: the verdict, an evaluation that did not succeed, or no end within the bound. */
export type JudgeOutcome =
  | {
      kind: 'verdict';
      evaluation: Evaluation;
      verdict: JudgeVerdict;
      /** On a verdict cache hit: the replies of the evaluation that judged (`cache.from`), which a stream replays. */
      judgedBy?: { messages: TranscriptMessage[] };
    }
  | { kind: 'ended'; evaluation: Evaluation }
  | { kind: 'timeout'; id: string };

/** Reads the ended evaluation back from D1 and builds its outcome. */
export async function outcomeOf(
  env: Bindings,
  tenant: string,
  id: string,
  req: JudgeRequest,
  end: FollowEnd,
): Promise<JudgeOutcome> {
  if (end.kind === 'timeout') return { kind: 'timeout', id };
  const row = await requireEvaluation(env, tenant, id);
  const evaluation = await viewEvaluation(env, row);
  if (evaluation.status !== 'succeeded' || !evaluation.verdict) return { kind: 'ended', evaluation };
  // A verdict cache hit made no call: its rationale is in the replies of the evaluation that judged.
  const from = evaluation.cache.from;
  const source = from === null ? null : await getEvaluation(recordDbOf(env, tenant, from), tenant, from);
  const judged = source && source.deletedAt === null ? source : row;
  const transcript = await viewTranscript(env, judged);
  return {
    kind: 'verdict',
    evaluation,
    verdict: judgeVerdictOf(evaluation, transcript.messages, req.model.id, req.task),
    ...(judged !== row ? { judgedBy: { messages: transcript.messages } } : {}),
  };
}

/** Follows the evaluation to its end or `deadline`, passing each item to `onItem` (streaming), and returns its outcome. */
export async function followToOutcome(
  env: Bindings,
  tenant: string,
  id: string,
  req: JudgeRequest,
  deadline: number,
  onItem: (item: FollowItem) => Promise<void> = () => Promise.resolve(),
): Promise<JudgeOutcome> {
  const events = followEvaluation(env, id, deadline);
  let next = await events.next();
  while (!next.done) {
    await onItem(next.value);
    next = await events.next();
  }
  return outcomeOf(env, tenant, id, req, next.value);
}

/** The error status and OpenAI-shaped body of an outcome without a verdict. */
export function outcomeError(
  outcome: Exclude<JudgeOutcome, { kind: 'verdict' }>,
  waitSeconds: number,
): { status: 409 | 502 | 504; body: OpenAIErrorBody } {
  if (outcome.kind === 'timeout') {
    const links = linksOf(outcome.id);
    return {
      status: 504,
      body: openAiError(
        504,
        'verdict_timeout',
        `no verdict within ${waitSeconds} s; the evaluation continues: poll GET ${links.self} (or retry with the same Idempotency-Key to wait again)`,
        {
          evaluationId: outcome.id,
          links,
        },
      ),
    };
  }
  const e = outcome.evaluation;
  const cause = e.error ?? { code: 'unknown', message: `evaluation ended ${e.status} without a verdict` };
  if (e.status === 'cancelled') {
    return {
      status: 409,
      body: openAiError(409, 'evaluation_cancelled', `evaluation ${e.id} was cancelled: ${cause.message}`, {
        evaluationId: e.id,
        links: e.links,
        evaluationError: cause,
      }),
    };
  }
  log('info', 'openai.evaluation_failed', { evaluationId: e.id, code: cause.code });
  return {
    status: 502,
    body: openAiError(502, 'evaluation_failed', `evaluation ${e.id} failed (${cause.code}): ${cause.message}`, {
      evaluationId: e.id,
      links: e.links,
      evaluationError: cause,
    }),
  };
}

/** Logs an unexpected error while answering and returns the `internal` body to send. */
export function internalErrorBody(id: string, err: unknown, requestId: string): OpenAIErrorBody {
  log('error', 'openai.answer_failed', { evaluationId: id, requestId, error: messageOf(err) });
  return openAiError(500, 'internal', `internal error; quote request id ${requestId}`, { requestId, evaluationId: id });
}
