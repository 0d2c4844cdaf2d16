/** The labelling page's keyboard shortcuts (src/web/app/label-keys.ts): which key does what, and when not. */
import { describe, expect, it } from 'vitest';
import { digitScore, labelKeyAction, scaleAsButtons, shortcutList } from '../../src/web/app/label-keys.js';

const press = (
  key: string,
  extra: { typing?: boolean; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean } = {},
) => ({
  key,
  typing: false,
  ...extra,
});

describe('label shortcuts', () => {
  it('pairwise: A, B and T pick the winner in either case; digits do nothing', () => {
    expect(['a', 'B', 't', '1', 'j'].map((k) => labelKeyAction('pairwise', press(k)))).toEqual([
      { type: 'winner', winner: 'A' },
      { type: 'winner', winner: 'B' },
      { type: 'winner', winner: 'tie' },
      null,
      null,
    ]);
  });

  it('pointwise: digits score, J and K move the highlight; A picks nothing', () => {
    expect(['4', '0', 'j', 'K', 'a'].map((k) => labelKeyAction('pointwise', press(k)))).toEqual([
      { type: 'digit', digit: 4 },
      { type: 'digit', digit: 0 },
      { type: 'row', delta: 1 },
      { type: 'row', delta: -1 },
      null,
    ]);
  });

  it('C goes to the comment and Enter sends, for both kinds', () => {
    for (const kind of ['pairwise', 'pointwise'] as const) {
      expect(labelKeyAction(kind, press('c'))).toEqual({ type: 'comment' });
      expect(labelKeyAction(kind, press('Enter'))).toEqual({ type: 'submit' });
    }
  });

  it('typing in a field turns letters, digits and Enter off; Ctrl+Enter or Cmd+Enter still sends', () => {
    for (const k of ['a', '3', 'c', 'Enter']) expect(labelKeyAction('pairwise', press(k, { typing: true }))).toBeNull();
    expect(labelKeyAction('pointwise', press('Enter', { typing: true, ctrlKey: true }))).toEqual({ type: 'submit' });
    expect(labelKeyAction('pairwise', press('Enter', { typing: true, metaKey: true }))).toEqual({ type: 'submit' });
  });

  it("leaves the browser's own chords alone (Ctrl+A selects, Alt+B is a menu)", () => {
    expect(labelKeyAction('pairwise', press('a', { ctrlKey: true }))).toBeNull();
    expect(labelKeyAction('pairwise', press('b', { altKey: true }))).toBeNull();
    expect(labelKeyAction('pointwise', press('1', { metaKey: true }))).toBeNull();
  });

  it('a digit scores on its scale; 0 is 10 on a 1-10 scale and 0 on a 0-10 one; off the scale is nothing', () => {
    expect(digitScore(4, { min: 1, max: 5 })).toBe(4);
    expect(digitScore(6, { min: 1, max: 5 })).toBeNull();
    expect(digitScore(0, { min: 1, max: 5 })).toBeNull();
    expect(digitScore(0, { min: 1, max: 10 })).toBe(10);
    expect(digitScore(0, { min: 0, max: 10 })).toBe(0);
    expect(digitScore(1, { min: 0, max: 1 })).toBe(1);
  });

  it('shows a scale of up to 11 points as buttons, a wider one as a number field', () => {
    expect([
      scaleAsButtons({ min: 0, max: 10 }),
      scaleAsButtons({ min: 1, max: 5 }),
      scaleAsButtons({ min: 0, max: 100 }),
    ]).toEqual([true, true, false]);
  });

  it("lists every shortcut of the kind on the page, the kind's picks first", () => {
    const pairwise = shortcutList('pairwise').map(([k]) => k);
    expect(pairwise).toEqual(['A', 'B', 'T', 'C', 'Esc', 'Enter', 'Ctrl+Enter']);
    expect(shortcutList('pointwise').map(([k]) => k)).toEqual(['1 … 9, 0', 'J / K', 'C', 'Esc', 'Enter', 'Ctrl+Enter']);
  });
});
