/**
 * @module
 * DEBATE's `paper` flow: Algorithm 1 and Appendix B.1, the Scorer re-scoring after every critique
 * (`score0`, `critic1`, `score1`, …), its last reply the score.
 */
import type { ChatMessage } from '../../call.js';
import type { CallSpec } from '../../method.js';
import type { JudgedPointwiseTask } from '../../judged.js';
import type { DebateConfig, DebateReply, DebateState, Position } from './shared.js';
import {
  criticCall,
  formulatePrompt,
  forwardText,
  NO_RESULT,
  NO_SCORE,
  reviseText,
  saysNoIssue,
  scoreText,
  scorerCall,
  scorerOpening,
} from './shared.js';

/** One reply of the paper loop, in order. */
interface PaperTurn {
  role: 'scorer' | 'critic';
  iteration: number;
  id: string;
  reply: DebateReply;
}

/** The paper loop's replies so far: `score0`, then `critic<i>`, `score<i>` for i = 1, 2, … */
export function paperTurns(config: DebateConfig, state: DebateState): PaperTurn[] {
  const turns: PaperTurn[] = [];
  const ids = ['score0'];
  for (let i = 1; i <= config.maxIterations; i++) ids.push(`critic${i}`, `score${i}`);
  for (const id of ids) {
    const reply = state.replies[id];
    if (!reply) break;
    const critic = id.startsWith('critic');
    turns.push({ role: critic ? 'critic' : 'scorer', iteration: Number(id.replace(/\D+/, '')), id, reply });
  }
  return turns;
}

/** The paper loop's next call id, or whether it stopped on NO_ISSUE. */
function paperNext(
  config: DebateConfig,
  turns: readonly PaperTurn[],
): { id: string; iteration: number } | { stoppedByNoIssue: boolean } {
  const last = turns.at(-1);
  if (!last) return { id: 'score0', iteration: 0 };
  if (last.role === 'critic')
    return saysNoIssue(config, last.reply.content)
      ? { stoppedByNoIssue: true }
      : { id: `score${last.iteration}`, iteration: last.iteration };
  if (last.iteration < config.maxIterations)
    return { id: `critic${last.iteration + 1}`, iteration: last.iteration + 1 };
  return { stoppedByNoIssue: false };
}

/** The score of the Scorer turn at or before `index` ("no readable score" when it never parsed). */
function forwardedScore(turns: readonly PaperTurn[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const t = turns[i];
    if (t?.role === 'scorer') return scoreText(t.reply.score);
  }
  return NO_SCORE;
}

/** The Scorer's conversation in the paper loop: its opening, then its replies and the forwarded feedback. */
function paperScorerMessages(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  turns: readonly PaperTurn[],
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: scorerOpening(config, task) }];
  turns.forEach((t, i) => {
    if (t.role === 'scorer') messages.push({ role: 'assistant', content: t.reply.content });
    else messages.push({ role: 'user', content: reviseText(config, task, t.reply.content, forwardedScore(turns, i)) });
  });
  return messages;
}

/** The Critic's conversation in the paper loop: one forward per Scorer turn it reviews, then its own replies. */
function paperCriticMessages(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  turns: readonly PaperTurn[],
): ChatMessage[] {
  const prompt = formulatePrompt(config, task);
  const messages: ChatMessage[] = [];
  const first = turns.find((t) => t.role === 'scorer');
  let previous = NO_SCORE;
  let iteration = 0;
  turns.forEach((t) => {
    if (t.role === 'critic') messages.push({ role: 'assistant', content: t.reply.content });
    else {
      iteration += 1;
      const shown = config.criticSees === 'first-reply' ? (first ?? t) : t;
      messages.push({
        role: 'user',
        content: forwardText(config, task, prompt, iteration, shown.reply.content, previous),
      });
      previous = scoreText(shown.reply.score);
    }
  });
  return messages;
}

function paperCall(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  turns: readonly PaperTurn[],
  id: string,
  iteration: number,
): CallSpec {
  if (id.startsWith('critic')) return criticCall(config, id, iteration, paperCriticMessages(config, task, turns));
  return scorerCall(config, task, id, iteration, paperScorerMessages(config, task, turns));
}

export function paperPosition(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState): Position {
  const turns = paperTurns(config, state);
  const scorers = turns.filter((t) => t.role === 'scorer');
  const iterations = turns.filter((t) => t.role === 'critic').length;
  const scoreHistory = scorers.map((t) => t.reply.score ?? null);
  const calls = turns.map((t) => t.id);
  const next = state.truncated ? { stoppedByNoIssue: false } : paperNext(config, turns);
  const base = { iterations, scoreHistory, calls };
  if ('id' in next)
    return {
      ...base,
      stoppedByNoIssue: false,
      next: paperCall(config, task, turns, next.id, next.iteration),
      result: NO_RESULT,
    };
  // Code reading: the last reply's score; paper reading: the last parsed score.
  const lastReply = scorers.at(-1);
  const last = config.promptSource === 'code' ? lastReply : scorers.findLast((t) => t.reply.score !== undefined);
  const score = last?.reply.score;
  const parsed = lastReply?.reply.parsed ?? false;
  return {
    ...base,
    stoppedByNoIssue: next.stoppedByNoIssue,
    result: score !== undefined ? { score, from: 'scorer', message: last?.id, parsed } : NO_RESULT,
  };
}
