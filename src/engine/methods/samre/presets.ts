/**
 * @module
 * SAMRE presets: the code's run (`main.py`) with and without jurors, and Alg. 2's early stop.
 */
import type { Preset } from '../../method.js';

const CODE_RUN = { method: 'samre', flow: 'code', maxRounds: 4, earlyStop: false, parseRetries: 0 } as const;

/** SAMRE presets. */
export const samrePresets: readonly Preset[] = [
  {
    id: 'samre-mtbench',
    description:
      "SAMRE as the authors' code: 1 advocate per answer (summarised, in turn), 4 rounds all run, 3 jurors whose vote tuples are summed",
    paper:
      'Bandi et al. §3.2, Alg. 2, App. C.2-C.3, E.1; Table 1 (SAMRE); LLM-Judging-Architectures utils/SAMRE_architecture.py, main.py (2c4e937)',
    taskKind: 'pairwise',
    config: { ...CODE_RUN, jurorCount: 3 },
  },
  {
    id: 'samre-no-jury',
    description: 'SAMRE without juries as the code: 4 rounds all run, the mean of the judge round tuples decides',
    paper: 'Bandi et al. §3.2, Alg. 2 lines 10-11; Table 1 (SAMRE without Juries); main.py accuracy_judge',
    taskKind: 'pairwise',
    config: { ...CODE_RUN, jurorCount: 0 },
  },
  {
    id: 'samre-early-stop',
    description:
      'SAMRE with Alg. 2 line 5: stops once the judge prefers the same answer in two consecutive rounds; otherwise as samre-mtbench',
    paper: 'Bandi et al. §3.2 ("a stopping mechanism"), Alg. 2 line 5',
    taskKind: 'pairwise',
    config: { ...CODE_RUN, jurorCount: 3, earlyStop: true },
  },
];
