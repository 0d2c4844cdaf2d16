/**
 * @module
 * Cascade presets: a cheap judge first, a debate only when it is unsure (Jung et al. 2024's cascaded
 * selective evaluation, with the practical part: per-stage rules and confidence thresholds, calibratable from
 * a labelled run, src/metrics/cascade.ts).
 */
import type { Preset } from '../../method.js';

/** Cascade presets. */
export const cascadePresets: Preset[] = [
  {
    id: 'cascade-fastchat-chateval',
    description:
      'FastChat pair-v2 in both orders (2 calls); when the orders disagree or a reply is unreadable, ChatEval on FairEval (General Public + Critic, 2 turns, both orders) decides',
    paper:
      'Jung et al. 2024 (Trust or Escalate) §4, arXiv 2407.18370; stages fastchat-pair (Zheng et al. 2023) → chateval-faireval (ChatEval Table 1)',
    taskKind: 'pairwise',
    config: {
      method: 'cascade',
      stages: [
        {
          preset: 'fastchat-pair',
          label: 'FastChat pair-v2',
          escalate: { orderFlip: true, split: true, tie: false, unparsed: true, minConfidence: 0 },
        },
        { preset: 'chateval-faireval', label: 'ChatEval' },
      ],
    },
  },
];
