/**
 * @module
 * The arXiv version's ensemble setups.
 */
import type { Preset } from '../../method.js';
import { TOPICAL_CHAT_FINAL, TOPICAL_CHAT_ROLES, TOPICAL_CHAT_SOLO_TEMPLATES } from '../chateval/index.js';

/** Ensemble presets. */
export const ensemblePresets: Preset[] = [
  {
    id: 'ensemble-chateval-roles',
    description:
      'FairEval pairwise ensemble: General Public, Critic, News Author judged alone, both orders, scores summed over roles and orders.',
    paper: 'ChatEval arXiv §3.2-3.3 Table 1 (Multi-Agent Ensemble: "we average their scores"), cost Table 6',
    taskKind: 'pairwise',
    config: {
      method: 'ensemble',
      agents: [{ role: 'General Public' }, { role: 'Critic' }, { role: 'News Author' }],
      scoreRead: 'script',
      unparsed: 'tie',
      parseRetries: 2,
      repair: 'resend',
      defaults: { temperature: 0, maxTokens: 512 },
      calibration: { enabled: true, combine: 'sum-scores' },
    },
  },
  {
    id: 'ensemble-topical-chat',
    description:
      "Topical-Chat per-aspect ensemble: the authors' Topical-Chat referees judged alone with their prompt minus the discussion, mean score.",
    paper: 'ChatEval arXiv §3.4 Table 2 (EN rows); prompts as chateval-topical-chat without the discussion',
    taskKind: 'pointwise',
    config: {
      method: 'ensemble',
      agents: TOPICAL_CHAT_ROLES.map((role) => ({ role })),
      templates: { pointwiseByAspect: TOPICAL_CHAT_SOLO_TEMPLATES, pointwiseFinal: TOPICAL_CHAT_FINAL },
      pointwiseRead: 'last-char',
      parseRetries: 2,
      repair: 'resend',
      defaults: { temperature: 0, maxTokens: 256 },
    },
  },
];
