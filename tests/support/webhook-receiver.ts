/**
 * Node side of the worker suite: a webhook receiver the Worker reaches over real HTTP (started by
 * tests/vitest.worker.config.ts, like the mock LLM). It verifies every delivery independently with the
 * `standardwebhooks` package (the reference implementation receivers use), and answers from a script.
 *
 * Sinks are named by the test: deliveries go to `POST /sinks/<name>`. Control routes (JSON):
 * - `PUT /_control/sinks/<name>` `{ secrets?: string[], script?: Answer[] }` (re)configures a sink:
 *   the secrets to verify with, and the answers to give in order (the last one repeats; default 200);
 *   an answer is a status code, `"timeout"` (no answer for {@link HOLD_MS} ms, then the socket is
 *   dropped), `"hold"` (no answer until released, then 200; dropped after {@link HOLD_MS} ms) or
 *   `{ status, location? }`.
 * - `POST /_control/sinks/<name>/release` answers every request of the sink held by `"hold"` with 200.
 * - `GET /_control/sinks/<name>` → `{ requests: ReceivedRequest[] }`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How long a `"timeout"` answer holds the request before dropping it, ms. */
const HOLD_MS = 15_000;

/** One scripted answer. */
export type Answer = number | 'timeout' | 'hold' | { status: number; location?: string };

/** A delivery as the receiver saw it. */
export interface ReceivedRequest {
  webhookId: string | null;
  webhookTimestamp: string | null;
  webhookSignature: string | null;
  userAgent: string | null;
  body: string;
  /** Verified by `standardwebhooks` with one of the sink's secrets. */
  verified: boolean;
  /** Why verification failed, if it did. */
  verifyError: string | null;
  /** What the receiver answered (`hold`: held until released). */
  answered: number | 'timeout' | 'hold';
  at: number;
  /** The path under the sink (`/v1/logs` for an OTLP export to the sink's URL), or ''. */
  subpath: string;
  /** The request's headers, lower-cased names. */
  headers: Record<string, string>;
  /** The body's bytes, base64 (a binary body, such as OTLP protobuf, does not survive `body`'s UTF-8). */
  bodyBase64: string;
}

interface Sink {
  secrets: string[];
  script: Answer[];
  requests: ReceivedRequest[];
  /** Requests held by `"hold"`: each answers 200 when called. */
  held: (() => void)[];
}

/** A running receiver. */
export interface WebhookReceiver {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

async function bytesOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  return (await bytesOf(req)).toString('utf8');
}

function verify(
  secrets: readonly string[],
  headers: Record<string, string>,
  body: string,
): { verified: boolean; error: string | null } {
  let error = 'no secret configured';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      return { verified: true, error: null };
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  return { verified: false, error };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Starts the receiver on a free port of 127.0.0.1. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const sinks = new Map<string, Sink>();
  const sinkOf = (name: string): Sink => {
    let s = sinks.get(name);
    if (!s) {
      s = { secrets: [], script: [], requests: [], held: [] };
      sinks.set(name, s);
    }
    return s;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const release = /^\/_control\/sinks\/([\w.-]+)\/release$/.exec(path);
      if (release?.[1]) {
        const sink = sinkOf(release[1]);
        const held = sink.held.splice(0);
        for (const answer of held) answer();
        json(res, 200, { released: held.length });
        return;
      }
      const control = /^\/_control\/sinks\/([\w.-]+)$/.exec(path);
      if (control?.[1]) {
        const sink = sinkOf(control[1]);
        if (req.method === 'PUT') {
          const cfg = JSON.parse(await bodyOf(req)) as { secrets?: string[]; script?: Answer[] };
          sink.secrets = cfg.secrets ?? [];
          sink.script = cfg.script ?? [];
          sink.requests = [];
          json(res, 200, { ok: true });
        } else {
          json(res, 200, { requests: sink.requests });
        }
        return;
      }
      const hook = /^\/sinks\/([\w.-]+)((?:\/[\w.-]+)*)$/.exec(path);
      if (!hook?.[1] || req.method !== 'POST') {
        json(res, 404, { error: 'no such route' });
        return;
      }
      const sink = sinkOf(hook[1]);
      const bytes = await bytesOf(req);
      const body = bytes.toString('utf8');
      const h = (name: string): string | null => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : null;
      };
      const headers = {
        'webhook-id': h('webhook-id') ?? '',
        'webhook-timestamp': h('webhook-timestamp') ?? '',
        'webhook-signature': h('webhook-signature') ?? '',
      };
      const { verified, error } = verify(sink.secrets, headers, body);
      const answer = sink.script.length > 1 ? (sink.script.shift() ?? 200) : (sink.script[0] ?? 200);
      sink.requests.push({
        webhookId: h('webhook-id'),
        webhookTimestamp: h('webhook-timestamp'),
        webhookSignature: h('webhook-signature'),
        userAgent: h('user-agent'),
        body,
        verified,
        verifyError: error,
        answered:
          answer === 'timeout' || answer === 'hold' ? answer : typeof answer === 'number' ? answer : answer.status,
        at: Date.now(),
        subpath: hook[2] ?? '',
        headers: Object.fromEntries(
          Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
        ),
        bodyBase64: bytes.toString('base64'),
      });
      if (answer === 'timeout' || answer === 'hold') {
        const drop = setTimeout(() => res.destroy(), HOLD_MS).unref();
        if (answer === 'hold') {
          sink.held.push(() => {
            clearTimeout(drop);
            if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          });
        }
        return;
      }
      const status = typeof answer === 'number' ? answer : answer.status;
      const extra = typeof answer === 'object' && answer.location ? { location: answer.location } : {};
      res.writeHead(status, { 'content-type': 'text/plain', ...extra });
      // A long body: the consumer must read only its first KiBs.
      res.end(status >= 400 ? `failure ${status} `.repeat(2000) : 'ok');
    })().catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(e) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
