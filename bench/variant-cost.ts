/**
 * `npm run bench:variants`: workerd's CPU per request of a few request kinds, on local stacks that
 * differ only by Worker variables, their rounds interleaved (variant A, variant B, A, B, …) so the host's load
 * swings hit each alike. What a piece of the request path costs in the whole workerd process, without a profiler
 * attached (V8's sampler inflates native calls such as `console.log`): e.g. the provider gate's two RPCs per
 * verdict (`--variant off:PROVIDER_CONCURRENCY_MAX=0`), the `evaluation.finalized` line (`--variant
 * quiet:LOG_LEVEL=warn`), or the API's middleware and validation against a bare request (`--kinds health,reject`).
 *
 * Kinds: `health` (GET /health: Miniflare's entry, hono, no /v1 middleware), `reject` (POST /v1/evaluations with
 * an unknown preset: every /v1 middleware, the JSON body, zod, then a 400 before any D1 or object work),
 * `missing` (GET of an unknown evaluation: one D1 read, 404), `verdict` (a single-call `fastchat-pair` verdict,
 * calibration off, `Prefer: wait`, as `bench:peers`).
 *
 * A verdict's work after its response (the object's last writes, the events it sends) lands in whatever is
 * measured next on the same stack: compare a kind between variants, and read `verdict` beside other kinds with that
 * in mind.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceOption, intOption, parseCliOrExit, varsOption } from '../src/cli/args.js';
import type { BenchStack } from './bench-stack.js';
import { startBenchStack } from './bench-stack.js';
import { closedLoop } from './closed-loop.js';
import { startMockProcess } from './mock-process.js';
import { runtimeCpuMs } from './proc-cpu.js';
import { benchStateDir } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench:variants -- [options]

  --items N          requests per kind, variant and round (default 300, after 64 warm-up requests each)
  --rounds R         rounds (default 4)
  --concurrency C    in flight (default 16)
  --kinds K,…        of health, reject, missing, verdict (default verdict)
  --variant NAME:K=V,K=V  a stack with these Worker variables (repeatable; default one stack, "as-is")
  -h, --help         this text`,
  options: {
    items: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    kinds: { type: 'string', default: 'verdict' },
    variant: { type: 'string', multiple: true },
  },
} as const;

const KINDS = ['health', 'reject', 'missing', 'verdict'] as const;
type Kind = (typeof KINDS)[number];

const values = await parseCliOrExit(CLI, (v) => {
  for (const name of ['items', 'rounds', 'concurrency'] as const) intOption(v[name], name, 1);
  for (const k of v.kinds.split(',')) choiceOption(k, 'kinds', KINDS);
});
const N = Number(values.items);
const ROUNDS = Number(values.rounds);
const C = Number(values.concurrency);
const kinds = values.kinds.split(',') as Kind[];
const variants: [string, Record<string, string>][] = (values.variant ?? ['as-is:']).map((spec) => {
  const at = spec.indexOf(':');
  const name = at < 0 ? spec : spec.slice(0, at);
  const rest = at < 0 ? '' : spec.slice(at + 1);
  return [name, varsOption(rest === '' ? [] : rest.split(','))];
});

const body = (i: number, preset: string) =>
  JSON.stringify({
    preset,
    config: { calibration: { enabled: false } },
    task: { kind: 'pairwise', question: `Question ${i}?`, answerA: `Answer A ${i}.`, answerB: `Answer B ${i}.` },
  });

/** One request of `kind` to `url`; throws unless it answered as that kind should. */
async function once(url: string, kind: Kind, i: number): Promise<void> {
  const post = (preset: string) =>
    fetch(`${url}/v1/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'wait=60' },
      body: body(i, preset),
    });
  const r =
    kind === 'health'
      ? await fetch(`${url}/health`)
      : kind === 'reject'
        ? await post('no-such-preset')
        : kind === 'missing'
          ? await fetch(`${url}/v1/evaluations/ev_${String(i).padStart(32, '0')}`)
          : await post('fastchat-pair');
  const text = await r.text();
  const want = { health: 200, reject: 400, missing: 404, verdict: 200 }[kind];
  if (r.status !== want) throw new Error(`${kind}: HTTP ${r.status}, ${text.slice(0, 200)}`);
  if (kind === 'verdict' && (JSON.parse(text) as { status?: string }).status !== 'succeeded')
    throw new Error(`verdict: ${text.slice(0, 200)}`);
}

const mock = await startMockProcess(250);
const stacks: [string, BenchStack][] = [];
try {
  for (const [name, vars] of variants) {
    const stack = await startBenchStack({
      runtime: 'miniflare',
      persistTo: join(benchStateDir(`tribunal-bench-variant-${name}-`), 'state'),
      mock,
      llmModel: 'gpt-4o-mini',
      logFile: join(tmpdir(), `tribunal-bench-variant-${name}.log`),
      crons: false,
      vars: { LOG_LEVEL: 'info', ...vars },
    });
    stacks.push([name, stack]);
    for (const kind of kinds) await closedLoop(64, C, (i) => once(stack.url, kind, 1_000_000 + i));
  }
  const ms = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, stack] of stacks) {
      for (const kind of kinds) {
        const before = runtimeCpuMs(stack.runtimePid).workerd;
        const r = await closedLoop(N, C, (i) => once(stack.url, kind, round * 100_000 + i));
        const after = runtimeCpuMs(stack.runtimePid).workerd;
        if (r.failed > 0) throw new Error(`${name} ${kind}: ${r.failed} failed, first: ${r.firstError ?? '?'}`);
        const key = `${name} | ${kind}`;
        ms.set(key, [...(ms.get(key) ?? []), (after - before) / N]);
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  };
  console.log(
    [
      `${N} requests per kind, variant and round, C = ${C}, ${ROUNDS} rounds interleaved; workerd CPU ms per request (user + system of the runtime's workerd, /proc)`,
      '',
      '| variant | kind | median | each round |',
      '|---|---|---|---|',
      ...[...ms].map(
        ([key, xs]) => `| ${key} | ${median(xs).toFixed(2)} | ${xs.map((x) => x.toFixed(2)).join(' / ')} |`,
      ),
    ].join('\n'),
  );
} finally {
  for (const [, stack] of stacks) await stack.stop();
  await mock.stop();
}
process.exit(0);
