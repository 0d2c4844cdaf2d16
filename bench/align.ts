/**
 * Alignment and certified-mode bench: a judge with a known systematic bias (the mock's `verbose`: a verdict
 * goes to the longer answer with probability p, whatever its quality), 200 simulated human labels, and
 *
 * 1. **align, few-shot**: the judge's corrections on the training split (70%) become few-shot examples in the
 *    rubric's criteria (src/rubrics/few-shot.ts); held-out κ (30%) of the base and the aligned rubric, each with
 *    a bootstrap 95% interval, and the gain's paired interval;
 * 2. **certified mode** at agreement 0.8 / risk 0.05 (src/metrics/certify.ts): over 1,000 random splits of the
 *    recorded judge outputs (half calibration, half held-out; pure Node, no further call), the share of splits
 *    whose answered held-out items agree with the labels ≥ 0.8, and the coverage.
 *
 * The judge: `fastchat-pair` in both orders with 5 samples per order (confidence: the vote margin). Items are
 * arithmetic questions: one answer right, one wrong, one of them padded (the longer one is right in half of them).
 *
 * ```
 * npm run bench:align [-- --items 200 --p 0.7 --splits 1000 --seed 1]
 * npm run bench:align -- --llm https://api.openai.com/v1 --model gpt-4o-mini   # key in LLM_API_KEY
 * ```
 */
import { intOption, parseCliOrExit } from '../src/cli/args.js';
import type { LlmFunction } from '../src/engine/call.js';
import { createEvaluation } from '../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../src/engine/registry.js';
import { runEvaluation } from '../src/engine/runner.js';
import type { PairwiseTask } from '../src/engine/task.js';
import { createLlm } from '../src/llm/client.js';
import { IN_PROCESS_MOCK_URL } from '../src/llm/settings.js';
import { qualityTag } from '../src/mock-llm/judge-mode.js';
import { createLlmWithMock } from '../src/mock-llm/in-process.js';
import { mockModel } from '../src/mock-llm/model-name.js';
import { bootstrapInterval, createRng } from '../src/metrics/bootstrap.js';
import type { CalibrationItem } from '../src/metrics/certify.js';
import { certify, heldOutCertified } from '../src/metrics/certify.js';
import { cohenKappa } from '../src/metrics/stats.js';
import type { JudgedLabel } from '../src/rubrics/few-shot.js';
import { chooseCorrections, fewShotCriteria } from '../src/rubrics/few-shot.js';

const CLI = {
  usage: `usage: npm run bench:align -- [--items N] [--p P] [--splits N] [--seed N] [--llm URL --model NAME]

Few-shot alignment (held-out κ before / after, with intervals) and certified mode (agreement ≥ 0.8 with risk 0.05
over resampled splits, coverage) on a judge with a verbosity bias.

  --items N     simulated labelled items (default 200)
  --p P         the mock's verbosity bias, 0-1 (default 0.7)
  --splits N    resampled calibration / held-out splits (default 1000)
  --seed N      seed of the items, splits and bootstrap (default 1)
  --llm URL     an OpenAI-compatible endpoint instead of the mock (key in LLM_API_KEY; no bias injected)
  --model NAME  the model at --llm (default gpt-4o-mini)
  -h, --help    this text`,
  options: {
    items: { type: 'string', default: '200' },
    p: { type: 'string', default: '0.7' },
    splits: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    llm: { type: 'string' },
    model: { type: 'string', default: 'gpt-4o-mini' },
  },
} as const;
const values = await parseCliOrExit(CLI, (v) => {
  intOption(v.items, 'items', 20);
  intOption(v.splits, 'splits', 1);
  intOption(v.seed, 'seed', 0);
});
const ITEMS = Number(values.items);
const P = Number(values.p);
const SPLITS = Number(values.splits);
const SEED = Number(values.seed);
const real = values.llm !== undefined;

const llm: LlmFunction = real
  ? createLlm({
      providers: {
        default: { baseUrl: values.llm ?? '', ...(process.env.LLM_API_KEY ? { apiKey: process.env.LLM_API_KEY } : {}) },
      },
      defaultModel: values.model,
    })
  : createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock-judge' });
const model = real ? values.model : mockModel({ seed: `align-${SEED}`, vary: true, verbose: P });

// ---- items: arithmetic, one answer right; the padded one is right in half of them ----
const random = createRng(SEED);
const PAD =
  ' Let me think about this step by step, considering each part of the problem carefully and checking the intermediate results twice before I commit to a final answer, as careful work requires.';
interface Item {
  task: PairwiseTask;
  human: 'A' | 'B';
}
const items: Item[] = Array.from({ length: ITEMS }, (_, i) => {
  const x = 12 + Math.floor(random() * 80);
  const y = 12 + Math.floor(random() * 80);
  const right = `${x * y}.`;
  const wrong = `${x * y + 10 * (1 + Math.floor(random() * 9))}.`;
  const longIsRight = random() < 0.5;
  const rightText = longIsRight ? `${PAD} The answer is ${right}` : `The answer is ${right}`;
  const wrongText = longIsRight ? `The answer is ${wrong}` : `${PAD} The answer is ${wrong}`;
  const aIsRight = random() < 0.5;
  const tag = (q: number) => (real ? '' : ` ${qualityTag(q)}`);
  return {
    task: {
      kind: 'pairwise',
      question: `(${i + 1}) What is ${x} × ${y}?`,
      answerA: (aIsRight ? rightText : wrongText) + tag(aIsRight ? 1 : 0),
      answerB: (aIsRight ? wrongText : rightText) + tag(aIsRight ? 0 : 1),
    },
    human: aIsRight ? 'A' : 'B',
  };
});

// ---- the judge ----
const BASE_CRITERIA = 'The correct answer to the question is better; judge correctness only.';
const judgeConfig = resolveMethodConfig('fastchat-pair', {
  calibration: { enabled: true },
  samples: 5,
  defaults: { model, temperature: 0.7 },
});
const method = getMethod(judgeConfig.method);

interface Judged {
  winner: 'A' | 'B' | 'tie' | null;
  confidence: number;
}
async function judge(tasks: readonly Item[], criteria: string): Promise<Judged[]> {
  const out: Judged[] = [];
  for (let at = 0; at < tasks.length; at += 16) {
    const chunk = await Promise.all(
      tasks.slice(at, at + 16).map(async (it) => {
        const state = createEvaluation(method, judgeConfig, it.task, { kind: 'pairwise', criteria });
        const { outcome } = await runEvaluation(method, state, llm);
        if (outcome.status !== 'succeeded') return { winner: null, confidence: 0 };
        return { winner: outcome.verdict.winner ?? null, confidence: outcome.verdict.confidence };
      }),
    );
    out.push(...chunk);
  }
  return out;
}

const kappaOf = (h: readonly string[], j: readonly string[]) => cohenKappa(h, j, ['A', 'B', 'tie']);
const LABEL = (j: Judged) => j.winner ?? 'tie';
const fmt = (x: number) => x.toFixed(3);
const started = performance.now();

// ---- 1. align, few-shot ----
const order = items.map((it, i) => ({ i, k: random() })).sort((a, b) => a.k - b.k);
const heldCount = Math.round(ITEMS * 0.3);
const heldIdx = order.slice(0, heldCount).map((o) => o.i);
const trainIdx = order.slice(heldCount).map((o) => o.i);
const at = (idx: readonly number[]) => idx.map((i) => items[i] as Item);

const baseAll = await judge(items, BASE_CRITERIA);
const train: JudgedLabel[] = trainIdx.map((i) => {
  const it = items[i] as Item;
  const j = baseAll[i] as Judged;
  // The hidden quality tags are the mock's answer key, not text a reviewer would quote.
  const untagged = (t: string) => t.replace(/ \[quality=[^\]]*\]/g, '');
  return {
    question: it.task.question ?? '',
    answerA: untagged(it.task.answerA),
    answerB: untagged(it.task.answerB),
    human: it.human,
    judge: j.winner,
    confidence: j.confidence,
  };
});
const corrections = chooseCorrections(train, 4);
const aligned = fewShotCriteria(BASE_CRITERIA, corrections);
const alignedHeld = await judge(at(heldIdx), aligned);
const baseHeld = heldIdx.map((i) => baseAll[i] as Judged);
const humansHeld = at(heldIdx).map((it) => it.human);
const kBase = kappaOf(humansHeld, baseHeld.map(LABEL));
const kAligned = kappaOf(humansHeld, alignedHeld.map(LABEL));
const pick = <T>(xs: readonly T[], idx: readonly number[]) => idx.map((i) => xs[i] as T);
const opts = { resamples: 2000, seed: SEED };
const ciBase = bootstrapInterval(heldCount, (ix) => kappaOf(pick(humansHeld, ix), pick(baseHeld, ix).map(LABEL)), opts);
const ciAligned = bootstrapInterval(
  heldCount,
  (ix) => kappaOf(pick(humansHeld, ix), pick(alignedHeld, ix).map(LABEL)),
  opts,
);
const ciGain = bootstrapInterval(
  heldCount,
  (ix) =>
    kappaOf(pick(humansHeld, ix), pick(alignedHeld, ix).map(LABEL)) -
    kappaOf(pick(humansHeld, ix), pick(baseHeld, ix).map(LABEL)),
  opts,
);

// ---- 2. certified mode over resampled splits of the recorded outputs ----
async function certifiedOver(outputs: readonly Judged[], humans: readonly ('A' | 'B')[]) {
  const cal: CalibrationItem[] = outputs.map((j, i) => ({
    human: humans[i] as 'A' | 'B',
    stages: [j.winner === null ? null : { winner: j.winner, confidence: j.confidence }],
  }));
  const rng = createRng(SEED + 1);
  let held = 0;
  let empty = 0;
  let coverage = 0;
  let agreement = 0;
  let agreed = 0;
  for (let s = 0; s < SPLITS; s++) {
    const shuffled = cal.map((x) => ({ x, k: rng() })).sort((a, b) => a.k - b.k);
    const half = Math.floor(cal.length / 2);
    const { thresholds } = certify(
      shuffled.slice(0, half).map((o) => o.x),
      { agreement: 0.8, risk: 0.05 },
    );
    const r = heldOutCertified(
      shuffled.slice(half).map((o) => o.x),
      thresholds,
    );
    coverage += r.coverage ?? 0;
    if (r.agreement === null) {
      empty++;
      held++;
      continue;
    }
    agreed++;
    agreement += r.agreement;
    if (r.agreement >= 0.8) held++;
  }
  await Promise.resolve();
  return {
    held: held / SPLITS,
    empty,
    coverage: coverage / SPLITS,
    agreement: agreed === 0 ? null : agreement / agreed,
    overall: outputs.filter((j, i) => j.winner === humans[i]).length / outputs.length,
  };
}
const humansAll = items.map((it) => it.human);
const certBase = await certifiedOver(baseAll, humansAll);
const alignedAll = await judge(items, aligned);
const certAligned = await certifiedOver(alignedAll, humansAll);

const ci = (c: { lo: number; hi: number } | null) => (c ? `[${fmt(c.lo)}, ${fmt(c.hi)}]` : 'n/a');
console.log(
  `bench:align — ${real ? `${values.llm} ${values.model}` : `mock verbose=${P}`}, ${ITEMS} labelled items, seed ${SEED}`,
);
console.log(
  `judge: fastchat-pair, both orders, 5 samples per order, temperature 0.7; ${corrections.length} few-shot corrections from ${trainIdx.length} training items`,
);
console.log('');
console.log(`| held-out (${heldCount} items) | κ | 95% interval |`);
console.log('|---|---|---|');
console.log(`| base rubric | ${fmt(kBase)} | ${ci(ciBase)} |`);
console.log(`| aligned (few-shot) | ${fmt(kAligned)} | ${ci(ciAligned)} |`);
console.log(`| gain | ${fmt(kAligned - kBase)} | ${ci(ciGain)} |`);
console.log('');
console.log(`| certified, agreement 0.8 / risk 0.05, ${SPLITS} splits (half calibration) | base | aligned |`);
console.log('|---|---|---|');
console.log(
  `| splits with held-out agreement ≥ 0.8 | ${(certBase.held * 100).toFixed(1)}% | ${(certAligned.held * 100).toFixed(1)}% |`,
);
console.log(`| of them answering nothing | ${certBase.empty} | ${certAligned.empty} |`);
console.log(
  `| mean coverage of held-out items | ${(certBase.coverage * 100).toFixed(1)}% | ${(certAligned.coverage * 100).toFixed(1)}% |`,
);
console.log(
  `| mean agreement on answered items | ${certBase.agreement === null ? 'n/a' : fmt(certBase.agreement)} | ${certAligned.agreement === null ? 'n/a' : fmt(certAligned.agreement)} |`,
);
console.log(`| agreement over all items, uncertified | ${fmt(certBase.overall)} | ${fmt(certAligned.overall)} |`);
console.log('');
console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
