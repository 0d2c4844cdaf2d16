/**
 * @module
 * The answer of a judge model: the evaluation's verdict as the assistant message's JSON
 * ({@link JudgeVerdict}), OpenAI's usage object for the whole debate, and the completion around them.
 * Pure functions of what the API reads back from D1, so the streamed and the plain answer are the same.
 */
import type { Evaluation, TranscriptMessage, UsageTotals } from '../evaluations/schemas.js';
import type { Task } from '../engine/task.js';
import type { ChatCompletion, ChatUsage, JudgeVerdict } from './schemas.js';

/** Longest rationale excerpt, in characters: 600. */
export const MAX_RATIONALE_CHARS = 600;

/** `chatcmpl-<evaluation id>`: the completion id (the same for a replay of the same evaluation). */
export function completionIdOf(evaluationId: string): string {
  return `chatcmpl-${evaluationId}`;
}

/** Unix seconds of an ISO time. */
export function unixSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** OpenAI's usage object from the evaluation's summed usage (every call, repairs included). */
export function chatUsageOf(u: UsageTotals): ChatUsage {
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedPromptTokens },
  };
}

/**
 * The reply the rationale is drawn from: the last one recorded that parsed, in the order the answers
 * were submitted. Replies of the swapped order (`ba/…`) are passed over, since in them "Assistant 1" is
 * answer B and an excerpt would name the answers the wrong way round.
 */
export function decisiveReply(messages: readonly TranscriptMessage[]): TranscriptMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.parseError === null && !m.callId.startsWith('ba/') && m.content.trim() !== '') return m;
  }
  return null;
}

/** `text` cut to at most `max` characters, at a sentence or word end when one is near, with `…`. */
export function excerpt(text: string, max = MAX_RATIONALE_CHARS): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max - 1);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence >= max * 0.6) return `${head.slice(0, sentence + 1)} …`;
  const space = head.lastIndexOf(' ');
  return `${space >= max * 0.6 ? head.slice(0, space) : head}…`;
}

/**
 * The verdict message of a succeeded evaluation.
 * @param evaluation as `GET /v1/evaluations/{id}` shows it (status `succeeded`, verdict set)
 * @param transcript its stored replies
 * @param model the model name as requested
 * @param task the task judged (for a pointwise scale)
 */
export function judgeVerdictOf(
  evaluation: Evaluation,
  transcript: readonly TranscriptMessage[],
  model: string,
  task: Task,
): JudgeVerdict {
  const v = evaluation.verdict;
  if (!v) throw new Error(`evaluation ${evaluation.id} has no verdict`);
  const from = decisiveReply(transcript);
  return {
    evaluationId: evaluation.id,
    model,
    preset: evaluation.preset ?? '',
    method: evaluation.method,
    taskKind: v.taskKind,
    ...(v.winner !== undefined ? { winner: v.winner } : {}),
    ...(v.scores !== undefined ? { scores: v.scores } : {}),
    ...(v.score !== undefined ? { score: v.score } : {}),
    ...(task.kind === 'pointwise' && task.aspect ? { scale: task.aspect.scale } : {}),
    confidence: v.confidence,
    positionFlip: v.positionFlip,
    rationale: from ? excerpt(from.content) : '',
    rationaleFrom: from ? { callId: from.callId, agent: from.agent, label: from.label, stage: from.stage } : null,
    unparsed: v.unparsed.length,
    calls: evaluation.usage.calls,
    costUsd: evaluation.usage.costUsd,
    links: evaluation.links,
  };
}

/** The non-streamed answer: one choice whose content is the verdict's JSON. */
export function chatCompletionOf(evaluation: Evaluation, verdict: JudgeVerdict): ChatCompletion {
  return {
    id: completionIdOf(evaluation.id),
    object: 'chat.completion',
    created: unixSeconds(evaluation.createdAt),
    model: verdict.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: JSON.stringify(verdict), refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage: chatUsageOf(evaluation.usage),
  };
}
