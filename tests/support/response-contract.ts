/**
 * @module
 * The served OpenAPI document as a contract on every response a test receives. {@link ResponseContract}
 * checks one response against the document: the path (matched against its templates), the method, the
 * status, the content type and the body, with Ajv (JSON Schema 2020-12, which OpenAPI 3.1 uses). NDJSON
 * lines and `text/event-stream` data are checked one item at a time against the item schema the
 * document gives (a media type whose schema is a plain string is a stream of text: only its type is checked).
 *
 * A response that is not in the document fails: an undocumented status or content type, a body that
 * fails its schema, a path under `/v1` answered with anything but a 404/405 in the error shape. The
 * failure ({@link ContractViolation}) names the method, the path, the status and the first schema error.
 *
 * Platform-free (Web `Response`, `ReadableStream`): the worker project (inside workerd) and the e2e
 * project (Node) share it; tests/worker/api-fetch.ts (the worker project's helpers) and
 * tests/support/contract-fetch.ts (the e2e project's `globalThis.fetch`) are the two fetches built on it. Each schema is compiled the first time a response needs it, once per contract.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the contract reads. */
export interface ContractDocument {
  openapi: string;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

interface MediaTypeDoc {
  schema?: unknown;
}
interface ResponseDoc {
  content?: Record<string, MediaTypeDoc>;
}
interface OperationDoc {
  responses?: Record<string, ResponseDoc>;
}

/** A response that the served document does not describe. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Document-level keys Ajv meets at the root when it resolves a `$ref` into the document. */
const DOCUMENT_KEYWORDS = ['openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags', 'webhooks'];
/** OpenAPI's own schema keywords besides JSON Schema's (annotations: they constrain nothing). */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];
const SCHEMA_ID = 'tribunal-openapi.json';

/** ajv-formats is CommonJS: its default export arrives wrapped under some bundlers. */
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** A JSON pointer segment (RFC 6901). */
function pointerSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON string (skipped whole, so digits inside one are not read) or a number token (group 1). */
const JSON_STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** The first Ajv error as one readable line: where in the body, what failed, and the schema's path. */
function describeError(e: ErrorObject | undefined): string {
  if (!e) return 'fails its schema';
  const where = e.instancePath === '' ? '(body)' : e.instancePath;
  const params = Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : '';
  return `${where} ${e.message ?? 'is invalid'}${params} (schema ${e.schemaPath})`;
}

/** A path template of the document as a matcher; its literal length ranks it against other matches. */
interface Template {
  path: string;
  strict: RegExp;
  /** The last parameter may span slashes (a model id `tribunal/<preset>@<model>`). */
  loose: RegExp;
  literal: number;
}

function templateOf(path: string): Template {
  const parts = path.split(/(\{[^}]+\})/).filter((p) => p !== '');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const strict = parts.map((p) => (p.startsWith('{') ? '[^/]+' : escape(p))).join('');
  const loose = parts.map((p) => (p.startsWith('{') ? '.+' : escape(p))).join('');
  const literal = parts.filter((p) => !p.startsWith('{')).join('').length;
  return { path, strict: new RegExp(`^${strict}$`), loose: new RegExp(`^${loose}$`), literal };
}

/** What a checked response was: the request's method and path and the answer's status. */
export interface Exchange {
  method: string;
  /** The request's URL (its path and query are used). */
  url: string | URL;
  response: Response;
}

/**
 * The served document as a checker of responses. Build one per document (`new ResponseContract(doc)`)
 * and call {@link ResponseContract.check} on every response.
 */
export class ResponseContract {
  readonly #doc: ContractDocument;
  readonly #ajv: Ajv2020;
  readonly #templates: Template[];
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(doc: ContractDocument) {
    this.#doc = doc;
    this.#ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, strictTuples: false });
    addFormats(this.#ajv);
    for (const k of [...DOCUMENT_KEYWORDS, ...OPENAPI_SCHEMA_KEYWORDS]) this.#ajv.addKeyword(k);
    this.#ajv.addSchema(doc, SCHEMA_ID);
    this.#templates = Object.keys(doc.paths ?? {}).map(templateOf);
  }

  /**
   * The document's path template for a request path, or null when none matches. A parameter matches one
   * segment; only when no template matches so does the last parameter span slashes (a model id).
   */
  templateFor(pathname: string, { loose = true }: { loose?: boolean } = {}): string | null {
    const pick = (re: 'strict' | 'loose') =>
      this.#templates.filter((t) => t[re].test(pathname)).sort((a, b) => b.literal - a.literal)[0];
    return (pick('strict') ?? (loose ? pick('loose') : undefined))?.path ?? null;
  }

  /** The compiled schema at a JSON pointer into the document. */
  validatorAt(pointer: string): ValidateFunction {
    let v = this.#validators.get(pointer);
    if (!v) {
      v = this.#ajv.getSchema(`${SCHEMA_ID}#${pointer}`);
      if (!v) throw new Error(`the document has no schema at ${pointer}`);
      this.#validators.set(pointer, v);
    }
    return v;
  }

  /** Checks `value` against the schema at `pointer`; the first error as a line, or null when it is valid. */
  errorAt(pointer: string, value: unknown): string | null {
    const v = this.validatorAt(pointer);
    return v(value) ? null : describeError(v.errors?.[0]);
  }

  /**
   * Checks an event Tribunal POSTed to a receiver against the document's `webhooks` section (by its
   * `type`). Returns the first error as a line, or null when the event is documented and valid.
   */
  webhookError(event: unknown): string | null {
    const type = (event as { type?: unknown } | null)?.type;
    if (typeof type !== 'string') return 'the event has no type';
    if (!(this.#doc as { webhooks?: Record<string, unknown> }).webhooks?.[type])
      return `event type ${type} is not in the document's webhooks`;
    const error = this.errorAt(
      `/webhooks/${pointerSegment(type)}/post/requestBody/content/application~1json/schema`,
      event,
    );
    return error === null ? null : `${type}: ${error}`;
  }

  /**
   * Checks a delivered event's raw body: {@link webhookError} of its parse, then that no number the document
   * says is an integer is written with a fraction or an exponent (`2.0`): `JSON.parse` reads that as 2, but a
   * strict receiver (Go's `int`, Rust's `u32`, Python's `range`) refuses it. Each such number is probed in
   * turn: made `n.5`, the event must still be valid or fail for some other reason than "must be integer".
   */
  webhookBodyError(body: string): string | null {
    const error = this.webhookError(JSON.parse(body));
    if (error !== null) return error;
    for (const m of body.matchAll(JSON_STRING_OR_NUMBER)) {
      const raw = m[1];
      if (raw === undefined || !/[.eE]/.test(raw)) continue;
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) continue;
      const end = m.index + m[0].length;
      const probe = JSON.parse(`${body.slice(0, end - raw.length)}${Math.abs(n)}.5${body.slice(end)}`) as unknown;
      const type = (probe as { type?: unknown } | null)?.type;
      const v = this.validatorAt(
        `/webhooks/${pointerSegment(String(type))}/post/requestBody/content/application~1json/schema`,
      );
      if (v(probe)) continue;
      const integer = v.errors?.find((e) => e.keyword === 'type' && String(e.params['type']).includes('integer'));
      if (integer) return `${String(type)}: ${integer.instancePath} is an integer written as ${raw}`;
    }
    return null;
  }

  /**
   * Checks one response. Resolves with the response to hand the caller: the same one, or for a stream
   * (NDJSON, `text/event-stream` with an item schema) a copy whose body is checked item by item as the
   * caller reads it, erroring the read at the first bad item. Rejects with {@link ContractViolation}.
   */
  async check({ method, url, response }: Exchange): Promise<Response> {
    const { pathname } = new URL(url);
    const m = method.toLowerCase();
    const status = response.status;
    const what = `${method.toUpperCase()} ${pathname} → ${status}`;
    const fail = (why: string) => new ContractViolation(`${what}: ${why}`);

    // An unknown path's 404 is the router's (checked as the error shape below), not a route's answer.
    const template = this.templateFor(pathname, { loose: status !== 404 });
    if (!template) {
      // Outside the document: the viewer's static files, and the API's own 404/405 for unknown paths.
      if (!pathname.startsWith('/v1/') && pathname !== '/v1') return response;
      if (status !== 404 && status !== 405) throw fail('the path is in no path template of the document');
      await this.#checkErrorBody(pathname, response, fail);
      return response;
    }
    const item = this.#doc.paths?.[template] ?? {};
    const opMethod = m === 'head' && !item.head ? 'get' : m;
    const op = item[opMethod] as OperationDoc | undefined;
    if (!op || !METHODS.includes(opMethod)) {
      if (status !== 405)
        throw fail(`${method.toUpperCase()} is not documented on ${template}, so only a 405 may answer`);
      await this.#checkErrorBody(pathname, response, fail);
      return response;
    }
    const responses = op.responses ?? {};
    const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!statusKey) {
      throw fail(
        `status ${status} is not documented for ${opMethod.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(', ')})`,
      );
    }
    const content = responses[statusKey]?.content ?? {};
    const header = response.headers.get('content-type');
    const mediaType = header?.split(';')[0]?.trim().toLowerCase() ?? null;
    const base = `/paths/${pointerSegment(template)}/${opMethod}/responses/${statusKey}/content`;

    if (m === 'head' || status === 101 || status === 204 || status === 304) {
      return response;
    }
    if (Object.keys(content).length === 0) {
      const text = await response.clone().text();
      if (text !== '')
        throw fail(`the document gives no body for ${statusKey}, and the response has ${mediaType ?? 'one'}`);
      return response;
    }
    const documented = mediaType && Object.keys(content).find((k) => k.toLowerCase() === mediaType);
    if (!documented) {
      throw fail(
        `content type ${mediaType ?? '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`,
      );
    }
    const schema = content[documented]?.schema;
    const pointer = `${base}/${pointerSegment(documented)}/schema`;
    const textOnly = !schema || (typeof schema === 'object' && (schema as { type?: unknown }).type === 'string');

    if (documented === 'application/x-ndjson' || documented === 'text/event-stream') {
      if (textOnly) return response;
      return this.#streamChecked(response, documented, pointer, fail);
    }
    if (!documented.includes('json')) {
      if (textOnly) return response;
      throw fail(`cannot check a ${documented} body against a non-string schema`);
    }
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(`the body is not JSON: ${text.slice(0, 120)}`);
    }
    const error = this.errorAt(pointer, body);
    if (error) throw fail(`${error}; body: ${text.slice(0, 300)}`);
    return response;
  }

  /**
   * An answer outside the document's operations is the API's error shape (`{ error: { code, message } }`),
   * OpenAI's on the OpenAI-compatible paths.
   */
  async #checkErrorBody(pathname: string, response: Response, fail: (why: string) => ContractViolation): Promise<void> {
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(`the body is not the error shape: ${text.slice(0, 120)}`);
    }
    const openAi = /^\/v1\/(chat|models)(\/|$)/.test(pathname);
    const error = this.errorAt(`/components/schemas/${openAi ? 'OpenAIError' : 'Error'}`, body);
    if (error) throw fail(`the body is not the error shape: ${error}`);
  }

  /**
   * A copy of a streamed response whose items are checked as they pass: each NDJSON line, or each SSE
   * event's `data` (OpenAI's closing `[DONE]` aside). The first bad item errors the stream, so the read
   * that reaches it fails with the violation.
   */
  #streamChecked(
    response: Response,
    mediaType: string,
    pointer: string,
    fail: (why: string) => ContractViolation,
  ): Response {
    if (!response.body) return response;
    const decoder = new TextDecoder();
    let buffered = '';
    let index = 0;
    const sse = mediaType === 'text/event-stream';
    const checkItem = (raw: string): ContractViolation | null => {
      index += 1;
      let data: string | null = raw;
      if (sse) {
        const lines = raw.split('\n').filter((l) => l.startsWith('data:'));
        if (lines.length === 0) return null; // a comment or a keep-alive
        data = lines.map((l) => l.slice(5).replace(/^ /, '')).join('\n');
        if (data === '[DONE]') return null;
      } else if (raw.trim() === '') {
        return null;
      }
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        return fail(`item ${index} is not JSON: ${data.slice(0, 120)}`);
      }
      const error = this.errorAt(pointer, value);
      return error ? fail(`item ${index}: ${error}; item: ${data.slice(0, 300)}`) : null;
    };
    const separator = sse ? /\r?\n\r?\n/ : /\r?\n/;
    const drain = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
      const parts = buffered.split(separator);
      buffered = final ? '' : (parts.pop() ?? '');
      for (const part of parts) {
        const violation = checkItem(part);
        if (violation) {
          controller.error(violation);
          return;
        }
      }
    };
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          buffered += decoder.decode(chunk, { stream: true });
          drain(controller, false);
        },
        flush(controller) {
          buffered += decoder.decode();
          drain(controller, true);
        },
      }),
    );
    const copy = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A constructed Response has no URL; clients that read it (redirect handling, error messages) get the original's.
    Object.defineProperty(copy, 'url', { value: response.url });
    return copy;
  }
}
