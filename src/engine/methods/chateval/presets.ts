/**
 * @module
 * ChatEval presets: the paper's tables as the authors' configs ran them (thunlp/ChatEval @ 3bb65ab for
 * FairEval, @ 3f7612f for Topical-Chat). What differs from the paper's text is a config option, and
 * `docs/fidelity.md` lists every cell.
 */
import type { Preset } from '../../method.js';
import { TOPICAL_CHAT_FINAL, TOPICAL_CHAT_ROLES, TOPICAL_CHAT_TEMPLATES } from './topical-chat.js';

/** Settings every FairEval preset shares: the GPT-4 config's model settings, retries, reading and totals. */
const faireval = (over: Record<string, unknown>) => ({
  method: 'chateval',
  promptSource: 'code',
  scoreRead: 'script',
  aggregate: 'total',
  unparsed: 'tie',
  // `max_retry: 3` with the identical prompt: 3 tries in all.
  parseRetries: 2,
  repair: 'resend',
  defaults: { temperature: 0, maxTokens: 512 },
  calibration: { enabled: true, combine: 'sum-scores' },
  ...over,
});

/** The paper's ChatEval setups. */
export const chatEvalPresets: Preset[] = [
  {
    id: 'chateval-faireval',
    description:
      "FairEval pairwise as the authors' GPT-4 run: General Public + Critic, one-by-one, 2 turns, both orders, every agent's scores summed over both orders.",
    paper:
      'ChatEval §3.2-3.4 Table 1; configs faireval/two_turns_sequential/two_different_role/calc_score_comparison/gpt_4 (3bb65ab)',
    taskKind: 'pairwise',
    config: faireval({ strategy: 'one-by-one', turns: 2, agents: [{ role: 'General Public' }, { role: 'Critic' }] }),
  },
  {
    id: 'chateval-topical-chat',
    description:
      "Topical-Chat per-aspect scoring as the authors' GPT-4 run: Critic, General Public, News Author, one-by-one, 2 turns each, mean score.",
    paper: 'ChatEval §3.5 Table 2 (GPT-4 MA); configs topical_chat/two_turns_sequential/<aspect>/thought (3f7612f)',
    taskKind: 'pointwise',
    config: {
      method: 'chateval',
      strategy: 'one-by-one',
      turns: 2,
      agents: TOPICAL_CHAT_ROLES.map((role) => ({ role })),
      templates: { pointwiseByAspect: TOPICAL_CHAT_TEMPLATES, pointwiseFinal: TOPICAL_CHAT_FINAL },
      pointwiseRead: 'last-char',
      parseRetries: 2,
      repair: 'resend',
      defaults: { temperature: 0, maxTokens: 256 },
    },
  },
  {
    id: 'chateval-simultaneous-talk',
    description:
      'FairEval pairwise, General Public, Critic, News Author talking simultaneously, 2 turns, both orders summed.',
    paper: 'ChatEval §4.2 Table 4, Appendix B Alg. 2; configs faireval/two_turns_concurrent/three_different_role',
    taskKind: 'pairwise',
    config: faireval({ strategy: 'simultaneous-talk', turns: 2, roleGroup: 'generic', agents: [{}, {}, {}] }),
  },
  {
    id: 'chateval-summarizer',
    description:
      "FairEval pairwise, 3 roles talking simultaneously; before turn 2 each agent's memory is summarised and the summary joins it (the authors' code).",
    paper:
      'ChatEval §4.2 Table 4, Appendix B Alg. 3; configs faireval/two_turns_summary/three_different_role, memory_manipulator/summary.py',
    taskKind: 'pairwise',
    config: faireval({
      strategy: 'simultaneous-talk-with-summarizer',
      summaryMode: 'append',
      turns: 2,
      roleGroup: 'generic',
      agents: [{}, {}, {}],
    }),
  },
  {
    id: 'chateval-same-role',
    description:
      'Same-role ablation: Annotator1 and Annotator2 with one role prompt, one-by-one, 2 turns, both orders summed.',
    paper: 'ChatEval §4.1 Table 3; configs faireval/two_turns_sequential/two_same_role',
    taskKind: 'pairwise',
    config: faireval({ strategy: 'one-by-one', turns: 2, sameRole: true, agents: [{}, {}] }),
  },
];
