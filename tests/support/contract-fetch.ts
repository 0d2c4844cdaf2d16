/**
 * @module
 * The e2e project's fetch, checked against the served OpenAPI document (a setup file of
 * tests/vitest.e2e.config.ts): `globalThis.fetch` is wrapped so every response from a local Tribunal
 * stack (an origin whose `GET /openapi.json` is our document), whether the test, the OpenAI SDK or
 * `tribunal/client` asked for it, passes {@link ResponseContract} on its way back, and a drift fails the
 * test that received it. Each origin's document is fetched once per file; any other origin (the mock
 * LLM, a webhook receiver) passes through unchecked. The same document served on another port (a
 * restarted stack, another file's stack in the same process) reuses the compiled contract, so a new stack
 * costs one request for its document, not a compile.
 */
import type { ContractDocument } from './response-contract.js';
import { ResponseContract } from './response-contract.js';

/** What this file keeps across the test files of one process. */
interface Kept {
  /** Node's own fetch, before this file wrapped it. */
  base: typeof fetch;
  dispatcher: NonNullable<RequestInit['dispatcher']>;
  /** Compiled contracts by document text: a restarted stack on a new port, or another file's, serves the same one. */
  byDocument: Map<string, ResponseContract>;
}

/**
 * Node's own undici `Agent`, the class of the dispatcher its fetch uses (which a first fetch makes, here of a
 * `data:` URL, under the key every copy of undici shares). Importing the npm undici for it loaded a second
 * copy of undici into every test process, about 0.2 CPU-s a file.
 */
async function nodeAgent(
  base: typeof fetch,
): Promise<new (options: { pipelining: number }) => NonNullable<RequestInit['dispatcher']>> {
  await base('data:,');
  const made = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')];
  if (typeof made !== 'object' || made === null) throw new Error("Node's fetch made no global dispatcher");
  return made.constructor as new (options: { pipelining: number }) => NonNullable<RequestInit['dispatcher']>;
}

/**
 * The e2e project's files share their process (`isolate: false`), and vitest runs a setup file again before
 * each file: what the first run made is kept on the global object, so a later run wraps Node's fetch (not
 * the first run's wrapper, which would check every response twice) and reuses the compiled contracts (about
 * 0.3 CPU-s a compile of the 1.5 MB document, before its validators).
 */
const KEPT = Symbol.for('tribunal.e2e.contractFetch');
const globals = globalThis as typeof globalThis & { [KEPT]?: Kept };
if (!globals[KEPT]) {
  const base = globalThis.fetch.bind(globalThis);
  /*
   * No keep-alive: every request on a new connection. workerd closes a keep-alive connection 5 s after its
   * last response (kj's timeout, measured on `npm start`); a pool that keeps one idle for less still races
   * it on a busy machine, where the test process's timers run seconds late: its next request goes out on a
   * socket workerd has just closed and fails with "other side closed" (seen at load 22 with a 1 s idle
   * limit). A loopback connection costs well under a millisecond.
   */
  const dispatcher = new (await nodeAgent(base))({ pipelining: 0 });
  globals[KEPT] = { base, dispatcher, byDocument: new Map() };
}
const { base, dispatcher, byDocument } = globals[KEPT];
const unchecked = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  base(input, { ...init, dispatcher });
/** Each origin's contract, asked once per file (a port may serve another file's stack later). */
const contracts = new Map<string, Promise<ResponseContract | null>>();

/** The contract of `origin`, or null when it serves no Tribunal document (not a stack). */
function contractOf(origin: string): Promise<ResponseContract | null> {
  let c = contracts.get(origin);
  if (!c) {
    c = (async () => {
      try {
        const r = await unchecked(`${origin}/openapi.json`);
        if (r.status !== 200) return null;
        const text = await r.text();
        const known = byDocument.get(text);
        if (known) return known;
        const doc = JSON.parse(text) as ContractDocument;
        if (typeof doc.openapi !== 'string' || !doc.paths?.['/v1/evaluations']) return null;
        const contract = new ResponseContract(doc);
        byDocument.set(text, contract);
        return contract;
      } catch {
        return null;
      }
    })();
    // A stack not up yet is asked again next time.
    void c.then((v) => v === null && contracts.delete(origin));
    contracts.set(origin, c);
  }
  return c;
}

/** `fetch`, with a local stack's responses checked against its document (rejects with the violation). */
export async function contractFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : null;
  const url = new URL(input instanceof Request ? input.url : input);
  const method = init?.method ?? request?.method ?? 'GET';
  const response = await unchecked(input, init);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || url.pathname === '/openapi.json') return response;
  const contract = await contractOf(url.origin);
  return contract ? contract.check({ method, url, response }) : response;
}

globalThis.fetch = contractFetch;
