/**
 * Webhook bench: how fast a verdict reaches its receiver, and that it arrives exactly once, signed.
 *
 * Starts the local stack (Miniflare, the bundled mock LLM, `WEBHOOK_ALLOW_LOOPBACK=true`, two tenants with
 * their own keys and signing secrets) and, per tenant, a receiver on 127.0.0.1 that verifies every delivery
 * with node:crypto (Standard Webhooks). Each tenant submits N evaluations of a one-call preset with a one-off
 * `webhook.url` to its receiver, closed loop: C at a time, each slot submitting its next one when the previous
 * one's callback arrived (C = 1: one evaluation of the tenant in the system at a time), both tenants side by
 * side. Prints per tenant: callbacks received, distinct event ids, verified; latency from the event (the final
 * D1 write: the payload's `timestamp`) to receipt, and from the POST to receipt, p50 / p95 / max; deliveries/s.
 *
 * `--hanging H`: the first tenant first submits H evaluations whose `webhook.url` is a third receiver (another
 * origin) that never answers (each request held until the Worker's `WEBHOOK_TIMEOUT_MS`, 10 s), the receiver
 * that must delay only itself: both tenants' healthy figures are to stay as without it.
 *
 * ```
 * npm run bench:webhooks -- [--evaluations 200] [--concurrency 16] [--preset bandi-baseline] [--hanging 0]
 * ```
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';

const CLI = {
  usage: `usage: npm run bench:webhooks -- [options]

Time from a verdict to its signed callback, on the local stack with the mock LLM.

  --evaluations N   evaluations per tenant (two tenants), each with a one-off webhook.url (default 200)
  --concurrency C   evaluations in flight per tenant, each until its callback arrives (default 16)
  --preset P        a one-call preset (default bandi-baseline)
  --hanging H       the first tenant first submits H evaluations whose webhook.url never answers (default 0)
  -h, --help        this text`,
  options: {
    evaluations: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    preset: { type: 'string', default: 'bandi-baseline' },
    hanging: { type: 'string', default: '0' },
  },
} as const satisfies CliSpec<CliOptions>;

interface Received {
  at: number;
  eventId: string;
  evaluationId: string;
  eventAt: number;
  verified: boolean;
}

function verify(key: Buffer, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const id = String(headers['webhook-id']);
  const ts = String(headers['webhook-timestamp']);
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const sig = Buffer.from(s.slice(3), 'base64');
      return s.startsWith('v1,') && sig.length === expected.length && timingSafeEqual(sig, expected);
    });
}

/** A healthy receiver: verifies each delivery with the key `key()` returns and tells `onReceived`. */
async function startReceiver(
  key: () => Buffer,
  got: Received[],
  onReceived: (evaluationId: string) => void,
): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const at = Date.now();
      const payload = JSON.parse(body) as { timestamp: string; data: { id: string } };
      got.push({
        at,
        eventId: String(req.headers['webhook-id']),
        evaluationId: payload.data.id,
        eventAt: Date.parse(payload.timestamp),
        verified: verify(key(), req.headers, body),
      });
      res.writeHead(204).end();
      onReceived(payload.data.id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/verdicts`, close: () => server.close() };
}

/** A receiver that never answers: each request is held until the client gives up. Counts the requests. */
async function startHangingReceiver(): Promise<{ url: string; requests(): number; close(): void }> {
  let requests = 0;
  const held = new Set<import('node:http').ServerResponse>();
  const server = createServer((_req, res) => {
    requests++;
    held.add(res);
    res.on('close', () => held.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`,
    requests: () => requests,
    close: () => {
      for (const res of held) res.destroy();
      server.close();
    },
  };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const ADMIN_TOKEN = 'bench-webhooks-admin';

/**
 * `fetch`, tried once more when the connection broke before an answer (on the loaded machine the local
 * runtime sometimes closes a kept-alive connection as it is reused: "other side closed"); the request carries
 * an idempotency key, so the repeat never creates a second evaluation.
 */
async function post(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return await fetch(url, init);
  }
}

/** One tenant of the run: its key, its healthy receiver and what it received. */
interface Tenant {
  name: string;
  headers: Record<string, string>;
  got: Received[];
  posted: Map<string, number>;
  waiting: Map<string, () => void>;
  receiver: { url: string; close(): void };
}

async function tenantOf(url: string, name: string): Promise<Tenant> {
  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const r = await fetch(`${url}/v1/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status !== 201) throw new Error(`POST /v1/admin${path}: HTTP ${r.status}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const tenant = await admin('/tenants', { name });
  const { key } = (await admin('/keys', { tenantId: tenant.id, label: 'bench' })) as { key: string };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const r = await fetch(`${url}/v1/webhook-signing-secret`, { method: 'POST', headers });
  const { secret } = (await r.json()) as { secret: string };
  const signing = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const got: Received[] = [];
  const waiting = new Map<string, () => void>();
  const receiver = await startReceiver(
    () => signing,
    got,
    (id) => waiting.get(id)?.(),
  );
  return { name, headers, got, posted: new Map(), waiting, receiver };
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.evaluations, 'evaluations', 1, 100_000) ?? 200;
  const concurrency = intOption(values.concurrency, 'concurrency', 1, 1000) ?? 16;
  const hanging = intOption(values.hanging, 'hanging', 0, 10_000) ?? 0;
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-webhooks-',
    vars: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
    secrets: { ADMIN_TOKEN },
    crons: false,
  });
  const hangs = await startHangingReceiver();
  const tenants = [await tenantOf(stack.url, 'with a hanging receiver'), await tenantOf(stack.url, 'beside it')];
  try {
    const taskOf = (i: number, url: string) =>
      JSON.stringify({
        preset: values.preset,
        task: {
          kind: 'pairwise',
          question: `(${i}) Which answer explains recursion better?`,
          answerA: 'A function that calls itself until a base case.',
          answerB: 'Recursion is recursion.',
        },
        webhook: { url },
      });
    const [first] = tenants;
    for (let i = 0; first && i < hanging; i++) {
      const r = await fetch(`${stack.url}/v1/evaluations`, {
        method: 'POST',
        headers: first.headers,
        body: taskOf(-1 - i, hangs.url),
      });
      if (r.status !== 202) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
    }
    // The hanging receiver holds its requests before the healthy ones' evaluations start.
    const hangStart = Date.now();
    while (hanging > 0 && hangs.requests() < Math.min(hanging, 1) && Date.now() - hangStart < 30_000)
      await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    // Each tenant runs its own closed loop of n evaluations, C in flight, side by side.
    const run = async (t: Tenant): Promise<void> => {
      let next = 0;
      const arrived = (id: string) => t.got.some((g) => g.evaluationId === id);
      const slot = async () => {
        while (next < n) {
          const i = next++;
          const posted = Date.now();
          const r = await post(`${stack.url}/v1/evaluations`, {
            method: 'POST',
            headers: { ...t.headers, 'idempotency-key': `bench-${t.name.replace(/\W+/g, '-')}-${i}` },
            body: taskOf(i, t.receiver.url),
          });
          const { id } = (await r.json()) as { id: string };
          if (r.status !== 202) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
          t.posted.set(id, posted);
          await new Promise<void>((resolve) => {
            if (arrived(id)) resolve();
            else t.waiting.set(id, resolve);
            setTimeout(resolve, 60_000).unref();
          });
        }
      };
      await Promise.all(Array.from({ length: concurrency }, slot));
    };
    await Promise.all(tenants.map(run));
    const elapsed = (Date.now() - started) / 1000;
    // A little longer: duplicates, if any, would arrive now.
    await new Promise((r) => setTimeout(r, 2000));
    const f = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 95).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
    const rows = tenants.map((t) => {
      const fromEvent = t.got.map((g) => g.at - g.eventAt);
      const fromPost = t.got.map((g) => g.at - (t.posted.get(g.evaluationId) ?? g.at));
      return `| ${t.name} | ${t.got.length} | ${new Set(t.got.map((g) => g.eventId)).size} | ${t.got.filter((g) => g.verified).length} | ${(t.got.length / elapsed).toFixed(1)} | ${f(fromEvent)} | ${f(fromPost)} |`;
    });
    console.log(
      [
        `2 tenants × ${n} evaluations (${values.preset}, mock LLM), each tenant ${concurrency} in flight until their callback, each with a one-off webhook.url to its tenant's healthy receiver`,
        hanging > 0
          ? `the first tenant first submits ${hanging} evaluations whose webhook.url never answers (${hangs.requests()} requests held)`
          : '',
        '',
        '| tenant | callbacks | distinct event ids | verified | deliveries/s | event → received p50 / p95 / max (ms) | POST → received p50 / p95 / max (ms) |',
        '|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
    return tenants.every((t) => t.got.length === n && t.got.every((g) => g.verified)) ? 0 : 1;
  } finally {
    for (const t of tenants) t.receiver.close();
    hangs.close();
    await stack.stop();
  }
}

if (isMain(import.meta.url)) await runCli(CLI, main);
