/**
 * `npm run bench:profile`: where the Worker's CPU goes per judged item. Runs the local stack with workerd's
 * V8 inspector on, drives the closed loop of `bench:peers` (single-call `fastchat-pair`, `Prefer: wait`),
 * takes a sampling CPU profile of the Worker's isolate (API, Durable Objects and consumers share it) over the
 * measured items, and prints the functions with the most self and inclusive time per item. The profile is
 * written as a `.cpuprofile` (open it in Chrome DevTools). Each sample counts one period of the sampler
 * (bench/cpu-profile.ts `tables`). The sampler slows the isolate down: read the shares, not the absolute
 * figures (`bench:peers` scales them to an unprofiled pass).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceOption, intOption, parseCliOrExit } from '../src/cli/args.js';
import { LOG_LEVELS } from '../src/log/log.js';
import { freePort } from '../src/cli/ports.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { benchStateDir } from './state-dir.js';
import type { CpuProfile } from './cpu-profile.js';
import { session, tables } from './cpu-profile.js';
import { fromWorkingDir } from './working-dir.js';

const CLI = {
  usage: `usage: npm run bench:profile -- [options]

  --items N         measured items (default 200, after 64 warm-up items)
  --concurrency C   in flight (default 16)
  --latency L       mock LLM latency in ms (default 250)
  --interval US     sampling interval in microseconds (default 500)
  --top K           rows per table (default 30)
  --out FILE        where the .cpuprofile goes (default $TMPDIR/tribunal.cpuprofile)
  --target T        the inspector target whose title ends in or contains T (default core:user:, the Worker; e.g.
                    d1 for local D1, core:entry for Miniflare's router); --list shows them
  --list            print the inspector's targets, then profile as asked
  --log-level V     the Worker's LOG_LEVEL (debug, info, warn, error; default info, as deployed)
  --callers NAMES   runtime functions (comma-separated, default exec: a Durable Object's SQLite statement) whose
                    self time is also tabled by the JS function that called them (which statement it was)
  -h, --help        this text`,
  options: {
    items: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    latency: { type: 'string', default: '250' },
    interval: { type: 'string', default: '500' },
    top: { type: 'string', default: '30' },
    out: { type: 'string', default: join(tmpdir(), 'tribunal.cpuprofile') },
    target: { type: 'string', default: 'core:user:' },
    list: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
    callers: { type: 'string', default: 'exec' },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  for (const name of ['items', 'concurrency', 'latency', 'interval', 'top'] as const) intOption(v[name], name, 1);
  choiceOption(v['log-level'], 'log-level', LOG_LEVELS);
});
const N = Number(values.items);
const C = Number(values.concurrency);

const mock = await startMockProcess(Number(values.latency));
const inspectorPort = await freePort();
const stack = await startBenchStack({
  runtime: 'miniflare',
  persistTo: join(benchStateDir('tribunal-bench-profile-'), 'state'),
  mock,
  llmModel: 'gpt-4o-mini',
  logFile: join(tmpdir(), 'tribunal-bench-profile.log'),
  crons: false,
  inspectorPort,
  vars: { LOG_LEVEL: values['log-level'] },
});
try {
  const post = async (i: number) => {
    const body = {
      preset: 'fastchat-pair',
      config: { calibration: { enabled: false } },
      task: { kind: 'pairwise', question: `Question ${i}?`, answerA: `Answer A ${i}.`, answerB: `Answer B ${i}.` },
    };
    const r = await fetch(`${stack.url}/v1/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'wait=60' },
      body: JSON.stringify(body),
    });
    const got = (await r.json()) as { status?: string };
    if (got.status !== 'succeeded')
      throw new Error(`item ${i}: HTTP ${r.status}, ${JSON.stringify(got).slice(0, 200)}`);
  };
  const loop = async (n: number, from: number) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (next < n) await post(from + next++);
      }),
    );
    return (performance.now() - t0) / 1000;
  };
  await loop(64, 1_000_000);
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    title: string;
    webSocketDebuggerUrl: string;
  }[];
  if (values.list) console.log(targets.map((t) => t.title).join('\n'));
  // A title ending in T exactly first: `d1:db` is the record database, and every shard's title contains it.
  const target =
    targets.find((t) => t.title.endsWith(` ${values.target}`)) ?? targets.find((t) => t.title.includes(values.target));
  if (!target)
    throw new Error(`no inspector target titled …${values.target}…: ${targets.map((t) => t.title).join(', ')}`);
  const s = await session(target.webSocketDebuggerUrl);
  await s.send('Profiler.enable');
  await s.send('Profiler.setSamplingInterval', { interval: Number(values.interval) });
  await s.send('Profiler.start');
  const seconds = await loop(N, 0);
  const { profile } = (await s.send('Profiler.stop')) as { profile: CpuProfile };
  s.close();
  const out = fromWorkingDir(values.out);
  writeFileSync(out, JSON.stringify(profile));
  const t = tables(profile, N, Number(values.interval));
  const top = Number(values.top);
  const rows = (list: [string, number][]) =>
    list.slice(0, top).map(([k, ms]) => `| ${ms.toFixed(3)} | ${((100 * ms) / t.total).toFixed(1)}% | \`${k}\` |`);
  console.log(
    [
      `${N} items, C = ${C}, L = ${values.latency} ms, LOG_LEVEL ${values['log-level']}: ${(N / seconds).toFixed(1)} items/s while sampled every ${values.interval} µs (${target.title}); profile in ${out}`,
      `the isolate held the thread ${t.total.toFixed(2)} ms per item (samples × the sampler's achieved period, ${t.periodUs} µs; V8 takes no sample while workerd runs another isolate), of which (idle) is the isolate locked but waiting`,
      '',
      '| self ms / item | share | function |',
      '|---|---|---|',
      ...rows(t.self),
      '',
      '| inclusive ms / item | share | function |',
      '|---|---|---|',
      ...rows(t.inclusive),
      ...values.callers
        .split(',')
        .filter((name) => name !== '')
        .flatMap((name) => [
          '',
          `| \`${name}\`'s self ms / item | share | called by |`,
          '|---|---|---|',
          ...rows(selfByCaller(profile, name, N, t.periodUs)),
        ]),
    ].join('\n'),
  );
} finally {
  await stack.stop();
  await mock.stop();
}
process.exit(0);

/**
 * The self time of the runtime function `name` (e.g. `exec`, a Durable Object's SQLite statement) by the function
 * that called it (name, file tail, line; the caller's caller after it), ms per item, most first: which statement
 * of which writer the runtime's time went to. Each sample counts one achieved period (`periodUs`), as {@link tables}.
 */
function selfByCaller(p: CpuProfile, name: string, items: number, periodUs: number): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number | undefined) => {
    const f = id === undefined ? undefined : byId.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1) ?? ''}:${f.lineNumber + 1}` : '?';
  };
  const out = new Map<string, number>();
  for (const id of p.samples) {
    // The runtime's own function (no script URL), not a JS function of the same name.
    const frame = byId.get(id)?.callFrame;
    if (frame?.functionName !== name || frame.url !== '') continue;
    const caller = parent.get(id);
    const k = `${keyOf(caller)} < ${keyOf(caller === undefined ? undefined : parent.get(caller))}`;
    out.set(k, (out.get(k) ?? 0) + periodUs);
  }
  return [...out].map(([k, us]): [string, number] => [k, us / 1000 / items]).sort((a, b) => b[1] - a[1]);
}
