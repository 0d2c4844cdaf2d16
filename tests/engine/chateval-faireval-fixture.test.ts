/**
 * The strongest check of ChatEval's aggregation: `chateval-faireval` fed the authors' own recorded GPT-4 final
 * replies (thunlp/ChatEval @ 3f7612f, `datasets/faireval/chateval_gpt4_final_replies.json`) must give what the
 * authors' scoring script (`calc_faireval_results_calc_score_calibration.py` @ 3bb65ab, method `average`)
 * gives on those outputs: 5 ties, accuracy 0.6375 (51 / 80), Cohen's κ 0.4019 (3 × 3, A / B / tie).
 * The discussion turns are answered with placeholder text: only the final replies reach the verdict.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyMethod } from '../../src/engine/method.js';
import { chatEvalMethod } from '../../src/engine/methods/chateval/index.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { DATASETS_DIR, loadFairEval } from '../../src/datasets/loaders.js';
import { accuracy, cohenKappa, PAIR_LABELS } from '../../src/metrics/stats.js';
import type { PairLabel } from '../../src/metrics/stats.js';
import { driveByWaves, verdictOf } from '../support/waves.js';

interface Fixture {
  items: { question_id: number; ab: Record<string, string>; ba: Record<string, string> }[];
}

const fixture = JSON.parse(readFileSync(`${DATASETS_DIR}faireval/chateval_gpt4_final_replies.json`, 'utf8')) as Fixture;
const method = chatEvalMethod as unknown as AnyMethod;

describe('chateval-faireval on the authors’ recorded GPT-4 replies', () => {
  function judgeAll(overrides?: Record<string, unknown>): { human: PairLabel[]; judged: PairLabel[] } {
    const items = loadFairEval();
    const config = resolveMethodConfig('chateval-faireval', overrides);
    const human: PairLabel[] = [];
    const judged: PairLabel[] = [];
    for (const [i, item] of items.entries()) {
      const recorded = fixture.items[i];
      expect(recorded?.question_id).toBe(i);
      const { outcome } = driveByWaves(method, createEvaluation(method, config, item.task), (r) => {
        if (r.parser.type === 'text') return `discussion ${r.id}`;
        const order = r.id.startsWith('ba/') ? 'ba' : 'ab';
        const tail = recorded?.[order][r.label];
        if (tail === undefined) throw new Error(`no recorded reply for ${r.id} (${r.label})`);
        return `Evaluation evidence: (elided)\n${tail}`;
      });
      const v = verdictOf(outcome);
      human.push(item.human as PairLabel);
      judged.push(v.winner ?? 'tie');
    }
    return { human, judged };
  }

  it('reproduces their script: 5 ties, accuracy 0.6375, κ 0.4019', () => {
    const { human, judged } = judgeAll();
    expect(judged.filter((w) => w === 'tie')).toHaveLength(5);
    expect(accuracy(human, judged)).toBe(0.6375);
    expect(cohenKappa(human, judged, PAIR_LABELS)).toBeCloseTo(0.4019, 4);
  });

  it('per-agent majority (a reading of the arXiv text) would give 16 ties on the same replies', () => {
    const { judged } = judgeAll({ calibration: { enabled: true, combine: 'per-agent-majority' } });
    expect(judged.filter((w) => w === 'tie')).toHaveLength(16);
  });
});
