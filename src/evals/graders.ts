/**
 * @module
 * Runs one grader on one item (and its sample): the score, whether it passed, and what the grader adds
 * (a model grader's sample and tokens, an error). `string_check` and `text_similarity` are computed here
 * (./similarity.ts); `label_model` and `score_model` ask a model through the deployment's LLM (an injected
 * {@link LlmFunction}); `multi` combines its graders' scores with `calculate_output` (./expression.ts).
 * A model or expression failure is the result's `error` with score 0 and `passed: false`, as OpenAI
 * reports grader errors in a result instead of failing the run.
 */
import type { ChatMessage, LlmFunction } from '../engine/call.js';
import type { Certification } from '../metrics/certify.js';
import { evaluateExpression } from './expression.js';
import type { GraderMessage, RunnableGrader, RunnableSingle } from './grader-schemas.js';
import type { SimilarityDeps } from './similarity.js';
import { similarity } from './similarity.js';
import type { TemplateContext } from './templates.js';
import { render } from './templates.js';

/** Tokens one model used. */
export interface ModelUsage {
  model: string;
  invocation_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cached_tokens: number;
}

/**
 * What went wrong in a grader, by OpenAI's error kinds, and Tribunal's `model_grader_abstained`: a certified
 * judge (a Tribunal judge as the model, in a certified run) abstained, its confidence below the calibrated
 * threshold; nothing failed, the item has no certified verdict.
 */
export const GRADER_ERROR_KINDS = [
  'model_grader_server_error',
  'model_grader_abstained',
  'model_grader_parse_error',
  'formula_parse_error',
  'invalid_variable_error',
  'other_error',
] as const;
/** One of {@link GRADER_ERROR_KINDS}. */
export type GraderErrorKind = (typeof GRADER_ERROR_KINDS)[number];

/** The error code of a model call whose certified judge abstained (./judge-grader.ts). */
export const ABSTAINED_CODE = 'abstained';

/** One grader's result on one item. */
export interface GradeResult {
  name: string;
  type: RunnableGrader['type'];
  score: number;
  passed: boolean;
  /** A model grader's exchange: the messages it sent and the reply; null for the others. */
  sample: { input: { role: string; content: string }[]; output: { role: string; content: string }[] } | null;
  /** The sub-graders' scores of a `multi`. */
  sub_rewards?: Record<string, number>;
  /** A label model's label. */
  label?: string;
  error?: { kind: GraderErrorKind; message: string };
  /** Tokens the model graders used. */
  usage: ModelUsage[];
  /** A certified run's judge grader: whether its verdict is certified, and what happened (./run-certify.ts). */
  certified?: boolean;
  certification?: Certification;
}

/** What a grader may need from outside. */
export interface GraderDeps extends SimilarityDeps {
  /** The deployment's LLM; needed by `label_model` and `score_model`. */
  llm?: LlmFunction;
}

/** `[min, max]` of a score model; OpenAI's default is [0, 1]. */
export function rangeOf(grader: { range?: number[] | undefined }): [number, number] {
  return [grader.range?.[0] ?? 0, grader.range?.[1] ?? 1];
}

/** The pass threshold of a grader whose score is a number; default: the top of its range for multi, else 0.5. */
function thresholdOf(grader: RunnableGrader): number {
  if (grader.type === 'score_model') {
    const [min, max] = rangeOf(grader);
    return grader.pass_threshold ?? (min + max) / 2;
  }
  if (grader.type === 'text_similarity' || grader.type === 'multi') return grader.pass_threshold ?? 0.5;
  return 1;
}

function contentText(content: GraderMessage['content'], ctx: TemplateContext): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => {
      if (typeof p === 'string') return render(p, ctx);
      if (p.type === 'input_text' || p.type === 'output_text') return render(p.text, ctx);
      return '';
    })
    .join('\n');
}

/** A grader's (or a sampler's) input messages rendered into chat messages (`developer` sent as `system`). */
export function renderMessages(input: readonly GraderMessage[], ctx: TemplateContext): ChatMessage[] {
  return input.map((m) => ({
    role: m.role === 'developer' ? 'system' : m.role,
    content: contentText(m.content, ctx),
  }));
}

/** The instruction a label model gets after its own messages (the mock LLM recognises it too). */
export function labelInstruction(labels: readonly string[]): string {
  return `Reply with exactly one of these labels and nothing else: ${labels.map((l) => JSON.stringify(l)).join(', ')}`;
}

/** The label a reply names: the whole reply, else the label it mentions last as a whole word (any case). */
export function labelOf(reply: string, labels: readonly string[]): string | undefined {
  const text = reply.trim().replace(/^["'`]+|["'`.]+$/g, '');
  const exact = labels.find((l) => l.toLowerCase() === text.toLowerCase());
  if (exact !== undefined) return exact;
  let best: { end: number; label: string } | undefined;
  for (const label of labels) {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu');
    for (const m of reply.matchAll(word)) {
      const end = m.index + m[0].length;
      if (!best || end > best.end || (end === best.end && label.length > best.label.length)) best = { end, label };
    }
  }
  return best?.label;
}

/**
 * One call's tokens as OpenAI reports them per model (a grader's, or a run's sampler's).
 * @param invocations the model calls it made (default 1; 0 for a verdict cache hit)
 */
export function modelUsage(
  model: string,
  u: { promptTokens: number; completionTokens: number; cachedPromptTokens: number },
  invocations = 1,
): ModelUsage {
  return {
    model,
    invocation_count: invocations,
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    cached_tokens: u.cachedPromptTokens,
  };
}

function failed(grader: RunnableGrader, kind: GraderErrorKind, message: string, partial: Partial<GradeResult> = {}) {
  return {
    name: grader.name,
    type: grader.type,
    score: 0,
    passed: false,
    sample: null,
    usage: [],
    ...partial,
    error: { kind, message },
  };
}

async function modelGrade(
  grader: Extract<RunnableSingle, { type: 'label_model' | 'score_model' }>,
  ctx: TemplateContext,
  deps: GraderDeps,
  callId: string,
): Promise<GradeResult> {
  if (!deps.llm) return failed(grader, 'model_grader_server_error', 'no LLM is configured for model graders');
  const messages = renderMessages(grader.input, ctx);
  const [min, max] = grader.type === 'score_model' ? rangeOf(grader) : [0, 1];
  if (grader.type === 'label_model') messages.push({ role: 'user', content: labelInstruction(grader.labels) });
  const params = grader.type === 'score_model' ? grader.sampling_params : undefined;
  const result = await deps.llm({
    id: callId,
    agent: 'grader',
    label: grader.name,
    stage: 'grade',
    model: grader.model,
    messages,
    temperature: params?.temperature ?? 0,
    maxTokens: params?.max_completions_tokens ?? 1024,
    parser: grader.type === 'score_model' ? { type: 'json', shape: 'score', min, max } : { type: 'text' },
  });
  // A certified judge's fields (./judge-grader.ts), on its verdict or its abstention alike.
  const { certified, certification } = result as { certified?: boolean; certification?: Certification };
  const marks = certified === undefined || certification === undefined ? {} : { certified, certification };
  if (!result.ok) {
    const kind = result.error.code === ABSTAINED_CODE ? 'model_grader_abstained' : 'model_grader_server_error';
    return failed(grader, kind, result.error.message, marks);
  }
  const sample = {
    input: messages.map((m) => ({ role: m.role, content: m.content })),
    output: [{ role: 'assistant', content: result.content }],
  };
  // A verdict cache hit (0 attempts) invoked no model.
  const usage = [modelUsage(grader.model, result.usage, result.attempts === 0 ? 0 : 1)];
  if (grader.type === 'label_model') {
    const label = labelOf(result.content, grader.labels);
    if (label === undefined) {
      return failed(grader, 'model_grader_parse_error', 'the reply names none of the labels', { sample, usage });
    }
    const passed = grader.passing_labels.includes(label);
    return { name: grader.name, type: grader.type, score: passed ? 1 : 0, passed, label, sample, usage, ...marks };
  }
  const score = scoreOf(result.content);
  if (score === undefined || score < min || score > max) {
    return failed(grader, 'model_grader_parse_error', `the reply holds no score in [${min}, ${max}]`, {
      sample,
      usage,
    });
  }
  return { name: grader.name, type: grader.type, score, passed: score >= thresholdOf(grader), sample, usage, ...marks };
}

/** The `score` of a JSON reply, or the last number of a text one. */
function scoreOf(reply: string): number | undefined {
  try {
    const parsed = JSON.parse(reply) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const v = (parsed as Record<string, unknown>).score ?? (parsed as Record<string, unknown>).result;
      if (typeof v === 'number' && Number.isFinite(v)) return v;
    }
  } catch {
    // A text reply: read its last number below.
  }
  const numbers = reply.match(/-?\d+(?:\.\d+)?/g);
  return numbers ? Number(numbers[numbers.length - 1]) : undefined;
}

/**
 * Runs `grader` on the item and sample of `ctx`. Never throws for a grader's own failure.
 * @param callId the stable id of its model call (default `grader/<name>`; a `multi`'s graders get
 *   `<its id>/<key>`), unique within an item, under which a run stores the call's result.
 */
export async function grade(
  grader: RunnableGrader,
  ctx: TemplateContext,
  deps: GraderDeps = {},
  callId = `grader/${grader.name}`,
): Promise<GradeResult> {
  const base = { name: grader.name, type: grader.type, sample: null, usage: [] };
  switch (grader.type) {
    case 'string_check': {
      const input = render(grader.input, ctx);
      const reference = render(grader.reference, ctx);
      const ok =
        grader.operation === 'eq'
          ? input === reference
          : grader.operation === 'ne'
            ? input !== reference
            : grader.operation === 'like'
              ? input.includes(reference)
              : input.toLowerCase().includes(reference.toLowerCase());
      return { ...base, score: ok ? 1 : 0, passed: ok };
    }
    case 'text_similarity': {
      try {
        const score = await similarity(
          grader.evaluation_metric,
          render(grader.input, ctx),
          render(grader.reference, ctx),
          deps,
        );
        return { ...base, score, passed: score >= thresholdOf(grader) };
      } catch (e) {
        return failed(grader, 'other_error', e instanceof Error ? e.message : String(e));
      }
    }
    case 'label_model':
    case 'score_model':
      return modelGrade(grader, ctx, deps, callId);
    case 'multi': {
      const entries = Object.entries(grader.graders);
      const results = await Promise.all(
        entries.map(([key, g]) =>
          g.type === 'python' ? Promise.resolve(null) : grade(g, ctx, deps, `${callId}/${key}`),
        ),
      );
      const subRewards: Record<string, number> = {};
      const usage: ModelUsage[] = [];
      for (const [i, [key]] of entries.entries()) {
        const r = results[i];
        subRewards[key] = r?.score ?? 0;
        usage.push(...(r?.usage ?? []));
      }
      try {
        const score = evaluateExpression(grader.calculate_output, subRewards);
        return { ...base, score, passed: score >= thresholdOf(grader), sub_rewards: subRewards, usage };
      } catch (e) {
        return failed(grader, 'formula_parse_error', e instanceof Error ? e.message : String(e), {
          sub_rewards: subRewards,
          usage,
        });
      }
    }
  }
}
