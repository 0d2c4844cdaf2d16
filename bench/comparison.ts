/**
 * Comparison bench: one `POST /v1/comparisons` of N items × K candidates, all pairs (default 1,000 × 3: 3,000
 * pair evaluations of `fastchat-pair`, both orders inside each, so 6,000 LLM calls), against the project's
 * mock LLM at latency L, on the local stack (src/cli/local-stack.ts). Prints the time to 202, the time to
 * the final statistics (from the POST to the moment `GET /v1/comparisons/{id}` answers `basis: "final"`),
 * the time of that first final read (it computes and stores the statistics when the after-commit step has
 * not yet), the LLM calls, tokens and cost the comparison billed (the mock's prices), and the gate's summary.
 *
 * ```
 * npm run bench:comparison -- [--items 1000] [--candidates 3] [--latency 50] [--c 16] [--model gpt-4o-mini]
 * ```
 */
import { intOption, runCli } from '../src/cli/args.js';
import type { CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { benchStateRoot } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench:comparison -- [options]

Wall time and cost of one all-pairs comparison against the mock LLM (BENCHMARKS.md).

  --items N        items (default 1000)
  --candidates K   candidates (default 3: 3 pairs)
  --latency L      mock LLM latency in ms (default 50)
  --c C            BATCH_CONCURRENCY for the run (default 16)
  --model M        the model the mock answers as, priced by the price table (default gpt-4o-mini)
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '1000' },
    candidates: { type: 'string', default: '3' },
    latency: { type: 'string', default: '50' },
    c: { type: 'string', default: '16' },
    model: { type: 'string', default: 'gpt-4o-mini' },
  },
} as const;

interface View {
  basis: string;
  counts: { succeeded: number; failed: number; cancelled: number };
  usage: { calls: number; promptTokens: number; completionTokens: number; costUsd: number };
  summary: string;
}

function request(n: number, k: number): unknown {
  const candidates = Array.from({ length: k }, (_, c) => `v${c + 1}`);
  return {
    preset: 'fastchat-pair',
    candidates,
    design: 'all-pairs',
    gate: { candidate: candidates[k - 1], baseline: candidates[0] },
    items: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      question: `(${i}) Which answer explains recursion better?`,
      outputs: Object.fromEntries(candidates.map((c, j) => [c, `Answer ${j} (${i}): a function that calls itself.`])),
    })),
  };
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 1000;
  const k = intOption(values.candidates, 'candidates', 2, 8) ?? 3;
  const latency = intOption(values.latency, 'latency', 0) ?? 50;
  const c = intOption(values.c, 'c', 1) ?? 16;
  const mock = await startMockProcess(latency);
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-comparison-',
    mock,
    llmModel: values.model,
    vars: { BATCH_CONCURRENCY: String(c) },
  });
  try {
    const t0 = Date.now();
    const r = await fetch(`${stack.url}/v1/comparisons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request(n, k)),
    });
    const acceptMs = Date.now() - t0;
    const accepted = (await r.json()) as { id?: string; evaluations?: number };
    if (r.status !== 202 || !accepted.id)
      throw new Error(`POST /v1/comparisons: HTTP ${r.status} ${JSON.stringify(accepted)}`);
    let view: View;
    let readMs = 0;
    for (;;) {
      const t = Date.now();
      view = (await (await fetch(`${stack.url}/v1/comparisons/${accepted.id}`)).json()) as View;
      readMs = Date.now() - t;
      if (view.basis === 'final') break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const doneMs = Date.now() - t0;
    const { calls, promptTokens, completionTokens, costUsd } = view.usage;
    console.log(
      [
        `Comparison of ${n} items × ${k} candidates, all pairs (${accepted.evaluations} evaluations of fastchat-pair), mock LLM as ${values.model} (its price), latency ${latency} ms, ` +
          `C = ${c}, local stack (Miniflare), state on ${benchStateRoot().why}`,
        '',
        '| time to 202 (s) | time to final statistics (s) | last GET (ms) | succeeded/failed/cancelled | LLM calls | prompt + completion tokens | cost (USD) |',
        '|---|---|---|---|---|---|---|',
        `| ${(acceptMs / 1000).toFixed(2)} | ${(doneMs / 1000).toFixed(1)} | ${readMs} | ${view.counts.succeeded}/${view.counts.failed}/${view.counts.cancelled} | ` +
          `${calls} | ${promptTokens} + ${completionTokens} | ${costUsd.toFixed(4)} |`,
        '',
        view.summary,
      ].join('\n'),
    );
    return 0;
  } finally {
    await stack.stop();
    await mock.stop();
  }
}

await runCli(CLI, main);
