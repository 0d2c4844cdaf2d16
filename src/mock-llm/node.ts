/**
 * @module
 * Node adapter of the mock server (node:http). Not for workerd: use `handleMockRequest` there.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockServerOptions } from './handler.js';
import { handleMockRequest, markArrival } from './handler.js';
import { createMockState } from './state.js';
import type { MockState } from './state.js';

/** Options of {@link startMockServer}. */
export interface StartMockOptions extends Omit<MockServerOptions, 'state'> {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * Wraps the mock: gets every request and `next` (the mock's handler) and answers it, e.g. to add a route
   * or count requests (tests). Default: none, the mock answers every request.
   */
  around?: (request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>;
  /** Lets the process exit while the server is listening (`server.unref()`). Default false. */
  unref?: boolean;
}

/** A running mock server. */
export interface MockServer {
  /** Origin, e.g. `http://127.0.0.1:8788` (control routes live under `/_mock/`). */
  url: string;
  /** OpenAI base URL, `url` + `/v1`: give it to the client as a provider's `baseUrl` / `LLM_BASE_URL`. */
  baseUrl: string;
  /** The server's state (counters, cache, scripts), for tests that set scripts in code. */
  state: MockState;
  /** Stops the server, dropping open connections (hung requests included). */
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

/** Answers a request: through the mock, or through `around` wrapping it. */
type Answer = (request: Request) => Promise<Response>;

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  answer: Answer,
  arrivedAt: number,
): Promise<void> {
  const controller = new AbortController();
  // A client that hangs up (e.g. its timeout fired) ends a hanging mock request early.
  res.on('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  try {
    const response = await answer(markArrival(await toRequest(req, origin, controller.signal), arrivedAt));
    if (res.destroyed) return;
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((v, k) => {
      headers[k] = v;
    });
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  } catch (e) {
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `mock crashed: ${e instanceof Error ? e.message : String(e)}`, type: 'server_error' },
        }),
      );
    }
  }
}

/**
 * Starts the mock on `host:port` (default 127.0.0.1, a free port). Each server has its own state.
 * Rejects with an error whose `code` is `EADDRINUSE` when the port is taken.
 */
export async function startMockServer(options: StartMockOptions = {}): Promise<MockServer> {
  const { port: listenPort, host: listenHost, around, unref, ...mockOptions } = options;
  const host = listenHost ?? '127.0.0.1';
  const state = createMockState();
  const handlerOptions: MockServerOptions = { ...mockOptions, state };
  const next: Answer = (request) => handleMockRequest(request, handlerOptions);
  const answer: Answer = around ? (request) => around(request, next) : next;
  let origin = '';
  const server = createServer((req, res) => {
    // Its headers are in: the latency counts from here, not from when its body has been read.
    void serve(req, res, origin, answer, Date.now());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      // A taken port is the usual mistake: say which one, keep the code for callers that add a hint.
      reject(
        e.code === 'EADDRINUSE'
          ? Object.assign(new Error(`port ${listenPort ?? 0} on ${host} is already in use`, { cause: e }), {
              code: e.code,
            })
          : e,
      );
    });
    server.listen(listenPort ?? 0, host, () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${shownHost}:${port}`;
  if (unref) server.unref();
  return {
    url: origin,
    baseUrl: `${origin}/v1`,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => {
          if (err) reject(err);
          else resolve();
        });
      }),
  };
}
