/**
 * Tenant bench: does a burst from one tenant slow another tenant's evaluations?
 *
 * Runs the whole service on the local stack (the deployed bundle on Miniflare, local D1 / Queues / Durable
 * Objects, the mock LLM over HTTP at latency L) with `ADMIN_TOKEN` set, makes two tenants with the same
 * per-key rate through the admin API, then:
 * 1. baseline: the steady tenant alone submits one evaluation every `--steady-ms` for `--seconds`;
 * 2. burst: the same again while the burst tenant submits at `--factor` × its rate for the same time.
 * Prints the steady tenant's latency (accepted → verdict, the server's clock) in both phases, and for the
 * burst tenant its 429s (the rate limit), accepted evaluations, the most it had running at once (its cap)
 * and waiting for a slot, and how long until all its accepted work was done. The steady tenant keeps the
 * default rate (it polls its own evaluations); the burst tenant is watched through the admin API.
 *
 * ```
 * npm run bench:tenants -- [--latency 250] [--seconds 30] [--rate 60/60] [--factor 10] [--steady-ms 2000]
 *   [--max-running 5] [--preset chateval-faireval]
 * ```
 */
import { intOption, parseCliOrExit, UsageError } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';

const CLI = {
  usage: `usage: npm run bench:tenants -- [options]

One tenant bursts past its rate while another submits steadily: the steady tenant's latency with and
without the burst, and the burst tenant's 429s (BENCHMARKS.md).

  --latency L       mock LLM latency in ms (default 250)
  --seconds S       length of each phase (default 30)
  --rate N/W        the burst tenant's per-key rate: N requests per W seconds (default 60/60;
                    the steady tenant keeps the deployment's default, as it also polls)
  --factor F        the burst tenant sends F × its rate (default 10)
  --steady-ms MS    the steady tenant submits one evaluation every MS (default 2000)
  --max-running N   the burst tenant's running cap (default 5)
  --preset P        preset of every evaluation (default chateval-faireval)
  -h, --help        this text`,
  options: {
    latency: { type: 'string', default: '250' },
    seconds: { type: 'string', default: '30' },
    rate: { type: 'string', default: '60/60' },
    factor: { type: 'string', default: '10' },
    'steady-ms': { type: 'string', default: '2000' },
    'max-running': { type: 'string', default: '5' },
    preset: { type: 'string', default: 'chateval-faireval' },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  if (!/^\d+\/\d+$/.test(v.rate)) throw new UsageError('--rate must be N/W, e.g. 60/60');
  for (const name of ['latency', 'seconds', 'factor', 'steady-ms', 'max-running'] as const) intOption(v[name], name, 1);
});
const L = Number(values.latency);
const SECONDS = Number(values.seconds);
const [RATE_N, RATE_W] = values.rate.split('/').map(Number) as [number, number];
const FACTOR = Number(values.factor);
const STEADY_MS = Number(values['steady-ms']);
const MAX_RUNNING = Number(values['max-running']);
const PRESET = values.preset;
const ADMIN_TOKEN = 'bench-admin-token';
const MODEL = `mock-judge?latency=${L}`;

function pct(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Requests tried again after the local server closed their connection (reported with the figures). */
let networkRetries = 0;

/** One request; a connection the local server closed under load is tried again (reads and creates alike: a lost 202 only leaves an evaluation unmeasured). */
async function call(url: string, token: string, path: string, body?: unknown): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (e) {
      if (attempt >= 3) throw e;
      networkRetries += 1;
      await sleep(100 * attempt);
    }
  }
}

async function json<T>(r: Response): Promise<T> {
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** A tenant with one key, through the admin API. */
async function tenant(
  url: string,
  name: string,
  limits: Record<string, unknown>,
): Promise<{ id: string; key: string }> {
  const t = await json<{ id: string }>(await call(url, ADMIN_TOKEN, '/v1/admin/tenants', { name, limits }));
  const k = await json<{ key: string }>(
    await call(url, ADMIN_TOKEN, '/v1/admin/keys', { tenantId: t.id, label: 'bench' }),
  );
  return { id: t.id, key: k.key };
}

let n = 0;
function body(): unknown {
  n += 1;
  return {
    preset: PRESET,
    config: { defaults: { model: MODEL } },
    task: {
      kind: 'pairwise',
      question: `(${n}) Which reply explains recursion better?`,
      answerA: `A function calling itself on a smaller input (${n}).`,
      answerB: `Recursion is when a loop repeats (${n}).`,
    },
  };
}

/** Submits at a fixed interval for `seconds`; returns accepted ids and refusals by status. */
async function submitAtInterval(
  url: string,
  key: string,
  intervalMs: number,
  seconds: number,
): Promise<{ ids: string[]; statuses: Map<number, number> }> {
  const ids: string[] = [];
  const statuses = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const start = Date.now();
  for (let i = 0; Date.now() - start < seconds * 1000; i++) {
    pending.push(
      call(url, key, '/v1/evaluations', body()).then(async (r) => {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 202) ids.push(((await r.json()) as { id: string }).id);
        else await r.body?.cancel();
      }),
    );
    const next = start + (i + 1) * intervalMs;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(pending);
  return { ids, statuses };
}

interface Finished {
  status: string;
  createdAt: string;
  finishedAt: string | null;
}

/** Where an evaluation's time went, from its event replay: start (accepted → first call out), each call as the Worker saw it, and the gaps between a result and the next call. */
async function breakdown(
  url: string,
  key: string,
  ids: readonly string[],
): Promise<{ start: number[]; call: number[]; gap: number[] }> {
  const out = { start: [] as number[], call: [] as number[], gap: [] as number[] };
  for (const id of ids) {
    const view = await json<Finished>(await call(url, key, `/v1/evaluations/${id}`));
    const text = await (await call(url, key, `/v1/evaluations/${id}/events`)).text();
    const calls = text
      .split('\n\n')
      .filter((b) => b.includes('event: call.finished'))
      .map(
        (b) =>
          JSON.parse(
            b
              .split('\n')
              .find((l) => l.startsWith('data: '))
              ?.slice(6) ?? '{}',
          ) as { startedAt: number; finishedAt: number; latencyMs: number },
      )
      .sort((a, b) => a.startedAt - b.startedAt);
    const first = calls[0];
    if (first) out.start.push(first.startedAt - Date.parse(view.createdAt));
    for (const c of calls) out.call.push(c.latencyMs);
    for (const c of calls.slice(1)) {
      const before = calls.filter((x) => x.finishedAt <= c.startedAt).map((x) => x.finishedAt);
      if (before.length > 0) out.gap.push(c.startedAt - Math.max(...before));
    }
  }
  return out;
}

/** Waits for every evaluation to end; returns each one's accepted → verdict time (ms) and the last end. */
async function settle(
  url: string,
  key: string,
  ids: readonly string[],
): Promise<{ latencies: number[]; failed: number; lastEnd: number }> {
  const done = new Map<string, Finished>();
  const deadline = Date.now() + 600_000;
  while (done.size < ids.length && Date.now() < deadline) {
    for (const id of ids) {
      if (done.has(id)) continue;
      const v = await json<Finished>(await call(url, key, `/v1/evaluations/${id}`));
      if (v.finishedAt) done.set(id, v);
    }
    if (done.size < ids.length) await sleep(500);
  }
  const ok = [...done.values()].filter((v) => v.status === 'succeeded' && v.finishedAt);
  return {
    latencies: ok.map((v) => Date.parse(v.finishedAt ?? '') - Date.parse(v.createdAt)),
    failed: ids.length - ok.length,
    lastEnd: Math.max(0, ...ok.map((v) => Date.parse(v.finishedAt ?? ''))),
  };
}

const stack = await startBenchStack({ stateDir: 'tribunal-bench-tenants-', secrets: { ADMIN_TOKEN }, crons: false });
try {
  const { url } = stack;
  // The steady tenant keeps the default rate: it also polls its evaluations for their verdicts.
  const steady = await tenant(url, 'steady', {});
  const burst = await tenant(url, 'burst', {
    rateLimit: { requests: RATE_N, windowSeconds: RATE_W },
    maxRunning: MAX_RUNNING,
  });
  const burstInterval = (RATE_W * 1000) / RATE_N / FACTOR;

  process.stderr.write(`phase 1: steady tenant alone for ${SECONDS} s\n`);
  const alone = await submitAtInterval(url, steady.key, STEADY_MS, SECONDS);
  const aloneDone = await settle(url, steady.key, alone.ids);

  process.stderr.write(`phase 2: steady tenant while the burst tenant sends ${FACTOR}× its rate for ${SECONDS} s\n`);
  let mostRunning = 0;
  let mostWaiting = 0;
  let drainedAt = 0;
  const submitting = { on: true };
  // The burst tenant's work, watched through the admin API (its own key has no rate left to poll with),
  // from the first request until none of it is running or waiting.
  const watcher = (async () => {
    while (drainedAt === 0) {
      const t = await json<{ current?: { running: number; waiting: number } }>(
        await call(url, ADMIN_TOKEN, `/v1/admin/tenants/${burst.id}`),
      );
      const { running = 0, waiting = 0 } = t.current ?? {};
      mostRunning = Math.max(mostRunning, running);
      mostWaiting = Math.max(mostWaiting, waiting);
      if (!submitting.on && running + waiting === 0) drainedAt = Date.now();
      else await sleep(200);
    }
  })();
  const phaseStart = Date.now();
  const [together, flood] = await Promise.all([
    submitAtInterval(url, steady.key, STEADY_MS, SECONDS),
    submitAtInterval(url, burst.key, burstInterval, SECONDS),
  ]);
  submitting.on = false;
  const togetherDone = settle(url, steady.key, together.ids);
  await watcher;
  const steadyTogether = await togetherDone;
  const burstUsage = await json<{ totals: { calls: number } }>(
    await call(url, ADMIN_TOKEN, `/v1/admin/tenants/${burst.id}/usage`),
  );

  const [aloneTime, togetherTime] = [
    await breakdown(url, steady.key, alone.ids),
    await breakdown(url, steady.key, together.ids),
  ];
  const sent = [...flood.statuses.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `L = ${L} ms mock LLM latency; preset ${PRESET}; burst tenant's rate ${RATE_N} requests / ${RATE_W} s per key, sending ${FACTOR}× that (one request every ${burstInterval.toFixed(0)} ms) for ${SECONDS} s, running cap ${MAX_RUNNING}; steady tenant one evaluation every ${STEADY_MS} ms; local stack (Miniflare)`,
    '',
    '| steady tenant | evaluations | failed | latency p50 (ms) | p95 (ms) | max (ms) | start p50 (ms) | LLM call p50 / p95 (ms) | result → next call p50 / p99 (ms) |',
    '|---|---|---|---|---|---|---|---|---|',
    `| alone | ${alone.ids.length} | ${aloneDone.failed} | ${pct(aloneDone.latencies, 50)} | ${pct(aloneDone.latencies, 95)} | ${Math.max(...aloneDone.latencies)} | ${pct(aloneTime.start, 50)} | ${pct(aloneTime.call, 50)} / ${pct(aloneTime.call, 95)} | ${pct(aloneTime.gap, 50)} / ${pct(aloneTime.gap, 99)} |`,
    `| during the burst | ${together.ids.length} | ${steadyTogether.failed} | ${pct(steadyTogether.latencies, 50)} | ${pct(steadyTogether.latencies, 95)} | ${Math.max(...steadyTogether.latencies)} | ${pct(togetherTime.start, 50)} | ${pct(togetherTime.call, 50)} / ${pct(togetherTime.call, 95)} | ${pct(togetherTime.gap, 50)} / ${pct(togetherTime.gap, 99)} |`,
    '',
    '| burst tenant | sent | 202 accepted | 429 rate_limited | other | most running at once | most waiting | LLM calls | all its work done after (s) |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${FACTOR}× its rate | ${sent} | ${flood.statuses.get(202) ?? 0} | ${flood.statuses.get(429) ?? 0} | ${sent - (flood.statuses.get(202) ?? 0) - (flood.statuses.get(429) ?? 0)} | ${mostRunning} | ${mostWaiting} | ${burstUsage.totals.calls} | ${((drainedAt - phaseStart) / 1000).toFixed(1)} |`,
  ];
  if (networkRetries > 0)
    lines.push('', `(${networkRetries} requests were sent again after the local server closed their connection.)`);
  console.log(lines.join('\n'));
} finally {
  await stack.stop();
}
