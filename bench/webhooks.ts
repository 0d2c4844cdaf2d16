/**
 * Webhook bench: how fast a verdict reaches its receiver, and that it arrives exactly once, signed.
 *
 * Starts the local stack (Miniflare, the bundled mock LLM, `WEBHOOK_ALLOW_LOOPBACK=true`) and a receiver
 * on 127.0.0.1 that verifies every delivery with node:crypto (Standard Webhooks). Submits N evaluations
 * of a one-call preset with a one-off `webhook.url`, closed loop: C at a time, each slot submitting its
 * next one when the previous one's callback arrived (C = 1: one evaluation in the system at a time). Prints:
 * callbacks received, distinct event ids, verified; latency from the event (the final D1 write: the
 * payload's `timestamp`) to receipt, and from the POST to receipt, p50 / p95 / max; and deliveries/s.
 *
 * `--hanging H`: first submits H evaluations whose `webhook.url` is a second receiver (another origin) that
 * never answers (each request held until the Worker's `WEBHOOK_TIMEOUT_MS`, 10 s), the receiver that must
 * delay only itself; the figures above are then the healthy receiver's beside it.
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
import { startLocalStack } from '../src/cli/local-stack.js';
import { benchStateDir } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench:webhooks -- [options]

Time from a verdict to its signed callback, on the local stack with the mock LLM.

  --evaluations N   evaluations, each with a one-off webhook.url (default 200)
  --concurrency C   evaluations in flight, each until its callback arrives (default 16)
  --preset P        a one-call preset (default bandi-baseline)
  --hanging H       first submit H evaluations whose webhook.url never answers (default 0)
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

/** Called with the evaluation id of each callback (the closed loop's wake-up). */
let onReceived: (evaluationId: string) => void = () => undefined;

async function startReceiver(key: () => Buffer, got: Received[]): Promise<{ url: string; close(): void }> {
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

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.evaluations, 'evaluations', 1, 100_000) ?? 200;
  const concurrency = intOption(values.concurrency, 'concurrency', 1, 1000) ?? 16;
  const hanging = intOption(values.hanging, 'hanging', 0, 10_000) ?? 0;
  const stack = await startLocalStack({
    port: 0,
    mockPort: 0,
    persistTo: benchStateDir('tribunal-bench-webhooks-'),
    vars: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
    crons: false,
  });
  const got: Received[] = [];
  let key = Buffer.alloc(0);
  const receiver = await startReceiver(() => key, got);
  const hangs = await startHangingReceiver();
  try {
    const secret = (
      (await (await fetch(`${stack.url}/v1/webhook-signing-secret`, { method: 'POST' })).json()) as { secret: string }
    ).secret;
    key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const posted = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    const arrived = (id: string) => got.some((g) => g.evaluationId === id);
    onReceived = (id) => waiting.get(id)?.();
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
    for (let i = 0; i < hanging; i++) {
      const r = await fetch(`${stack.url}/v1/evaluations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: taskOf(-1 - i, hangs.url),
      });
      if (r.status !== 202) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
    }
    // The hanging receiver holds its requests before the healthy one's evaluations start.
    const hangStart = Date.now();
    while (hanging > 0 && hangs.requests() < Math.min(hanging, 1) && Date.now() - hangStart < 30_000)
      await new Promise((r) => setTimeout(r, 20));
    let next = 0;
    const started = Date.now();
    const slot = async () => {
      while (next < n) {
        const i = next++;
        const body = taskOf(i, receiver.url);
        const t = Date.now();
        const r = await fetch(`${stack.url}/v1/evaluations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const { id } = (await r.json()) as { id: string };
        if (r.status !== 202) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
        posted.set(id, t);
        await new Promise<void>((resolve) => {
          if (arrived(id)) resolve();
          else waiting.set(id, resolve);
          setTimeout(resolve, 60_000).unref();
        });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, slot));
    const elapsed = (Date.now() - started) / 1000;
    // A little longer: duplicates, if any, would arrive now.
    await new Promise((r) => setTimeout(r, 2000));
    const fromEvent = got.map((g) => g.at - g.eventAt);
    const fromPost = got.map((g) => g.at - (posted.get(g.evaluationId) ?? g.at));
    const f = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 95).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
    console.log(
      [
        `${n} evaluations (${values.preset}, mock LLM), ${concurrency} in flight until their callback, each with a one-off webhook.url`,
        hanging > 0
          ? `beside ${hanging} evaluations whose webhook.url never answers (${hangs.requests()} requests held)`
          : '',
        '',
        '| callbacks | distinct event ids | verified | deliveries/s | event → received p50 / p95 / max (ms) | POST → received p50 / p95 / max (ms) |',
        '|---|---|---|---|---|---|',
        `| ${got.length} | ${new Set(got.map((g) => g.eventId)).size} | ${got.filter((g) => g.verified).length} | ${(got.length / elapsed).toFixed(1)} | ${f(fromEvent)} | ${f(fromPost)} |`,
      ].join('\n'),
    );
    return got.length === n && got.every((g) => g.verified) ? 0 : 1;
  } finally {
    receiver.close();
    hangs.close();
    await stack.stop();
  }
}

if (isMain(import.meta.url)) await runCli(CLI, main);
