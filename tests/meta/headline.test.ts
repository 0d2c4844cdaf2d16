/**
 * The papers' headline figures, checked against hand computations of their definitions:
 * Topical-Chat per dialogue context (ChatEval Table 2), SummEval per article (G-Eval, DEBATE Table 1), and
 * MT-Bench accuracy with a judge tie counted as B (Bandi et al.).
 *
 * No ties inside a group, so ρ = 1 − 6 Σd² / (n (n² − 1)) and τ = (C − D) / (n (n − 1) / 2) by hand.
 */
import { describe, expect, it } from 'vitest';
import { reportOptionsFor } from '../../src/metrics/headline.js';
import type { JudgedItem } from '../../src/metrics/agreement.js';
import { reportOfJudged } from '../../src/metrics/agreement.js';
import { toMarkdown } from '../../src/metrics/agreement-markdown.js';

function pointwise(groups: Record<string, { human: number[]; judge: number[] }>): JudgedItem[] {
  return Object.entries(groups).flatMap(([g, { human, judge }]) =>
    human.map((h, i) => ({
      itemId: `${g}-${i}`,
      status: 'succeeded',
      human: h,
      group: g,
      score: judge[i] ?? null,
      decided: true,
    })),
  );
}

describe('Topical-Chat: per dialogue context over its 6 responses', () => {
  const items = pointwise({
    // d = (1, −1, 0, 0, 1, −1): Σd² = 4, ρ = 1 − 24/210 = 0.885714; two discordant pairs: τ = 11/15.
    c1: { human: [1, 2, 3, 4, 5, 6], judge: [2, 1, 3, 4, 6, 5] },
    // Reversed and linear: ρ = τ = r = −1.
    c2: { human: [3, 2.6, 2.2, 1.8, 1.4, 1], judge: [1, 1.4, 1.8, 2.2, 2.6, 3] },
    // Constant judge, constant human: skipped, as the authors' script does.
    c3: { human: [1, 2, 3, 1, 2, 3], judge: [2, 2, 2, 2, 2, 2] },
    c4: { human: [2, 2, 2, 2, 2, 2], judge: [1, 2, 3, 1, 2, 3] },
  });

  it('is the mean over usable contexts, labelled with its definition', () => {
    const report = reportOfJudged(items, { ...reportOptionsFor('topical-chat'), bootstrap: false });
    if (report.kind !== 'pointwise') throw new Error('pointwise expected');
    expect(report.headline?.label).toBe('Dialogue level (ChatEval Table 2)');
    expect(report.headline?.spearman).toBeCloseTo((1 - 24 / 210 - 1) / 2, 10);
    expect(report.headline?.kendall).toBeCloseTo((11 / 15 - 1) / 2, 10);
    // c1's values are its ranks, so its r equals its ρ.
    expect(report.headline?.pearson).toBeCloseTo((1 - 24 / 210 - 1) / 2, 10);
    expect(report.group.spearman).toMatchObject({ groupsUsed: 2, groupsSkipped: 2 });
    const md = toMarkdown(report);
    expect(md.startsWith('**Dialogue level (ChatEval Table 2)**: Spearman ρ -0.057, Kendall τ -0.133')).toBe(true);
    expect(md).toContain('contexts where either side is constant are skipped');
  });
});

describe('SummEval: per article over its summaries', () => {
  const items = pointwise({
    // d = (0, 1, −1, 0): ρ = 1 − 12/60 = 0.8; one discordant pair of 6: τ = 4/6.
    d1: { human: [1, 2, 3, 4], judge: [1, 3, 2, 4] },
    // Ranks (4, 3, 2, 1) against (3, 1, 2, 4): Σd² = 14, ρ = 1 − 84/60 = −0.4; C = 2, D = 4: τ = −1/3.
    d2: { human: [4, 3, 2, 1], judge: [3, 1, 2, 4] },
    d3: { human: [1, 2, 3, 4], judge: [5, 5, 5, 5] },
  });

  it('is the mean over articles, constant ones skipped', () => {
    const report = reportOfJudged(items, { ...reportOptionsFor('summeval'), bootstrap: false });
    if (report.kind !== 'pointwise') throw new Error('pointwise expected');
    expect(report.headline).toMatchObject({ label: 'Summary level (G-Eval; DEBATE Table 1)' });
    expect(report.headline?.spearman).toBeCloseTo((0.8 - 0.4) / 2, 10);
    expect(report.headline?.kendall).toBeCloseTo((4 / 6 - 1 / 3) / 2, 10);
    // Without the option there is no headline (stored reports and customer datasets).
    const plain = reportOfJudged(items, { bootstrap: false });
    expect(plain.kind === 'pointwise' && plain.headline).toBeUndefined();
  });
});

describe('MT-Bench: accuracy with a judge tie counted as B', () => {
  it('is reported next to ours', () => {
    const labels: ['A' | 'B', 'A' | 'B' | 'tie'][] = [
      ['A', 'A'],
      ['B', 'tie'],
      ['A', 'tie'],
      ['B', 'B'],
      ['A', 'B'],
    ];
    const items: JudgedItem[] = labels.map(([human, winner], i) => ({
      itemId: String(i),
      status: 'succeeded',
      human,
      winner,
      decided: true,
    }));
    const report = reportOfJudged(items, { ...reportOptionsFor('mt-bench'), bootstrap: false });
    if (report.kind !== 'pairwise') throw new Error('pairwise expected');
    // Ours: 2 of 5 (ties are wrong against binary labels). Theirs: the tie on a B item is right: 3 of 5.
    expect(report.accuracy.value).toBe(0.4);
    expect(report.accuracyTieAsB).toBe(0.6);
    expect(toMarkdown(report)).toContain('| accuracy (judge tie counted as B, as Bandi et al.) | 0.600 | – |');
    expect(reportOfJudged(items, { bootstrap: false })).not.toHaveProperty('accuracyTieAsB');
  });
});
