/**
 * @module
 * MT-Bench's human judgments as a comparison: the six models' answers to each question as one item's
 * `outputs`, and every human vote as a pair outcome, so a judge's ranking can be set against the humans'.
 * Node only (reads `datasets/` through ./loaders.ts).
 *
 * The shipped file (`mt_bench/mt_bench_human_binary_3355.jsonl.gz`) has no model names, only each
 * pair's two answers. Its rows keep the order of lmsys' `human` split: by question, then `model_a`, then
 * `model_b`, each by name. So within a question, the names in alphabetical order are the one assignment of
 * the question's distinct answers under which the rows are sorted ({@link inferModelRanks}); a question
 * where no assignment or more than one fits, or with fewer than six answers, is left out (9 of 80 today).
 * The humans' win rates under the inferred names reproduce the paper's order (GPT-4 first, LLaMA-13B last),
 * which the tests pin. Human ties were mapped to B upstream, so every vote has a winner.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PairOutcome } from '../metrics/pairs.js';
import { DATASETS_DIR, loadMtBench, MT_BENCH_JOINS } from './loaders.js';

/** MT-Bench's six models, in alphabetical order (the order of lmsys' rows). */
export const MT_BENCH_MODELS = [
  'alpaca-13b',
  'claude-v1',
  'gpt-3.5-turbo',
  'gpt-4',
  'llama-13b',
  'vicuna-13b-v1.2',
] as const;

/** One item of a comparison built from a dataset: the body `POST /v1/comparisons` takes per item. */
export interface ComparisonDatasetItem {
  id: string;
  question: string;
  reference?: string;
  outputs: Record<string, string>;
}

/** A comparison dataset: candidates, items with every candidate's output, and the humans' pairwise votes. */
export interface ComparisonDataset {
  name: string;
  candidates: string[];
  items: ComparisonDatasetItem[];
  /** One per human vote: `item` is `<item id>#<n>` (several humans judged some pairs), `a`/`b` candidates. */
  votes: PairOutcome[];
  /** Questions left out, and why. */
  skipped: { question: string; reason: string }[];
}

/** One row of the file as the inference reads it: the question and the two answers, by text. */
export interface AnswerPairRow {
  question: string;
  answerA: string;
  answerB: string;
}

/**
 * The rank (index in the sorted model list) of each distinct answer of ONE question's rows, answers in
 * order of first appearance, or null when no assignment or more than one keeps the rows sorted by
 * (rank of A, rank of B). `models` is how many names there are (6).
 */
export function inferModelRanks(rows: readonly AnswerPairRow[], models: number): number[] | null {
  const answers: string[] = [];
  for (const r of rows) for (const a of [r.answerA, r.answerB]) if (!answers.includes(a)) answers.push(a);
  const seq = rows.map((r) => [answers.indexOf(r.answerA), answers.indexOf(r.answerB)] as const);
  let found: number[] | null = null;
  const rank: number[] = [];
  const used = new Set<number>();
  // Depth-first over assignments (at most 6! = 720), stopping at a second fit.
  const search = (k: number): boolean => {
    if (k === answers.length) {
      const sorted = seq.every((s, i) => {
        const prev = seq[i - 1];
        if (!prev) return true;
        const [a0, b0] = [rank[prev[0]] ?? 0, rank[prev[1]] ?? 0];
        const [a1, b1] = [rank[s[0]] ?? 0, rank[s[1]] ?? 0];
        return a0 < a1 || (a0 === a1 && b0 <= b1);
      });
      if (!sorted) return false;
      if (found) return true;
      found = [...rank];
      return false;
    }
    for (let m = 0; m < models; m++) {
      if (used.has(m)) continue;
      used.add(m);
      rank[k] = m;
      const second = search(k + 1);
      used.delete(m);
      if (second) return true;
    }
    return false;
  };
  return search(0) ? null : found;
}

/** FastChat's question ids by their turns joined as the human-judgment file joins them. */
function questionIds(): Map<string, number> {
  const text = readFileSync(join(DATASETS_DIR, 'mt_bench', 'questions.jsonl'), 'utf8');
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const q = JSON.parse(line) as { question_id: number; turns: string[] };
    out.set(q.turns.join(MT_BENCH_JOINS.question), q.question_id);
  }
  return out;
}

/** MT-Bench's human judgments as a comparison of its six models (see the module note). */
export function loadMtBenchComparison(): ComparisonDataset {
  const labelled = loadMtBench();
  const ids = questionIds();
  const byQuestion = new Map<string, { rows: AnswerPairRow[]; human: ('A' | 'B')[]; reference?: string }>();
  for (const item of labelled) {
    const t = item.task;
    if (t.kind !== 'pairwise' || t.question === undefined) continue;
    const entry = byQuestion.get(t.question) ?? {
      rows: [],
      human: [],
      ...(t.reference !== undefined ? { reference: t.reference } : {}),
    };
    entry.rows.push({ question: t.question, answerA: t.answerA, answerB: t.answerB });
    entry.human.push(item.human === 'A' ? 'A' : 'B');
    byQuestion.set(t.question, entry);
  }
  const items: ComparisonDatasetItem[] = [];
  const votes: PairOutcome[] = [];
  const skipped: ComparisonDataset['skipped'] = [];
  for (const [question, entry] of byQuestion) {
    const id = `mt-bench-q${String(ids.get(question) ?? items.length + skipped.length)}`;
    const ranks = inferModelRanks(entry.rows, MT_BENCH_MODELS.length);
    if (!ranks || ranks.length !== MT_BENCH_MODELS.length) {
      skipped.push({
        question: id,
        reason: ranks ? `${String(ranks.length)} answers, not 6` : 'the models cannot be told apart from the row order',
      });
      continue;
    }
    const answers: string[] = [];
    for (const r of entry.rows) for (const a of [r.answerA, r.answerB]) if (!answers.includes(a)) answers.push(a);
    const nameOf = (answer: string) => MT_BENCH_MODELS[ranks[answers.indexOf(answer)] ?? 0] as string;
    const outputs: Record<string, string> = {};
    answers.forEach((a) => (outputs[nameOf(a)] = a));
    items.push({ id, question, ...(entry.reference !== undefined ? { reference: entry.reference } : {}), outputs });
    entry.rows.forEach((r, n) =>
      votes.push({ item: `${id}#${String(n)}`, a: nameOf(r.answerA), b: nameOf(r.answerB), winner: entry.human[n] ?? null }),
    );
  }
  return { name: 'mt-bench-human', candidates: [...MT_BENCH_MODELS], items, votes, skipped };
}

/** Comparison datasets by name. */
export const COMPARISON_DATASETS: Readonly<Record<string, () => ComparisonDataset>> = {
  'mt-bench-human': loadMtBenchComparison,
};

/** The comparison dataset `name`. @throws Error naming the sets there are for an unknown name. */
export function loadComparisonDataset(name: string): ComparisonDataset {
  const load = COMPARISON_DATASETS[name];
  if (!load) throw new Error(`no comparison dataset "${name}" (there is: ${Object.keys(COMPARISON_DATASETS).join(', ')})`);
  return load();
}
