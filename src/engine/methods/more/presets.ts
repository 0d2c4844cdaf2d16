/**
 * @module
 * MORE presets.
 */
import type { Preset } from '../../method.js';

/** MORE as `main.py` runs it on MT-Bench. */
export const morePresets: readonly Preset[] = [
  {
    id: 'more-mtbench',
    description:
      "MORE as the authors' code: 3 advocates per answer, group 2 answering group 1's aggregate, one scorer (6 criteria x 1-20), first tuple",
    paper:
      'Bandi et al. §3.1, Alg. 1, App. C.2, E; Table 1 (MT-Bench); LLM-Judging-Architectures utils/MORE_architecture.py, main.py (2c4e937)',
    taskKind: 'pairwise',
    config: { method: 'more', advocatesPerSide: 3, groupOrder: 'sequential', promptSource: 'code', parseRetries: 0 },
  },
];
