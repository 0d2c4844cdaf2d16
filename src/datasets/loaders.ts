/**
 * @module
 * Human-labelled benchmark sets as engine tasks: FairEval, Topical-Chat (USR), SummEval and MT-Bench
 * human judgments, plus customer files of {@link LabelledItem}s. Node only (reads `datasets/` with
 * `node:fs`); the metrics in `metrics.ts` stay runtime-neutral. Provenance and licences: `datasets/NOTICE`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { fastChatNeedsReference } from '../engine/methods/single/index.js';
import type { Aspect } from '../engine/task.js';
import type { LabelledItem } from '../metrics/labelled.js';
import { LabelledItemSchema } from '../metrics/labelled.js';


/** The `datasets/` folder at the repository root (this file lives in `src/metrics/`). */
export const DATASETS_DIR = fileURLToPath(new URL('../../datasets/', import.meta.url));

/** Topical-Chat (USR) aspects and their scales, inclusive. */
export const TOPICAL_CHAT_ASPECTS = {
  naturalness: { min: 1, max: 3 },
  coherence: { min: 1, max: 3 },
  engagingness: { min: 1, max: 3 },
  groundedness: { min: 0, max: 1 },
  understandability: { min: 0, max: 1 },
  overall: { min: 1, max: 5 },
} as const satisfies Record<string, Aspect['scale']>;
/** A Topical-Chat aspect name. */
export type TopicalChatAspect = keyof typeof TOPICAL_CHAT_ASPECTS;

/** SummEval aspects; all on 1-5. */
export const SUMMEVAL_ASPECTS = ['coherence', 'consistency', 'fluency', 'relevance'] as const;
/** A SummEval aspect name. */
export type SummEvalAspect = (typeof SUMMEVAL_ASPECTS)[number];

// ---------------------------------------------------------------------------------------------
// Raw file shapes (validated so a replaced file fails loudly, not with NaN metrics)

const FairEvalRowSchema = z.object({
  question_id: z.number().int().nonnegative(),
  question: z.string(),
  category: z.string(),
  response: z.object({ gpt35: z.string(), vicuna: z.string() }),
  human_results: z.enum(['gpt35', 'vicuna', 'tie']),
});

const topicalScores = z.object(
  Object.fromEntries(Object.keys(TOPICAL_CHAT_ASPECTS).map((k) => [k, z.number()])) as Record<
    TopicalChatAspect,
    z.ZodNumber
  >,
);
const TopicalChatRowSchema = z.object({
  source: z.string(),
  system_id: z.string(),
  system_output: z.string(),
  context: z.string(),
  scores: topicalScores,
});

const SummEvalRowSchema = z.object({
  article_id: z.string().min(1),
  summary_id: z.string().min(1),
  article: z.string(),
  summary: z.string(),
  coherence: z.number(),
  consistency: z.number(),
  fluency: z.number(),
  relevance: z.number(),
});

const binaryScore = z.union([z.literal('0'), z.literal('1'), z.literal(0), z.literal(1)]).transform((v) => Number(v));
const MtBenchRowSchema = z
  .object({
    Question: z.string(),
    Response_A: z.string(),
    Response_B: z.string(),
    Model_A_Score: binaryScore,
    Model_B_Score: binaryScore,
  })
  .refine((r) => r.Model_A_Score + r.Model_B_Score === 1, 'exactly one of Model_A_Score / Model_B_Score must be 1');

const twoTurns = z.tuple([z.string(), z.string()]);
const MtBenchQuestionSchema = z.object({ question_id: z.number().int(), category: z.string(), turns: twoTurns });
const MtBenchReferenceSchema = z.object({
  question_id: z.number().int(),
  choices: z.array(z.object({ turns: twoTurns })).min(1),
});

/**
 * How the human-judgment file joins a conversation's two turns (`data/preprocess_mt_bench.py` of
 * LLM-Judging-Architectures @ 2c4e937): the user turns with `Then,`, each model's answers with
 * `Now for the other part of the question: `.
 */
export const MT_BENCH_JOINS = { question: 'Then,', answer: 'Now for the other part of the question: ' } as const;

// ---------------------------------------------------------------------------------------------
// Loaders

/**
 * FairEval: 80 questions, ChatEval's Table 1 setting: gpt-3.5 is Assistant 1 (answer A), Vicuna-13B is
 * Assistant 2 (answer B). Human majority label gpt35 → A, vicuna → B, tie → tie (41 / 25 / 14).
 */
export function loadFairEval(): LabelledItem[] {
  const rows = z.array(FairEvalRowSchema).parse(readJson('faireval/faireval_80.json'));
  const label = { gpt35: 'A', vicuna: 'B', tie: 'tie' } as const;
  return validated(
    rows.map((r) => ({
      id: `faireval-${r.question_id}`,
      task: { kind: 'pairwise', question: r.question, answerA: r.response.gpt35, answerB: r.response.vicuna },
      human: label[r.human_results],
    })),
    'faireval',
  );
}

/**
 * Topical-Chat (USR): 360 responses = 60 dialogues × 6 systems, scored on one aspect (mean of 3
 * annotators, scale per {@link TOPICAL_CHAT_ASPECTS}). source = dialogue history, context = the fact,
 * output = the response; group = dialogue index (`0`-`59`; the file lists each dialogue's 6 responses in a row).
 */
export function loadTopicalChat(aspect: TopicalChatAspect): LabelledItem[] {
  // Callers pass strings from the command line cast to the type: check it for real.
  const scale = (TOPICAL_CHAT_ASPECTS as Partial<Record<string, { min: number; max: number }>>)[aspect];
  if (!scale)
    throw new Error(
      `unknown Topical-Chat aspect "${aspect}"; expected one of ${Object.keys(TOPICAL_CHAT_ASPECTS).join(', ')}`,
    );
  const rows = z.array(TopicalChatRowSchema).parse(readJson('topical_chat/topical_chat_usr_360.json'));
  return validated(
    rows.map((r, i) => ({
      id: `topical-chat-${i}`,
      task: {
        kind: 'pointwise',
        source: r.source,
        context: r.context,
        output: r.system_output,
        aspect: { name: aspect, scale },
      },
      human: r.scores[aspect],
      group: String(Math.floor(i / 6)),
    })),
    'topical-chat',
  );
}

/**
 * SummEval: 1,600 summaries = 100 articles × 16, scored 1-5 on one aspect (mean of 3 experts).
 * source = article, output = summary (tokenized, lower-cased as published); group = article id (`A0`-`A99`).
 */
export function loadSummEval(aspect: SummEvalAspect): LabelledItem[] {
  if (!SUMMEVAL_ASPECTS.includes(aspect))
    throw new Error(`unknown SummEval aspect "${aspect}"; expected one of ${SUMMEVAL_ASPECTS.join(', ')}`);
  const rows = readJsonl('summeval/summeval_1600.jsonl.gz').map((row, i) =>
    parseRow(SummEvalRowSchema, row, 'summeval', i),
  );
  return validated(
    rows.map((r) => ({
      id: `summeval-${r.article_id}-${r.summary_id}`,
      task: {
        kind: 'pointwise',
        source: r.article,
        output: r.summary,
        aspect: { name: aspect, scale: { min: 1, max: 5 } },
      },
      human: r[aspect],
      group: r.article_id,
    })),
    'summeval',
  );
}

/**
 * MT-Bench human judgments, binary: 3,355 pairs, human label A when Model_A_Score = 1, else B. Each item is
 * matched to its FastChat question (`mt_bench/questions.jsonl`) by its first user turn: `group` is the
 * question's category, and for FastChat's `NEED_REF_CATS` (math, reasoning, coding) the task carries GPT-4's
 * reference answer (`mt_bench/reference_answers_gpt4.jsonl`), its two turns joined as the file joins answers,
 * so `fastchat-pair` judges those items with `pair-math-v1` as FastChat does.
 * Caveats: the upstream preprocessing mapped human ties to B (so B is over-counted and no item is a tie),
 * joined both turns of every conversation into one string per question and answer, and dropped which turn
 * the human judged.
 */
export function loadMtBench(): LabelledItem[] {
  const rows = readJsonl('mt_bench/mt_bench_human_binary_3355.jsonl.gz').map((row, i) =>
    parseRow(MtBenchRowSchema, row, 'mt-bench', i),
  );
  const questions = readJsonl('mt_bench/questions.jsonl').map((row, i) =>
    parseRow(MtBenchQuestionSchema, row, 'mt-bench questions', i),
  );
  const references = new Map(
    readJsonl('mt_bench/reference_answers_gpt4.jsonl').map((row, i) => {
      const r = parseRow(MtBenchReferenceSchema, row, 'mt-bench references', i);
      return [r.question_id, r.choices[0]?.turns ?? ['', '']] as const;
    }),
  );
  return validated(
    rows.map((r, i) => {
      const question = questions.find((q) => r.Question.startsWith(`${q.turns[0]}${MT_BENCH_JOINS.question}`));
      if (!question || r.Question !== question.turns.join(MT_BENCH_JOINS.question))
        throw new Error(`mt-bench row ${i}: no FastChat question whose turns join into its Question`);
      const reference = fastChatNeedsReference(question.category) ? references.get(question.question_id) : undefined;
      if (fastChatNeedsReference(question.category) && !reference)
        throw new Error(`mt-bench row ${i}: no reference answer for question ${question.question_id}`);
      return {
        id: `mt-bench-${i}`,
        task: {
          kind: 'pairwise',
          question: r.Question,
          answerA: r.Response_A,
          answerB: r.Response_B,
          ...(reference ? { reference: reference.join(MT_BENCH_JOINS.answer) } : {}),
        },
        human: r.Model_A_Score === 1 ? 'A' : 'B',
        group: question.category,
      };
    }),
    'mt-bench',
  );
}

/** Options of {@link loadDatasetByName}. */
export interface LoadDatasetOptions {
  /** Aspect for pointwise sets; required for `topical-chat` and `summeval`, ignored otherwise. */
  aspect?: string;
}

/**
 * A built-in set by name (`faireval`, `topical-chat`, `summeval`, `mt-bench`), or else a customer file:
 * any other name is read as a path to `.json` (an array of items) or `.jsonl` (one item a line),
 * optionally gzipped (`.gz`).
 */
export function loadDatasetByName(name: string, options: LoadDatasetOptions = {}): LabelledItem[] {
  const aspect = options.aspect;
  switch (name) {
    case 'faireval':
      return loadFairEval();
    case 'mt-bench':
      return loadMtBench();
    case 'topical-chat':
      if (!aspect || !(aspect in TOPICAL_CHAT_ASPECTS)) {
        throw new Error(`topical-chat needs an aspect: ${Object.keys(TOPICAL_CHAT_ASPECTS).join(', ')}`);
      }
      return loadTopicalChat(aspect as TopicalChatAspect);
    case 'summeval':
      if (!aspect || !(SUMMEVAL_ASPECTS as readonly string[]).includes(aspect)) {
        throw new Error(`summeval needs an aspect: ${SUMMEVAL_ASPECTS.join(', ')}`);
      }
      return loadSummEval(aspect as SummEvalAspect);
    default:
      return loadLabelledItemsFile(name);
  }
}

/** Reads a customer file of {@link LabelledItem}s: `.json` array or `.jsonl`, optionally `.gz`. */
export function loadLabelledItemsFile(path: string): LabelledItem[] {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return parseLabelledItems(text, path);
}

/**
 * Parses and validates customer items: a JSON array, or JSONL (one item a line, blank lines skipped).
 * Errors name the item (`source:line` for JSONL, `source[index]` for arrays). Ids must be unique.
 * @param sourceName used in error messages only.
 */
export function parseLabelledItems(text: string, sourceName = 'input'): LabelledItem[] {
  const trimmed = text.trimStart();
  let entries: { where: string; value: unknown }[];
  if (trimmed.startsWith('[')) {
    const parsed: unknown = JSON.parse(trimmed);
    if (!Array.isArray(parsed)) throw new Error(`${sourceName}: expected a JSON array of items`);
    entries = parsed.map((value: unknown, i) => ({ where: `${sourceName}[${i}]`, value }));
  } else {
    entries = [];
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `${sourceName}:${i + 1}`;
      try {
        entries.push({ where, value: JSON.parse(line) });
      } catch (error) {
        throw new Error(`${where}: invalid JSON (${(error as Error).message})`);
      }
    });
  }
  const seen = new Set<string>();
  return entries.map(({ where, value }) => {
    const result = LabelledItemSchema.safeParse(value);
    if (!result.success) throw new Error(`${where}: ${z.prettifyError(result.error)}`);
    if (seen.has(result.data.id)) throw new Error(`${where}: duplicate id "${result.data.id}"`);
    seen.add(result.data.id);
    return result.data;
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function readBytes(relative: string): Buffer {
  const bytes = readFileSync(DATASETS_DIR + relative);
  return relative.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

function readJson(relative: string): unknown {
  return JSON.parse(readBytes(relative).toString('utf8'));
}

function readJsonl(relative: string): unknown[] {
  return readBytes(relative)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

function parseRow<T extends z.ZodType>(schema: T, row: unknown, dataset: string, index: number): z.output<T> {
  const result = schema.safeParse(row);
  if (!result.success) throw new Error(`${dataset} row ${index}: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** Validates the mapped items against {@link LabelledItemSchema}, so built-in sets meet the same bar as customer data. */
function validated(items: unknown[], dataset: string): LabelledItem[] {
  return items.map((item, i) => parseRow(LabelledItemSchema, item, dataset, i));
}
