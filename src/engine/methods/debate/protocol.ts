/**
 * @module
 * DEBATE: Devil's Advocate-Based Assessment and Text Evaluation (Kim et al.; §3, Algorithm 1, Appendix B.1,
 * C.3, E.1-E.2). The Scorer scores the predefined template P, the Critic (the Devil's Advocate) reviews the
 * score, the Commander forwards; a Critic reply with NO_ISSUE ends the loop after at most n iterations.
 *
 * Two control flows (`flow`), because the paper and the authors' `debate.py` differ:
 * - `code` (default): the loop as `debate.py` runs it under pyautogen's reply rules (`autogen.ts`): the
 *   Commander answers the Scorer's first reply with an LLM call of its own (`commander0`), which stays in the
 *   Scorer's conversation; the Scorer answers at most twice in a row, so for n = 2 the calls are `score0`,
 *   `commander0`, `critic1`, `score1`, `critic2`; the score is read from the last-but-one message of the
 *   Scorer's conversation, which is the Commander's feedback text when the second critique says NO_ISSUE.
 * - `paper`: Algorithm 1 and B.1: the Scorer re-scores after every critique (`score0`, `critic1`, `score1`,
 *   `critic2`, `score2`, …) and its last reply is the score.
 *
 * And two prompt readings (`promptSource`):
 * - `code` (default): the Scorer receives P alone; every Critic message carries P and the Scorer's **first**
 *   reply (the code forwards `_oai_messages[score_agent][1]`; `criticSees: 'latest-reply'` is B.1's step 6);
 *   the Critic is never told about NO_ISSUE, and the loop stops when its reply contains `NO_ISSUE`; scores are
 *   read as `evalute_score.py` reads them (first digit of the first integer; fluency: last digit of the last).
 * - `paper`: the Commander's E.1 message opens the Scorer's prompt, the Scorer ends with `Score: <n>`, the
 *   Critic is told to say NO_ISSUE (any of NO_ISSUE / NO ISSUE / NO_ISSUES), the last parsed score stands.
 * The system messages are Appendix E.1's (the repository has no licence, so its own texts are not copied).
 * With the Tie-breaker of C.3 (paper only) and no NO_ISSUE, the Tie-breaker's score is final.
 * Under a budget (`truncate`, only when one refuses a call after the first score) the loop ends there and
 * the Scorer's last score stands.
 */
import type { CallSpec, FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { resolveAgentParams } from '../../method.js';
import type { JudgedPointwiseTask } from '../../judged.js';
import { renderTemplate } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { replayAutogen } from './autogen.js';
import { codeLog, codePosition, replayCode } from './code-flow.js';
import { paperPosition, paperTurns } from './paper-flow.js';
import { TIE_BREAKER_BY_DOMAIN } from './prompts.js';
import type { DebateConfig, DebateReply, DebateState, Position } from './shared.js';
import { asPointwise, baseVars, checkCriteriaSlot, debateConfigSchema, formulatePrompt, template } from './shared.js';

export { debateConfigSchema, formulatePrompt } from './shared.js';
export type { DebateConfig, DebateReply, DebateState } from './shared.js';

/** C.3: the Tie-breaker reads P and the whole debate log. */
function tieBreakerCall(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  log: readonly { role: 'scorer' | 'critic'; content: string }[],
): CallSpec {
  const text = log.map((t) => `${t.role === 'scorer' ? 'Scorer' : 'Critic'}: ${t.content}`).join('\n\n');
  const prompt = formulatePrompt(config, task);
  return {
    id: 'tiebreaker',
    agent: 'tiebreaker',
    label: 'Tie-breaker',
    stage: 'tie-break',
    ...resolveAgentParams(config.defaults, config.tieBreaker),
    messages: [
      { role: 'system', content: config.tieBreakerSystem ?? TIE_BREAKER_BY_DOMAIN[config.domain] },
      {
        role: 'user',
        content: renderTemplate(template(config, 'tieBreaker'), { ...baseVars(task), prompt, log: text }),
      },
    ],
    parser: { type: 'labelled-score', label: 'Score', min: task.aspect.scale.min, max: task.aspect.scale.max },
  };
}

function position(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState): Position {
  return config.flow === 'code' ? codePosition(config, task, state) : paperPosition(config, task, state);
}

/** The Tie-breaker's call when it is due: C.3, no NO_ISSUE within n iterations. */
function tieBreakerDue(
  config: DebateConfig,
  task: JudgedPointwiseTask,
  state: DebateState,
  p: Position,
): CallSpec | undefined {
  if (!config.useTieBreaker || state.truncated || p.stoppedByNoIssue || state.replies.tiebreaker) return undefined;
  const log =
    config.flow === 'code'
      ? codeLog(replayCode(config, task, state))
      : paperTurns(config, state).map((t) => ({ role: t.role, content: t.reply.content }));
  return tieBreakerCall(config, task, log);
}

/**
 * The verdict. Final score: the Tie-breaker's when it ran and parsed; else the debate's own result (see
 * the module note). Confidence: 1 − (max − min) / scale width over every score of the debate.
 */
function conclude(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState, p: Position): MethodVerdict {
  const tie = state.replies.tiebreaker;
  const score = tie?.score ?? p.result.score;
  const votes: Vote[] = [];
  if (p.scoreHistory.length > 0)
    votes.push({
      agent: 'scorer',
      label: 'Scorer',
      ...(p.result.score !== undefined ? { score: p.result.score } : {}),
      parsed: p.result.parsed,
    });
  if (tie)
    votes.push({
      agent: 'tiebreaker',
      label: 'Tie-breaker',
      ...(tie.score !== undefined ? { score: tie.score } : {}),
      parsed: tie.parsed,
    });
  const all = [
    ...p.scoreHistory.flatMap((s) => (s !== null ? [s] : [])),
    ...(p.result.score !== undefined ? [p.result.score] : []),
    ...(tie?.score !== undefined ? [tie.score] : []),
  ];
  const range = task.aspect.scale.max - task.aspect.scale.min;
  const confidence =
    score === undefined || all.length === 0 ? 0 : Math.max(0, 1 - (Math.max(...all) - Math.min(...all)) / range);
  return {
    ...(score !== undefined ? { score } : {}),
    votes,
    confidence,
    details: {
      flow: config.flow,
      promptSource: config.promptSource,
      iterations: p.iterations,
      stoppedByNoIssue: p.stoppedByNoIssue,
      tieBreakerUsed: tie !== undefined,
      scoreHistory: p.scoreHistory,
      ...(tie ? { tieBreakerScore: tie.score ?? null } : {}),
      finalFrom: tie?.score !== undefined ? 'tiebreaker' : p.result.from,
      ...(p.result.message !== undefined ? { finalMessage: p.result.message } : {}),
    },
    ...(state.truncated
      ? {
          truncation: {
            iterationsRun: p.iterations,
            iterationsPlanned: config.maxIterations,
            scorerTurns: p.scoreHistory.length,
            tieBreakerCut: config.useTieBreaker && !tie,
          },
        }
      : {}),
  };
}

/** The call the debate waits for now, if any. */
function pendingCall(config: DebateConfig, task: JudgedPointwiseTask, state: DebateState): CallSpec | undefined {
  const p = position(config, task, state);
  return p.next ?? tieBreakerDue(config, task, state, p);
}

/** The calls of the longest run: every reply is read, no critique says NO_ISSUE, none ends with TERMINATE. */
function longestRun(config: DebateConfig): number {
  if (config.flow === 'paper') return 1 + 2 * config.maxIterations;
  const run = replayAutogen({
    iterations: config.maxIterations,
    prompt: 'P',
    forward: () => 'M',
    feedback: () => 'F',
    noIssue: () => false,
    reply: () => 'R',
  });
  return run.calls.length;
}

/** DEBATE as a protocol: one call per wave, pointwise tasks only. */
export const debateMethod: MethodDefinition<DebateConfig, DebateState> = {
  method: 'debate',
  // 2: the code reading (P alone, the first reply shown to the Critic, evalute_score.py's read).
  // 3: `flow: 'code'`, the loop under autogen's reply rules (the Commander's reply, the Scorer's two turns,
  //    the score from the last-but-one message); G-Eval's P with LF line endings; `int()` before the digit.
  version: 3,
  paper: 'DEBATE (Kim et al.) §3, Algorithm 1, Appendix B.1, C.3, E.1-E.2',
  // The paper evaluates pointwise aspects only and gives no pairwise template.
  taskKinds: ['pointwise'],
  configSchema: debateConfigSchema,
  // P always has G-Eval's evaluation steps: a rubric without them is worth completing (auto-CoT).
  usesEvaluationSteps: () => true,
  init(config, task): DebateState {
    checkCriteriaSlot(config, asPointwise(task));
    return { replies: {} };
  },
  step(config, task, state): StepResult {
    const t = asPointwise(task);
    const p = position(config, t, state);
    const next = p.next ?? tieBreakerDue(config, t, state, p);
    if (next) return { kind: 'calls', calls: [next] };
    return { kind: 'verdict', verdict: conclude(config, t, state, p) };
  },
  reduce(config, task, state, reply: FinalReply): DebateState {
    const next = pendingCall(config, asPointwise(task), state);
    if (!next || reply.callId !== next.id) return state;
    const value = reply.ok ? reply.value : undefined;
    const stored: DebateReply = {
      content: reply.content,
      parsed: reply.ok,
      ...(value?.kind === 'score' ? { score: value.score } : {}),
    };
    return { ...state, replies: { ...state.replies, [reply.callId]: stored } };
  },
  plannedCalls(config): number {
    return longestRun(config) + (config.useTieBreaker ? 1 : 0);
  },
  // A budget refused a call: the loop ends as if the Critic had no more turns, and the Scorer's last score
  // stands (a refused re-score leaves the last critique unanswered). Nothing stands before the first score.
  truncate(_config, _task, state, refused): DebateState | null {
    return refused.callId === 'score0' ? null : { ...state, truncated: true };
  },
};
