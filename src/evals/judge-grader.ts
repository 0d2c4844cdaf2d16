/**
 * @module
 * A Tribunal judge as a model grader's `model`: `tribunal/<preset>` or `tribunal/<preset>@<model>`, the names
 * `GET /v1/models` lists. The grader's one user message, rendered on the item and sample, is the task, read
 * as `POST /v1/chat/completions` reads it (a JSON Task, or text with `[QUESTION]`/`[ANSWER A]`/`[ANSWER B]`
 * or `[SOURCE]`/`[OUTPUT]`/`[ASPECT]` markers). The judge runs as an ordinary evaluation (its Durable
 * Object, stored LLM results, quota, usage rows), and its verdict becomes the grader's reply:
 * - `score_model`: a pointwise score mapped linearly from the aspect's scale onto the grader's `range`; a
 *   pairwise verdict gives the top of the range when answer A wins, the bottom when B wins, the middle on a tie;
 * - `label_model`: the winner (`A`, `B`, `tie`) or the pointwise score as text, which must be one of `labels`.
 * Within a run, the evaluation's `Idempotency-Key` is the item's call, so a repeated item finds its evaluation
 * again instead of judging twice.
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../engine/call.js';
import { ApiError } from '../http/errors.js';
import type { Issue } from '../http/errors.js';
import { followToOutcome, judgeRequestOf, outcomeOf, startJudge } from '../openai/completion.js';
import { isTerminal } from '../evaluations/status.js';
import { waitingResult } from './run-waves.js';
import { ABSTAINED_CODE } from './graders.js';
import { MODEL_PREFIX, ModelNameError, parseModelId } from '../openai/models.js';
import { ChatCompletionRequestSchema } from '../openai/schemas.js';
import type { JudgeVerdict } from '../openai/schemas.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import type { CacheMode } from '../verdict-cache/schemas.js';
import type { Certification } from '../metrics/certify.js';
import { certificationOf } from '../metrics/certify.js';

/** Whether a grader's `model` names a Tribunal judge. */
export function isJudgeModel(model: string | undefined): boolean {
  return model?.startsWith(MODEL_PREFIX) === true;
}

/** The 400 issues of a judge model name and of the grader messages a judge takes (one user message). */
export function judgeModelIssues(
  model: string,
  input: readonly { role: string }[],
  path: { model: string; input: string },
): Issue[] {
  const issues: Issue[] = [];
  try {
    parseModelId(model);
  } catch (e) {
    if (!(e instanceof ModelNameError)) throw e;
    issues.push({ path: path.model, message: e.message });
  }
  const roles = input.map((m) => m.role);
  if (roles.length !== 1 || roles[0] !== 'user') {
    issues.push({
      path: path.input,
      message: `a Tribunal judge brings its own prompts: send exactly one user message holding the task (got ${roles.join(', ') || 'none'})`,
    });
  }
  return issues;
}

/** Who a judge's evaluations are created for, and how a call finds its evaluation again. */
export interface JudgeContext {
  tenant: string;
  keyId: string | null;
  /** The tenant's limits when the caller has them (else read from D1). */
  limits?: EffectiveLimits | null;
  /** The `Idempotency-Key` of a call's evaluation, or null for a new one each time. */
  keyOf: (callId: string) => string | null;
  /** The row that counts the judge's evaluations against the monthly cap (a run item's ledger row), if any. */
  countedBy?: string;
  /** The evaluation's tier and verdict cache mode (a run's); absent: the defaults. */
  evaluation?: { tier?: 'standard' | 'flex' | 'batch'; cache?: CacheMode };
  /**
   * Set at the batch tier: the judge's evaluation is looked at once, not waited for; one not ended yet is
   * reported here and the call answered as waiting (the run looks again later).
   */
  onWaiting?: () => void;
  /**
   * A certified run's judge graders by name (./run-certify.ts): their evaluations run the calibrated judge on the
   * pinned rubric version, and their results carry `certified` (an abstention is a failed call).
   */
  certified?: Record<string, { rubric: string; config: Record<string, unknown> }>;
}

/** A judge's result, with what the verdict cache saved and, in a certified run, its certified-mode fields. */
export type JudgeResult = LlmCallResult & {
  verdictCacheSavedUsd?: number;
  certified?: boolean;
  certification?: Certification;
};

/** The grader's reply from a verdict, for the parser it asked for. */
function replyOf(verdict: JudgeVerdict, request: LlmCallRequest): string {
  const parser = request.parser as { type: string; min?: number; max?: number };
  if (parser.type === 'json') {
    const min = parser.min ?? 0;
    const max = parser.max ?? 1;
    let unit: number;
    if (verdict.score !== undefined && verdict.scale) {
      const { min: lo, max: hi } = verdict.scale;
      unit = hi === lo ? 1 : (verdict.score - lo) / (hi - lo);
    } else {
      unit = verdict.winner === 'A' ? 1 : verdict.winner === 'B' ? 0 : 0.5;
    }
    return JSON.stringify({ score: min + Math.min(1, Math.max(0, unit)) * (max - min) });
  }
  return verdict.winner ?? (verdict.score === undefined ? '' : String(verdict.score));
}

function failed(request: LlmCallRequest, code: string, message: string): LlmCallResult {
  return { id: request.id, ok: false, error: { code, message } };
}

/** Runs the judge `request.model` names on the task in its one user message (see the module note). */
async function judge(env: Bindings, ctx: JudgeContext, request: LlmCallRequest): Promise<JudgeResult> {
  // The grader's one user message is the task: what a label model grader appends (its label instruction) is for
  // a plain model, and the judge brings its own prompts.
  const text = request.messages[0]?.content ?? '';
  const body = ChatCompletionRequestSchema.parse({
    model: request.model,
    messages: [{ role: 'user', content: text }],
  });
  let req;
  try {
    req = judgeRequestOf(body);
  } catch (e) {
    if (e instanceof ApiError) return failed(request, 'bad_request', `the judge cannot read the task: ${e.message}`);
    throw e;
  }
  const started = Date.now();
  if (ctx.evaluation) req = { ...req, evaluation: { ...req.evaluation, ...ctx.evaluation } };
  const certified = ctx.certified?.[request.label];
  if (certified) {
    // The calibrated judge (a cascade with its thresholds) on the rubric version it was calibrated on.
    const { preset: _preset, ...rest } = req.evaluation;
    req = { ...req, evaluation: { ...rest, config: certified.config, rubric: certified.rubric } };
  }
  const { id } = await startJudge(env, ctx.tenant, req, ctx.keyOf(request.id), {
    keyId: ctx.keyId,
    ...(ctx.limits !== undefined ? { limits: ctx.limits } : {}),
    ...(ctx.countedBy !== undefined ? { countedBy: ctx.countedBy } : {}),
  });
  const waitMs = configOf(env).OPENAI_WAIT_SECONDS * 1000;
  const outcome = ctx.onWaiting
    ? await outcomeOf(env, ctx.tenant, id, req, { kind: 'ended', status: 'running' })
    : await followToOutcome(env, ctx.tenant, id, req, started + waitMs);
  if (ctx.onWaiting && outcome.kind === 'ended' && !isTerminal(outcome.evaluation.status)) {
    ctx.onWaiting();
    return waitingResult(request, `waiting for the judge's evaluation ${id}`);
  }
  if (outcome.kind === 'timeout') return failed(request, 'timeout', `no verdict within ${waitMs / 1000} s (${id})`);
  const fields = certified
    ? certificationOf(outcome.evaluation.status, outcome.evaluation.verdict?.details)
    : { certified: null, certification: null };
  const marks =
    fields.certified === null || fields.certification === null
      ? {}
      : { certified: fields.certified, certification: fields.certification };
  if (outcome.kind === 'ended') {
    const cause = outcome.evaluation.error?.message ?? outcome.evaluation.status;
    return {
      ...failed(request, 'provider_error', `evaluation ${id} ended ${outcome.evaluation.status}: ${cause}`),
      ...marks,
    };
  }
  if (fields.certification?.outcome === 'abstained')
    return {
      ...failed(
        request,
        ABSTAINED_CODE,
        `the certified judge abstained: its confidence is below the calibrated threshold (${id})`,
      ),
      ...marks,
    };
  const u = outcome.evaluation.usage;
  const cache = outcome.evaluation.cache;
  return {
    ...(cache.hit ? { verdictCacheSavedUsd: cache.savedUsd } : {}),
    ...marks,
    id: request.id,
    ok: true,
    content: replyOf(outcome.verdict, request),
    model: request.model ?? '',
    usage: {
      promptTokens: u.promptTokens,
      completionTokens: u.completionTokens,
      cachedPromptTokens: u.cachedPromptTokens,
      estimated: u.estimated,
      costUsd: u.costUsd,
    },
    latencyMs: Date.now() - started,
  };
}

/**
 * `llm` with Tribunal judges: a call whose model is `tribunal/…` runs the judge (see the module note), any
 * other goes to `llm`. The judge's evaluation bills its own calls (its usage rows).
 */
export function withJudges(env: Bindings, ctx: JudgeContext, llm: LlmFunction): LlmFunction {
  return (request) => (isJudgeModel(request.model) ? judge(env, ctx, request) : llm(request));
}
