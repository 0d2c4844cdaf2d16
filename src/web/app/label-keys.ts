/**
 * @module
 * The labelling page's keyboard shortcuts as data: which key does what for a queue's kind, and the shortcut
 * list the page shows. Pure (no DOM), so tests/web/label-keys.test.ts runs it in Node.
 *
 * Pairwise: `A`, `B`, `T` pick the winner. Pointwise: a digit scores the highlighted row (the overall score,
 * then each aspect) and highlights the next one; `J` / `K` move the highlight. Both: `C` goes to the comment,
 * `Enter` sends the label. Typing in a text field turns the letters off (`Esc` leaves the field, `Ctrl+Enter`
 * sends from it), so a comment can hold any word.
 */

/** A score scale, integer bounds. */
export interface KeyScale {
  min: number;
  max: number;
}

/** What a key does on the labelling page. */
export type LabelKeyAction =
  | { type: 'winner'; winner: 'A' | 'B' | 'tie' }
  | { type: 'digit'; digit: number }
  | { type: 'row'; delta: 1 | -1 }
  | { type: 'comment' }
  | { type: 'submit' };

/** A key press as the page sees it: the key, its modifiers, and whether focus is in a text field. */
export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** Focus is in the comment or another text field: letters and digits type there. */
  typing: boolean;
}

/** What `press` does for a queue of `kind`; null: the key is the browser's (typing, scrolling, Tab…). */
export function labelKeyAction(kind: 'pairwise' | 'pointwise', press: KeyPress): LabelKeyAction | null {
  if (press.key === 'Enter' && (press.ctrlKey === true || press.metaKey === true)) return { type: 'submit' };
  if (press.typing || press.ctrlKey === true || press.metaKey === true || press.altKey === true) return null;
  if (press.key === 'Enter') return { type: 'submit' };
  const key = press.key.toLowerCase();
  if (key === 'c') return { type: 'comment' };
  if (kind === 'pairwise') {
    if (key === 'a') return { type: 'winner', winner: 'A' };
    if (key === 'b') return { type: 'winner', winner: 'B' };
    if (key === 't') return { type: 'winner', winner: 'tie' };
    return null;
  }
  if (/^[0-9]$/.test(key)) return { type: 'digit', digit: Number(key) };
  if (key === 'j') return { type: 'row', delta: 1 };
  if (key === 'k') return { type: 'row', delta: -1 };
  return null;
}

/**
 * The score a digit gives on `scale`, or null when the digit is off it: the digit itself, except that `0` is 10
 * on a scale that reaches 10 but starts above 0 (1-10).
 */
export function digitScore(digit: number, scale: KeyScale): number | null {
  const value = digit === 0 && scale.min > 0 && scale.max >= 10 ? 10 : digit;
  return value >= scale.min && value <= scale.max && Number.isInteger(value) ? value : null;
}

/** Most points a scale shows as buttons (0-10 is 11); a wider one gets a number field. */
export const MAX_SCALE_BUTTONS = 11;

/** True when `scale` is shown as one button per point. */
export function scaleAsButtons(scale: KeyScale): boolean {
  return scale.max - scale.min + 1 <= MAX_SCALE_BUTTONS;
}

/** The shortcut list the page shows for a queue of `kind`: `[keys, what they do]`. */
export function shortcutList(kind: 'pairwise' | 'pointwise'): (readonly [string, string])[] {
  const picks: (readonly [string, string])[] =
    kind === 'pairwise'
      ? [
          ['A', 'Answer A is better'],
          ['B', 'Answer B is better'],
          ['T', 'Tie'],
        ]
      : [
          ['1 … 9, 0', 'Score the highlighted row (0 is 10 on a 1-10 scale), then highlight the next'],
          ['J / K', 'Highlight the next / previous row'],
        ];
  return [
    ...picks,
    ['C', 'Write a comment'],
    ['Esc', 'Leave the comment (shortcuts work again)'],
    ['Enter', 'Send the label and open the next item'],
    ['Ctrl+Enter', 'Send the label from the comment'],
  ];
}
