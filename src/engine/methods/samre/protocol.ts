/**
 * @module
 * SAMRE, Single Advocate Multi-Round Evaluation (Bandi et al. §3.2, Algorithm 2), by default as the public
 * code runs it for Table 1 (`main.py`: 4 rounds, every round run, 3 jurors; the round flow in `flows.ts`):
 *
 * - Judge: each round ends with a tuple read as the code reads it (the last integer tuple in round or
 *   square brackets); an unreadable one counts as `(0, 0)` (`unparsedRound: 'zero'`, the code) or is left
 *   out (`skip`). The result's `scores` are the mean of the counted round tuples (Alg. 2 line 10).
 * - Jurors: each reads the debate and ends with a vote tuple, read the same way (so a juror echoing the
 *   format line votes `(0, 1)`, as in the code); the votes are summed per answer and the larger sum wins.
 *   Equal sums are a `tie` (the code's `1 if j1 > j2 else 0` counts them for Answer 2; the meta-evaluation
 *   report gives that reading as the authors' accuracy). `jurorTie: 'judge-mean'` lets the judge's mean decide.
 * - Without jurors the judge's mean decides ("SAMRE without Juries").
 * - `earlyStop` (Alg. 2 line 5: stop when the judge prefers the same answer twice in a row) is off in the
 *   code; the `samre-early-stop` preset turns it on. `flow: 'paper'` is Appendix E.1 with parallel advocates.
 * Every call of the code's flow sends its role's MetaGPT prefix as the system message before the prompt
 * (`You are a , named Jury1, your goal is . `), with MetaGPT's 4096-token cap. The code also summarises each
 * juror's vote into that juror's memory, never read again: that call is not made.
 * Confidence: the juror margin |A − B| / jurors when jurors decide, else the normalised gap of the means.
 * Under a budget (`truncate`, only when one refuses a call): the complete rounds are kept and the jurors who
 * voted decide (none: the judge's mean); docs/fidelity.md lists how that departs from Alg. 2.
 */
import type { FinalReply, MethodDefinition, StepResult } from '../../method.js';
import { requireSlots } from '../../slots.js';
import { renderTemplate } from '../../template.js';
import type { MethodVerdict, Vote } from '../../verdict.js';
import { meanPair, winnerOf } from '../../verdict.js';
import type { PairScores } from '../bandi/index.js';
import {
  BANDI_JUROR_BACKGROUNDS,
  BANDI_SLOTS,
  CODE_PARSERS,
  CODE_SAMRE_DEFEND,
  CODE_SAMRE_JUDGE,
  CODE_SAMRE_SUMMARIZER,
  CODE_SAMRE_VOTE,
  FIERCE_ADVOCATE_PROMPT,
  JUDGE_PARSER,
  JUDGE_ROUND_PROMPT,
  JUROR_PARSER,
  JUROR_PROMPT,
  pairwiseOnly,
  scoreGapConfidence,
  storeReply,
  userCall,
  AGENT_FALLBACK,
} from '../bandi/index.js';
import type { SamreConfig, SamreState, SamreTemplates } from './config.js';
import { samreConfigSchema } from './config.js';
import {
  countedScores,
  debateTranscript,
  judgeId,
  jurorId,
  progress,
  rolePrefix,
  roundOf,
  roundScores,
} from './flows.js';

function templatesOf(config: SamreConfig): SamreTemplates {
  const code = config.flow === 'code';
  return {
    advocate: config.templates.advocate ?? (code ? CODE_SAMRE_DEFEND : FIERCE_ADVOCATE_PROMPT),
    judge: config.templates.judge ?? (code ? CODE_SAMRE_JUDGE : JUDGE_ROUND_PROMPT),
    juror: config.templates.juror ?? (code ? CODE_SAMRE_VOTE : JUROR_PROMPT),
    summarizer: config.templates.summarizer ?? CODE_SAMRE_SUMMARIZER,
    judgeParser: code ? CODE_PARSERS.samreJudge : JUDGE_PARSER,
    jurorParser: code ? CODE_PARSERS.juror : JUROR_PARSER,
  };
}

function background(config: SamreConfig, i: number): string {
  return config.jurorBackgrounds[i % config.jurorBackgrounds.length] ?? BANDI_JUROR_BACKGROUNDS[0];
}

function verdictOf(config: SamreConfig, state: SamreState, roundsRun: number, stopReason: string): MethodVerdict {
  const rounds = Array.from({ length: roundsRun }, (_, i) => ({
    round: i + 1,
    scores: roundScores(config, state, i + 1),
    parsed: state.replies[judgeId(i + 1)]?.scores != null,
  }));
  const meanScores = meanPair(countedScores(config, state, roundsRun)) ?? null;
  const judgeVotes: Vote[] = rounds.map((x) => ({
    agent: 'judge',
    label: `Judge (round ${x.round})`,
    parsed: x.parsed,
    ...(x.scores ? { winner: winnerOf(x.scores.a, x.scores.b), scores: x.scores } : {}),
  }));
  // After a budget cut the jury (`cut.jury`), only the jurors who voted count.
  const jurors = Array.from({ length: config.jurorCount }, (_, i) => {
    const reply = state.replies[jurorId(i)];
    return {
      juror: i,
      agent: `juror${i}`,
      background: background(config, i),
      vote: reply?.scores ?? null,
      parsed: reply?.parsed ?? false,
      voted: reply !== undefined,
    };
  }).filter((j) => j.voted || !state.cut?.jury);
  const jurorVotes: Vote[] = jurors.map((j) => ({
    agent: j.agent,
    label: j.background,
    parsed: j.parsed,
    ...(j.vote ? { scores: j.vote, winner: winnerOf(j.vote.a, j.vote.b) } : {}),
  }));
  // The code adds the vote tuples up (an unreadable vote is `(0, 0)`).
  const sums: PairScores = jurors.reduce((t, j) => ({ a: t.a + (j.vote?.a ?? 0), b: t.b + (j.vote?.b ?? 0) }), {
    a: 0,
    b: 0,
  });

  let winner: 'A' | 'B' | 'tie';
  let confidence: number;
  let decidedBy: 'jurors' | 'judge-mean' | 'judge-mean-after-juror-tie' | 'juror-tie' | 'none';
  if (jurors.length > 0 && (sums.a !== sums.b || config.jurorTie === 'tie')) {
    winner = winnerOf(sums.a, sums.b);
    confidence = Math.min(1, Math.abs(sums.a - sums.b) / jurors.length);
    decidedBy = winner === 'tie' ? 'juror-tie' : 'jurors';
  } else if (meanScores) {
    winner = winnerOf(meanScores.a, meanScores.b);
    confidence = scoreGapConfidence(meanScores);
    decidedBy = jurors.length > 0 ? 'judge-mean-after-juror-tie' : 'judge-mean';
  } else {
    winner = 'tie';
    confidence = 0;
    decidedBy = 'none';
  }
  return {
    winner,
    ...(meanScores ? { scores: meanScores } : {}),
    votes: [...judgeVotes, ...jurorVotes],
    confidence,
    details: {
      flow: config.flow,
      maxRounds: config.maxRounds,
      roundsRun,
      earlyStop: stopReason === 'sign-agreement',
      stopReason,
      rounds,
      meanScores,
      unparsedRounds: rounds.filter((x) => !x.parsed).map((x) => x.round),
      jurors: jurors.map(({ juror, background: bg, vote }) => ({ juror, background: bg, vote })),
      jurorSums: sums,
      decidedBy,
    },
    ...(state.cut
      ? {
          truncation: {
            roundsRun,
            roundsPlanned: config.maxRounds,
            jurorsRun: jurors.length,
            jurorsPlanned: config.jurorCount,
          },
        }
      : {}),
  };
}

/** SAMRE as a pure protocol. Pairwise tasks only. */
export const samreMethod: MethodDefinition<SamreConfig, SamreState> = {
  method: 'samre',
  // 2: the code's flow (sequential, summarised advocates), prompts, read rules, 3 jurors, every round.
  // 3: each code prompt after its role's MetaGPT system message; 4096 tokens (MetaGPT's max_token).
  version: 3,
  paper: 'Bandi et al. §3.2, Alg. 2, App. C.2-C.3, E.1; LLM-Judging-Architectures utils/SAMRE_architecture.py',
  taskKinds: ['pairwise'],
  configSchema: samreConfigSchema,
  init(config, task): SamreState {
    requireSlots(
      task.criteria,
      [{ field: 'config.templates.judge', template: templatesOf(config).judge }],
      BANDI_SLOTS,
    );
    return { replies: {} };
  },
  step(config, task, state): StepResult {
    const t = pairwiseOnly(task, 'SAMRE');
    const templates = templatesOf(config);
    const p = progress(config, templates, t, state);
    if (p.kind === 'calls') return p;
    const context = debateTranscript(config, state, p.roundsRun);
    const jurors = Array.from({ length: state.cut?.jury ? 0 : config.jurorCount }, (_, i) => i)
      .filter((i) => !state.replies[jurorId(i)])
      .map((i) => {
        const identity = background(config, i);
        const prompt = renderTemplate(templates.juror, {
          identity,
          question: t.question,
          answer1: t.answerA,
          answer2: t.answerB,
          context,
        });
        return userCall(
          { id: jurorId(i), agent: `juror${i}`, label: identity, stage: 'jury vote', parser: templates.jurorParser },
          prompt,
          config.defaults,
          config.jurors,
          AGENT_FALLBACK,
          rolePrefix(config, `Jury${i + 1}`),
        );
      });
    if (jurors.length > 0) return { kind: 'calls', calls: jurors };
    return { kind: 'verdict', verdict: verdictOf(config, state, p.roundsRun, p.stopReason) };
  },
  reduce(_config, _task, state, reply: FinalReply): SamreState {
    return storeReply(state, reply);
  },
  plannedCalls(config): number {
    const perRound = config.flow === 'code' ? 5 : 3;
    return config.maxRounds * perRound + config.jurorCount;
  },
  // A budget refused a call: a round's call keeps the complete rounds before it (none: nothing to judge),
  // and the jury still votes (each juror checked in turn); a juror's call ends the jury with the votes cast.
  truncate(_config, _task, state, refused): SamreState | null {
    const round = roundOf(refused.callId);
    if (round === null) return { ...state, cut: { ...state.cut, jury: true } };
    return round > 1 ? { ...state, cut: { rounds: round - 1 } } : null;
  },
};
