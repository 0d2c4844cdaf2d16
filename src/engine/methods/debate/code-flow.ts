/**
 * @module
 * DEBATE's `code` flow: `debate.py`'s loop as it runs under autogen (`autogen.ts`), replayed from the recorded
 * replies. Each agent is asked on its own conversation as autogen keeps it: its own messages as `assistant`,
 * the other's as `user`, after its system message.
 */
import type { ChatMessage } from '../../call.js';
import type { CallSpec } from '../../method.js';
import { resolveAgentParams } from '../../method.js';
import type { JudgedPointwiseTask } from '../../judged.js';
import type { AutogenAgent, AutogenRun, ConversationMessage } from './autogen.js';
import { finalMessage, replayAutogen } from './autogen.js';
import { COMMANDER_MESSAGE } from './prompts.js';
import type { DebateConfig, DebateState, Position } from './shared.js';
import {
  criticCall,
  formulatePrompt,
  forwardText,
  NO_RESULT,
  NO_SCORE,
  readScore,
  reviseText,
  saysNoIssue,
  scoreText,
  scorerCall,
  scorerOpening,
} from './shared.js';

/** The Scorer reply a forward shows: the conversation's second message (the code) or the latest reply (B.1). */
function shownReply(config: DebateConfig, scorer: readonly ConversationMessage[]): string {
  if (config.criticSees === 'first-reply') return scorer[1]?.content ?? '';
  return scorer.findLast((m) => m.from === 'scorer')?.content ?? '';
}

/** Replays `debate.py`'s loop from the replies recorded so far. */
export function replayCode(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState): AutogenRun {
  const prompt = formulatePrompt(config, task);
  const shownScores: string[] = [];
  return replayAutogen({
    iterations: config.maxIterations,
    prompt: scorerOpening(config, task),
    forward: (i, scorer) => {
      const shown = shownReply(config, scorer);
      const text = forwardText(config, task, prompt, i, shown, shownScores.at(-1) ?? NO_SCORE);
      shownScores.push(scoreText(readScore(config, task, shown)));
      return text;
    },
    feedback: (critique) => reviseText(config, task, critique, shownScores.at(-1) ?? NO_SCORE),
    noIssue: (text) => saysNoIssue(config, text),
    reply: (id) => state.replies[id]?.content,
  });
}

/** A conversation as one agent sees it: its own messages are `assistant`, the other's `user`. */
function asSeenBy(agent: AutogenAgent, conversation: readonly ConversationMessage[]): ChatMessage[] {
  return conversation.map((m) => ({ role: m.from === agent ? 'assistant' : 'user', content: m.content }));
}

function codeCall(config: DebateConfig, task: JudgedPointwiseTask, run: AutogenRun): CallSpec | undefined {
  const pending = run.pending;
  if (!pending) return undefined;
  const { agent, callId, iteration } = pending;
  switch (agent) {
    case 'scorer':
      return scorerCall(config, task, callId, iteration, asSeenBy('scorer', run.scorer));
    case 'commander':
      return {
        id: callId,
        agent: 'commander',
        label: 'Commander',
        stage: iteration === 0 ? 'commander reply' : `iteration ${iteration} commander reply`,
        ...resolveAgentParams(config.defaults, config.commander),
        messages: [
          { role: 'system', content: config.commanderSystem ?? COMMANDER_MESSAGE },
          ...asSeenBy('commander', run.scorer),
        ],
        parser: { type: 'text' },
      };
    case 'critic':
      return criticCall(config, callId, iteration, asSeenBy('critic', run.critic));
  }
}

/** The Scorer and Critic replies of the code loop, in the order they were made. */
export function codeLog(run: AutogenRun): { role: 'scorer' | 'critic'; content: string }[] {
  const out: { role: 'scorer' | 'critic'; content: string }[] = [];
  for (let i = 0; i <= run.iterations; i++) {
    for (const m of run.critic)
      if (m.iteration === i && m.from === 'critic') out.push({ role: 'critic', content: m.content });
    for (const m of run.scorer)
      if (m.iteration === i && m.from === 'scorer') out.push({ role: 'scorer', content: m.content });
  }
  return out;
}

export function codePosition(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState): Position {
  const run = replayCode(config, task, state);
  const scorerReplies = run.scorer.filter((m) => m.from === 'scorer');
  const scoreHistory = scorerReplies.map((m) => state.replies[m.callId ?? '']?.score ?? null);
  const base = { stoppedByNoIssue: run.stoppedByNoIssue, iterations: run.iterations, scoreHistory, calls: run.calls };
  if (state.truncated) {
    const last = scorerReplies.at(-1);
    const score = last ? state.replies[last.callId ?? '']?.score : undefined;
    const result =
      score !== undefined ? { score, from: 'scorer' as const, message: last?.callId, parsed: true } : NO_RESULT;
    return { ...base, result };
  }
  const next = codeCall(config, task, run);
  if (next) return { ...base, next, result: NO_RESULT };
  // `score_agent._oai_messages[commander][-2]`, read by `evalute_score.py`'s rule whatever message it is.
  const final = finalMessage(run);
  if (!final) return { ...base, result: NO_RESULT };
  const message = final.callId ?? (final.kind === 'feedback' ? `feedback${final.iteration}` : 'prompt');
  const score = readScore(config, task, final.content);
  const from =
    final.kind === 'feedback'
      ? 'feedback'
      : final.kind === 'prompt'
        ? 'prompt'
        : final.from === 'scorer'
          ? 'scorer'
          : 'commander';
  return {
    ...base,
    result: score !== undefined ? { score, from, message, parsed: true } : { from: 'none', message, parsed: false },
  };
}
