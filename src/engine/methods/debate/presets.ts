/**
 * @module
 * DEBATE presets (GPT-4 in the paper; the model is the deployment's default). The Table 1 presets follow the
 * authors' `debate.py` as it runs under autogen (the `code` flow and reading); the Tie-breaker exists only in
 * the paper, so its preset is the paper's flow and reading.
 */
import type { Preset } from '../../method.js';

const CODE_RUN = {
  method: 'debate',
  flow: 'code',
  promptSource: 'code',
  criticSees: 'first-reply',
  maxIterations: 2,
  parseRetries: 0,
  defaults: { temperature: 0, maxTokens: 1024 },
} as const;

/** DEBATE presets. */
export const debatePresets: readonly Preset[] = [
  {
    id: 'debate-summeval',
    description:
      "DEBATE on SummEval as debate.py runs under autogen: G-Eval's prompt as P, strict Devil's Advocate, n = 2, the Commander's reply, the score read as evalute_score.py from the Scorer conversation's last-but-one message",
    paper: 'DEBATE §3, Algorithm 1, Appendix B.1, E.1-E.2; Table 1 (SummEval); gunny97/DEBATE debate.py (63de64f)',
    taskKind: 'pointwise',
    config: { ...CODE_RUN, domain: 'summeval', criticPersona: 'strict' },
  },
  {
    id: 'debate-topical-chat',
    description:
      "DEBATE on Topical-Chat aspects as debate.py's loop: strict Devil's Advocate, n = 2 (the Topical-Chat P is ours: none is published)",
    paper: 'DEBATE §3, Algorithm 1, Appendix B.1; Table 1 (Topical-Chat)',
    taskKind: 'pointwise',
    config: { ...CODE_RUN, domain: 'topical-chat', criticPersona: 'strict' },
  },
  {
    id: 'debate-tie-breaker',
    description:
      'DEBATE with the Tie-breaker ("Both" in Figure 2), the paper reading: strict Critic, n = 2, SummEval framing',
    paper: 'DEBATE §4 "Debating style", Appendix B.1, C.3, E.1 (not in the public code)',
    taskKind: 'pointwise',
    config: {
      method: 'debate',
      flow: 'paper',
      promptSource: 'paper',
      criticSees: 'latest-reply',
      domain: 'summeval',
      criticPersona: 'strict',
      maxIterations: 2,
      useTieBreaker: true,
    },
  },
  ...(['moderate', 'weak', 'plain'] as const).map((persona): Preset => ({
    id: `debate-summeval-${persona}`,
    description: `DEBATE on SummEval with the ${persona === 'plain' ? 'Plain (MultiAgent baseline)' : persona === 'weak' ? 'Weakly Negative' : 'Moderate Negative'} Critic persona, n = 2, as debate.py otherwise.`,
    paper: 'DEBATE §4 "Persona of the Critic", Appendix E.1',
    taskKind: 'pointwise',
    config: { ...CODE_RUN, domain: 'summeval', criticPersona: persona },
  })),
];
