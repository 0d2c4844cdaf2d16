/**
 * Alignment and certified-mode bench: a judge with a known systematic bias (the mock's `verbose`: a verdict
 * goes to the longer answer with probability p, whatever its quality), 200 simulated human labels, and
 *
 * 1. **align** with the decisions `POST /v1/rubrics/{id}/align`'s job makes (src/align/core.ts: the split, the
 *    few-shot candidate or the rewrite's input and criteria, held-out κ with intervals, the tag rule): the judge's
 *    corrections on the learning items (70%) become few-shot examples in the criteria (`--method instructions`:
 *    the rules the LLM writes from them, with the job's rewrite prompt); held-out κ (30%) of the base and the
 *    aligned rubric, each with a bootstrap 95% interval, and the gain's paired interval. The judging runs in
 *    process (the engine), where the job runs it as meta-evaluations; the job has no per-item confidence, so
 *    its few-shot examples are the first mistakes where the bench's are the most confident ones;
 * 2. **certified mode** at agreement 0.8 / risk 0.05 (src/metrics/certify.ts): over 1,000 random splits of the
 *    recorded judge outputs (half calibration, half held-out; pure Node, no further call), the share of splits
 *    whose answered held-out items agree with the labels ≥ 0.8, and the coverage.
 *
 * The judge: `fastchat-pair` in both orders with 5 samples per order (confidence: the vote margin). Items are
 * arithmetic questions: one answer right, one wrong, one of them padded (the longer one is right in half of them).
 *
 * ```
 * npm run bench:align [-- --items 200 --p 0.7 --splits 1000 --seed 1 --method few-shot --holdout 0.3]
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
import { createRng } from '../src/metrics/bootstrap.js';
import type { CalibrationItem } from '../src/metrics/certify.js';
import { certify, heldOutCertified } from '../src/metrics/certify.js';
import type { JudgedLabel } from '../src/align/few-shot.js';
import {
  fewShotCandidate,
  heldOutAgreement,
  instructionsCriteria,
  rewriteInput,
  splitOf,
  tagMoves,
} from '../src/align/core.js';
import type { Winner } from '../src/align/core.js';
import { REWRITE_TEMPLATE } from '../src/align/prompts.js';
import { rubricStepsTask } from '../src/engine/methods/rubric-steps/index.js';

const CLI = {
  usage: `usage: npm run bench:align -- [--items N] [--p P] [--splits N] [--seed N] [--method M] [--holdout F] [--llm URL --model NAME]

Few-shot alignment (held-out κ before / after, with intervals) and certified mode (agreement ≥ 0.8 with risk 0.05
over resampled splits, coverage) on a judge with a verbosity bias.

  --items N     simulated labelled items (default 200)
  --p P         the mock's verbosity bias, 0-1 (default 0.7)
  --splits N    resampled calibration / held-out splits (default 1000)
  --seed N      seed of the items, splits and bootstrap (default 1)
  --method M    few-shot or instructions (default few-shot)
  --holdout F   share of the items held out, 0.1-0.5 (default 0.3)
  --llm URL     an OpenAI-compatible endpoint instead of the mock (key in LLM_API_KEY; no bias injected)
  --model NAME  the model at --llm (default gpt-4o-mini)
  -h, --help    this text`,
  options: {
    items: { type: 'string', default: '200' },
    p: { type: 'string', default: '0.7' },
    splits: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    method: { type: 'string', default: 'few-shot' },
    holdout: { type: 'string', default: '0.3' },
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
const HOLDOUT = Number(values.holdout);
if (!(HOLDOUT >= 0.1 && HOLDOUT <= 0.5)) {
  console.error('bench:align: --holdout must be 0.1-0.5');
  process.exit(2);
}
const METHOD = values.method;
if (METHOD !== 'few-shot' && METHOD !== 'instructions') {
  console.error('bench:align: --method must be few-shot or instructions');
  process.exit(2);
}
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

const fmt = (x: number) => x.toFixed(3);
const started = performance.now();

// ---- 1. align: the job's own decisions (src/align/core.ts): split, candidate, held-out κ, the tag rule ----
const split = splitOf(ITEMS, HOLDOUT, SEED);
const at = (idx: readonly number[]) => idx.map((i) => items[i] as Item);
const baseAll = await judge(items, BASE_CRITERIA);
// The hidden quality tags are the mock's answer key, not text a reviewer would quote.
const untagged = (t: string) => t.replace(/ \[quality=[^\]]*\]/g, '');
const learn: JudgedLabel[] = split.learn.map((i) => {
  const it = items[i] as Item;
  const j = baseAll[i] as Judged;
  return {
    question: it.task.question ?? '',
    answerA: untagged(it.task.answerA),
    answerB: untagged(it.task.answerB),
    human: it.human,
    judge: j.winner,
    confidence: j.confidence,
  };
});
const aligned = METHOD === 'few-shot' ? fewShotCandidate(BASE_CRITERIA, learn) : await rewritten(learn);
if (aligned === null) {
  console.error('bench:align: the base judge agreed with every learning label: nothing to learn');
  process.exit(1);
}
/** `instructions`: the rewrite as the job runs it (a `rubric-steps` call with the rewrite template), in process. */
async function rewritten(judged: readonly JudgedLabel[]): Promise<string | null> {
  const input = rewriteInput(BASE_CRITERIA, judged);
  if (input === null) return null;
  const config = resolveMethodConfig(undefined, {
    method: 'rubric-steps',
    defaults: { model },
    templates: { pairwise: REWRITE_TEMPLATE },
  });
  const steps = getMethod('rubric-steps');
  const rubric = { kind: 'pairwise' as const, criteria: input };
  const state = createEvaluation(steps, config, rubricStepsTask(rubric), rubric);
  const { outcome } = await runEvaluation(steps, state, llm);
  const rules = outcome.status === 'succeeded' ? outcome.verdict.details.evaluationSteps : undefined;
  return typeof rules === 'string' ? instructionsCriteria(BASE_CRITERIA, rules) : null;
}
const alignedHeld = await judge(at(split.heldOut), aligned);
const winner = (j: Judged): Winner | null => j.winner;
const heldOut = heldOutAgreement(
  at(split.heldOut).map((it) => it.human),
  split.heldOut.map((i) => winner(baseAll[i] as Judged)),
  alignedHeld.map(winner),
  SEED,
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
  `judge: fastchat-pair, both orders, 5 samples per order, temperature 0.7; ${METHOD} learned from ${split.learn.length} items, ${split.heldOut.length} held out (src/align/core.ts)`,
);
console.log('');
const val = (x: number | null) => (x === null ? 'n/a' : fmt(x));
console.log(`| held-out (${heldOut.n} items) | κ | 95% interval |`);
console.log('|---|---|---|');
console.log(`| base rubric | ${val(heldOut.base.value)} | ${ci(heldOut.base.interval)} |`);
console.log(`| aligned (${METHOD}) | ${val(heldOut.aligned.value)} | ${ci(heldOut.aligned.interval)} |`);
console.log(`| gain | ${val(heldOut.gain.value)} | ${ci(heldOut.gain.interval)} |`);
console.log(`| the job's tag rule (gain's interval above 0) | ${tagMoves(heldOut) ? 'moves' : 'stays'} | |`);
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
