/**
 * Mock-LLM bench: how much the project's own mock adds to a call, so pipeline figures can be read
 * without it. Prints the handler's CPU per request (in-process, latency 0) and the latency of N
 * concurrent requests straight from Node to the mock in its own process at latency L.
 *
 * ```
 * npm run bench:mock [-- --latency 250 --concurrent 20]
 * ```
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { intOption, parseCliOrExit } from '../src/cli/args.js';
import { freePort } from '../src/cli/ports.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { handleMockRequest } from '../src/mock-llm/handler.js';
import { createMockState } from '../src/mock-llm/state.js';

const CLI = {
  usage: `usage: npm run bench:mock -- [--latency L] [--concurrent N]

The mock LLM's own cost: handler CPU per request in-process, then N concurrent requests to it in its own process.

  --latency L      mock latency in ms (default 250)
  --concurrent N   concurrent requests (default 20)
  -h, --help       this text`,
  options: { latency: { type: 'string', default: '250' }, concurrent: { type: 'string', default: '20' } },
} as const;
const values = await parseCliOrExit(CLI, (v) => {
  intOption(v.latency, 'latency', 0);
  intOption(v.concurrent, 'concurrent', 1);
});
const L = Number(values.latency);
const N = Number(values.concurrent);

/** A ChatEval-sized prompt (~1,600 tokens) asking for the ChatEval score lines. */
function body(i: number): string {
  const text = `${'The quick brown fox jumps over the lazy dog. '.repeat(150)}(${i})\nThe score of Assistant 1: <score>\nThe score of Assistant 2: <score>`;
  return JSON.stringify({ model: 'mock-judge', messages: [{ role: 'user', content: text }] });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

const state = createMockState();
const cpu: number[] = [];
for (let i = 0; i < 220; i++) {
  const t = performance.now();
  const r = await handleMockRequest(
    new Request('http://mock/v1/chat/completions', {
      method: 'POST',
      body: body(i),
      headers: { 'content-type': 'application/json' },
    }),
    { state },
  );
  await r.text();
  if (i >= 20) cpu.push(performance.now() - t);
}

const port = await freePort();
const mock = spawn(
  join(REPO_ROOT, 'node_modules', '.bin', 'tsx'),
  ['src/cli/mock-llm.ts', '--port', String(port), '--latency', String(L)],
  { cwd: REPO_ROOT, stdio: 'ignore' },
);
const url = `http://127.0.0.1:${port}/v1/chat/completions`;
try {
  for (let i = 0; ; i++) {
    try {
      await fetch(url, { method: 'POST', body: body(-1), headers: { 'content-type': 'application/json' } });
      break;
    } catch {
      if (i > 100) throw new Error('mock did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const one = async (i: number) => {
    const t = performance.now();
    await (await fetch(url, { method: 'POST', body: body(i), headers: { 'content-type': 'application/json' } })).text();
    return performance.now() - t;
  };
  const sequential: number[] = [];
  for (let i = 0; i < 10; i++) sequential.push(await one(1000 + i));
  const concurrent = await Promise.all(Array.from({ length: N }, (_, i) => one(2000 + i)));
  console.log(
    [
      `mock handler CPU per request (in-process, latency 0): p50 ${pct(cpu, 50).toFixed(2)} ms, p99 ${pct(cpu, 99).toFixed(2)} ms`,
      `one request at a time from Node at L = ${L} ms: p50 ${pct(sequential, 50).toFixed(0)} ms`,
      `${N} concurrent requests from Node at L = ${L} ms: min ${pct(concurrent, 0).toFixed(0)} ms, p50 ${pct(concurrent, 50).toFixed(0)} ms, max ${pct(concurrent, 100).toFixed(0)} ms`,
    ].join('\n'),
  );
} finally {
  mock.kill('SIGTERM');
}
