/**
 * @module
 * `text_similarity`'s metrics, each a score in [0, 1] of `input` against `reference`
 * (docs/migrate-from-openai-evals.md says how each compares with OpenAI's):
 * - `fuzzy_match`: fuzzball's `ratio` (a port of TheFuzz / rapidfuzz's `fuzz.ratio`, the Indel similarity)
 *   / 100;
 * - `rouge_1` … `rouge_5`, `rouge_l`: js-rouge's F1 (`n`, and `l` on the whole text as one sentence), on
 *   Google rouge-score's tokens (lower case, runs of letters and digits);
 * - `bleu`: sentence BLEU-4, uniform weights, brevity penalty and sacrebleu's `exp` smoothing;
 * - `gleu`: sentence GLEU (Google BLEU as nltk's `sentence_gleu`): min(precision, recall) of 1-4-grams;
 * - `meteor`: METEOR as nltk's `meteor_score` (alpha 0.9, beta 3, gamma 0.5) with exact and Porter-stem
 *   matches (the `stemmer` package); WordNet synonyms are not matched;
 * - `cosine`: the cosine of the two texts' embeddings, through {@link SimilarityDeps.embed}.
 * No npm package computes BLEU, GLEU or METEOR with smoothing or stems (the one `bleu-score` package splits
 * on spaces and does not smooth), so those three are here, each a few lines of the published definition.
 */
import { ratio } from 'fuzzball';
import { l as rougeL, n as rougeN } from 'js-rouge';
import { stemmer } from 'stemmer';
import type { SimilarityMetric } from './grader-schemas.js';

/** What a metric may need from outside: embeddings, for `cosine`. */
export interface SimilarityDeps {
  /** The embeddings of `texts`, in order. */
  embed?: (texts: readonly string[]) => Promise<number[][]>;
}

/** Google rouge-score's tokens: lower case, runs of ASCII letters and digits. */
function rougeTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Word and punctuation tokens (as sacrebleu's 13a splits punctuation off words). */
function wordTokens(text: string, lower = false): string[] {
  return (lower ? text.toLowerCase() : text).match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? [];
}

function ngrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Clipped matches of `n`-grams of `hyp` in `ref`, and the totals of each. */
function overlap(hyp: readonly string[], ref: readonly string[], n: number) {
  const h = ngrams(hyp, n);
  const r = ngrams(ref, n);
  let matches = 0;
  for (const [key, count] of h) matches += Math.min(count, r.get(key) ?? 0);
  return { matches, hypTotal: Math.max(hyp.length - n + 1, 0), refTotal: Math.max(ref.length - n + 1, 0) };
}

/** Sentence BLEU-4 with sacrebleu's `exp` smoothing. */
export function bleu(input: string, reference: string): number {
  const hyp = wordTokens(input);
  const ref = wordTokens(reference);
  if (hyp.length === 0 || ref.length === 0) return 0;
  let logSum = 0;
  let k = 1;
  for (let n = 1; n <= 4; n++) {
    const { matches, hypTotal } = overlap(hyp, ref, n);
    if (hypTotal === 0) return 0;
    let p = matches / hypTotal;
    if (matches === 0) {
      k *= 2;
      p = 1 / (k * hypTotal);
    }
    logSum += Math.log(p) / 4;
  }
  const bp = hyp.length >= ref.length ? 1 : Math.exp(1 - ref.length / hyp.length);
  return bp * Math.exp(logSum);
}

/** Sentence GLEU over 1-4-grams, as nltk's `sentence_gleu`. */
export function gleu(input: string, reference: string): number {
  const hyp = wordTokens(input);
  const ref = wordTokens(reference);
  let matches = 0;
  let hypTotal = 0;
  let refTotal = 0;
  for (let n = 1; n <= 4; n++) {
    const o = overlap(hyp, ref, n);
    matches += o.matches;
    hypTotal += o.hypTotal;
    refTotal += o.refTotal;
  }
  if (hypTotal === 0 || refTotal === 0) return 0;
  return Math.min(matches / hypTotal, matches / refTotal);
}

/** Greedy one-to-one alignment of `hyp` to `ref` words under `same`, skipping words already aligned. */
function align(
  hyp: readonly string[],
  ref: readonly string[],
  pairs: [number, number][],
  same: (a: string, b: string) => boolean,
): void {
  const usedH = new Set(pairs.map(([h]) => h));
  const usedR = new Set(pairs.map(([, r]) => r));
  for (let h = 0; h < hyp.length; h++) {
    if (usedH.has(h)) continue;
    for (let r = 0; r < ref.length; r++) {
      if (usedR.has(r) || !same(hyp[h] ?? '', ref[r] ?? '')) continue;
      pairs.push([h, r]);
      usedH.add(h);
      usedR.add(r);
      break;
    }
  }
}

/** METEOR as nltk's `meteor_score` without WordNet (exact, then Porter-stem matches). */
export function meteor(input: string, reference: string): number {
  const hyp = wordTokens(input, true);
  const ref = wordTokens(reference, true);
  if (hyp.length === 0 || ref.length === 0) return 0;
  const pairs: [number, number][] = [];
  align(hyp, ref, pairs, (a, b) => a === b);
  align(hyp, ref, pairs, (a, b) => stemmer(a) === stemmer(b));
  const m = pairs.length;
  if (m === 0) return 0;
  const precision = m / hyp.length;
  const recall = m / ref.length;
  const fmean = (precision * recall) / (0.9 * precision + 0.1 * recall);
  pairs.sort((a, b) => a[0] - b[0]);
  let chunks = 1;
  for (let i = 1; i < pairs.length; i++) {
    const [h0, r0] = pairs[i - 1] ?? [0, 0];
    const [h1, r1] = pairs[i] ?? [0, 0];
    if (h1 !== h0 + 1 || r1 !== r0 + 1) chunks += 1;
  }
  const penalty = 0.5 * (chunks / m) ** 3;
  return fmean * (1 - penalty);
}

function rouge(input: string, reference: string, metric: SimilarityMetric): number {
  const tokenizer = rougeTokens;
  if (tokenizer(input).length === 0 || tokenizer(reference).length === 0) return 0;
  try {
    if (metric === 'rouge_l') return rougeL(input, reference, { tokenizer, segmenter: (s) => [s] });
    return rougeN(input, reference, { n: Number(metric.slice('rouge_'.length)), tokenizer });
  } catch {
    // js-rouge refuses texts shorter than n tokens: no n-gram overlaps, so the score is 0.
    return 0;
  }
}

/** The cosine of two vectors (0 when either is zero). */
export function cosineOf(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    na += (a[i] ?? 0) ** 2;
    nb += (b[i] ?? 0) ** 2;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * The metric's score of `input` against `reference`, in [0, 1].
 * @throws Error for `cosine` without {@link SimilarityDeps.embed}, or when embedding fails.
 */
export async function similarity(
  metric: SimilarityMetric,
  input: string,
  reference: string,
  deps: SimilarityDeps = {},
): Promise<number> {
  switch (metric) {
    case 'fuzzy_match':
      return ratio(input, reference, { full_process: false }) / 100;
    case 'bleu':
      return bleu(input, reference);
    case 'gleu':
      return gleu(input, reference);
    case 'meteor':
      return meteor(input, reference);
    case 'cosine': {
      if (!deps.embed) throw new Error('cosine needs embeddings, and none are configured');
      const [a = [], b = []] = await deps.embed([input, reference]);
      return Math.min(1, Math.max(0, cosineOf(a, b)));
    }
    default:
      return rouge(input, reference, metric);
  }
}
