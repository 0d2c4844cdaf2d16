/**
 * @module
 * The types `request()` is checked by, derived from the OpenAPI document's `paths` (./api-types.ts): which
 * paths take a method, what an operation's parameters, headers and body are, and the union of its
 * documented answers by status. Types only; the client's entry (./index.ts) passes the public ones on.
 */
import type { paths } from './api-types.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];
/** The operation at `P` for `M`. */
export type Operation<P extends keyof paths, M extends HttpMethod> = Extract<paths[P][M], { responses: unknown }>;

type Defined<T> = Exclude<T, undefined>;
type IsNever<T> = [T] extends [never] ? true : false;
/** `{ [k]: v }` when `v` is a real (non-never) type, else `{}` (a parameter the route does not take). */
type Field<K extends string, V, Required extends boolean> =
  IsNever<Defined<V>> extends true
    ? { [P in K]?: never }
    : Required extends true
      ? { [P in K]: Defined<V> }
      : { [P in K]?: Defined<V> };
type Parameters_<O> = O extends { parameters: infer P } ? P : never;
type PathOf<O> = Parameters_<O> extends { path?: infer X } ? X : never;
type QueryOf<O> = Parameters_<O> extends { query?: infer X } ? X : never;
type HeaderOf<O> = Parameters_<O> extends { header?: infer X } ? X : never;
/** The JSON request body operation `O` takes (`never` when it takes none). */
export type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type BodyRequired<O> = O extends { requestBody: unknown } ? true : false;
/** A body with a `stream` switch (OpenAI's convention), set to `S`; any other body as it is. */
type StreamSet<B, S> = B extends unknown ? ('stream' extends keyof B ? Omit<B, 'stream'> & S : B) : never;
/** A body that asks for no stream: `stream` absent, false or null (a plain `boolean` is refused: the answer's type depends on it). */
export type Unstreamed<B> = StreamSet<B, { stream?: false | null }>;
/** A body that asks for a stream: `stream: true`. */
export type Streamed<B> = StreamSet<B, { stream: true }>;
/** Operations whose JSON body has a `stream` switch (`POST /v1/chat/completions`). */
export type StreamingPaths = {
  [P in PathsWith<'post'>]: 'stream' extends keyof Defined<BodyOf<Operation<P, 'post'>>> ? P : never;
}[PathsWith<'post'>];

/** What `request()` takes for an operation: its typed parameters and body, plus extra headers and a signal. */
export type RequestInput<O, Body = Unstreamed<BodyOf<O>>> = Field<'params', PathOf<O>, true> &
  Field<'query', QueryOf<O>, false> &
  Field<'body', Body, BodyRequired<O>> & {
    /** The route's documented headers (e.g. `Idempotency-Key`) and any other. */
    headers?: (IsNever<Defined<HeaderOf<O>>> extends true ? unknown : Defined<HeaderOf<O>>) &
      Record<string, string | undefined>;
    signal?: AbortSignal;
  };

type Content<R> = R extends { content: infer C } ? C : never;
/** The body at one status: JSON parsed, NDJSON as an async iterator of its lines, nothing as null, else text. */
type BodyType<R> =
  Content<R> extends { 'application/json': infer J }
    ? J
    : Content<R> extends { 'application/x-ndjson': infer L }
      ? AsyncIterable<L>
      : IsNever<Content<R>> extends true
        ? null
        : string;
/**
 * The body at one status of a streamed request: server-sent events as an async iterator of each `data:`
 * line's item (`[DONE]` ends it; an error item is thrown as a `TribunalError` (./errors.ts), as OpenAI's SDKs do).
 */
type StreamBodyType<R> =
  Content<R> extends { 'text/event-stream': infer E } ? AsyncIterable<Exclude<E, { error: unknown }>> : BodyType<R>;
/** One documented answer: its status, the body's type at that status, and the headers. */
export type ResponseOf<O, Stream extends boolean = false> = O extends { responses: infer R }
  ? {
      [S in keyof R & number]: {
        status: S;
        ok: `${S}` extends `2${string}` ? true : false;
        body: Stream extends true ? StreamBodyType<R[S]> : BodyType<R[S]>;
        headers: Headers;
      };
    }[keyof R & number]
  : never;
