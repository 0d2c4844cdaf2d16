/**
 * @module
 * Few-shot alignment of a pairwise rubric to human labels: examples chosen from the judge's corrections (the
 * labelled items where its verdict differed from the human's), most confident mistakes first, appended to the
 * criteria in one fixed form, so the judge sees how humans decided where it went wrong. The criteria slot is
 * the only place a rubric reaches a template (docs/fidelity.md, "Your own criteria"), so the examples ride in it.
 *
 * Pure: no I/O.
 */

/** The longest criteria a rubric takes (characters): the examples are cut to fit. */
const MAX_CRITERIA_CHARS = 8_000;
/** The longest text of one field of an example (characters): longer ones are cut with `…`. */
const MAX_FIELD_CHARS = 400;

/** A labelled pairwise item with the judge's verdict on it. */
export interface JudgedLabel {
  question: string;
  answerA: string;
  answerB: string;
  human: 'A' | 'B' | 'tie';
  judge: 'A' | 'B' | 'tie' | null;
  /** The judge's confidence (0-1); null without a verdict. */
  confidence: number | null;
}

/** The corrections among judged labels, the judge's most confident mistakes first, at most `k` (default 4). */
export function chooseCorrections(items: readonly JudgedLabel[], k = 4): JudgedLabel[] {
  return items
    .map((it, i) => ({ it, i }))
    .filter(({ it }) => it.judge !== null && it.judge !== it.human)
    .sort((x, y) => (y.it.confidence ?? 0) - (x.it.confidence ?? 0) || x.i - y.i)
    .slice(0, k)
    .map(({ it }) => it);
}

const oneLine = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_FIELD_CHARS ? `${flat.slice(0, MAX_FIELD_CHARS - 1)}…` : flat;
};

/**
 * The criteria followed by the examples, each as `Example n`, `Question: …`, `Answer A: …`, `Answer B: …`,
 * `Human verdict: A|B|tie` (one line per field), as many as fit in the rubric's 8,000 characters.
 */
export function fewShotCriteria(criteria: string, examples: readonly JudgedLabel[]): string {
  if (examples.length === 0) return criteria;
  let out = `${criteria.trimEnd()}\n\nHow human reviewers decided cases this judge got wrong (follow them):`;
  for (const [n, e] of examples.entries()) {
    const block = `\n\nExample ${n + 1}\nQuestion: ${oneLine(e.question)}\nAnswer A: ${oneLine(e.answerA)}\nAnswer B: ${oneLine(e.answerB)}\nHuman verdict: ${e.human}`;
    if (out.length + block.length > MAX_CRITERIA_CHARS) break;
    out += block;
  }
  return out;
}
