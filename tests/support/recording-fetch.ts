/**
 * A `fetch` for an LLM client under test that records what each request carried and sends it on as given.
 */

/** One request as {@link recordingFetch} saw it. */
export interface SeenRequest {
  url: string;
  /** The JSON body (every chat-completions request has one). */
  body: Record<string, unknown>;
  headers: Headers;
}

/**
 * The global `fetch`, recording each request in `seen` before sending it.
 *
 * The request is sent with the caller's own `input` and `init`, never as a `Request` built here: a
 * `Request` given a signal gets its own AbortSignal that follows the caller's through a weak reference
 * (undici), so once that copy is garbage-collected the caller's abort no longer reaches the fetch, and a
 * client's per-attempt timeout leaves a hung request hanging (seen under full runs, where files share a
 * process and collect more often). The copy read here has no signal.
 */
export function recordingFetch(seen: SeenRequest[]): typeof fetch {
  return async (input, init) => {
    const copy = new Request(input, { ...init, signal: null });
    seen.push({ url: copy.url, body: (await copy.json()) as Record<string, unknown>, headers: copy.headers });
    return fetch(input, init);
  };
}
