/**
 * @module
 * What a page gets from the shell (./main.ts).
 */

/** A page's environment: where to render, when to stop, how to report. */
export interface ViewContext {
  /** The `<main>` element the page renders into. */
  root: HTMLElement;
  /** Aborted when the user leaves the page: streams, timers and fetches stop. */
  signal: AbortSignal;
  /** Named groups of the route pattern, e.g. `id`. */
  params: Record<string, string>;
  /** The query part of the hash (`#/?status=failed`). */
  query: URLSearchParams;
  /** Goes to another page (`#/evaluations/ev_…`). */
  navigate: (hash: string) => void;
  /** Says something to screen readers (a polite live region). */
  announce: (text: string) => void;
  /** Reports an error from background work (a stream): a 401 shows the key form, others an error panel. */
  fail: (error: unknown) => void;
}

/** A page: renders into `ctx.root`; a rejection is handled like {@link ViewContext.fail}. */
export type View = (ctx: ViewContext) => Promise<void>;

/** Waits `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const t = window.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      window.clearTimeout(t);
      reject(signal.reason as Error);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sets the document title: `<page> · Tribunal`. */
export function setTitle(page: string): void {
  document.title = `${page} · Tribunal`;
}
