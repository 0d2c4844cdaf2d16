/**
 * Where a batch item's time goes, read from the local stack's log (the Worker's JSON lines): for every
 * evaluation that started within a run, the object's `evaluation.started`, `call.finished` (with its
 * latency) and `evaluation.finalized` events. Meant for single-call presets (one call per item); with more
 * calls, "the call" is the last one. Times are the Durable Object's clock, in ms (the same machine's clock
 * as the bench's).
 *
 * {@link excessByStage} accounts for the whole run's excess over the ideal N × L / C: the C slots' time,
 * C × T, is each item's time in its slot (start → call out, the call, call → final write) plus the slots'
 * idle time. Matching the (C + k)-th start to the k-th final write in time order (the window lets an item in
 * only after an ending) splits the idle time exactly into the ramp (the POST → each of the first C starts),
 * the handovers (a final write → the start it let in) and the tail (the last C final writes → the batch's
 * `completedAt`). Each stage's sum over C is its share of T − N × L / C, in seconds.
 */

/** Means over a run's items, ms; `busy` is the mean number of items between start and final write. */
export interface ItemTimeline {
  items: number;
  /** start → the call out. */
  startToCall: number;
  /** The call, as the object saw it (mock + local transport). */
  call: number;
  /** The call's result → the final write committed. */
  callToFinal: number;
  /**
   * The latest final write before an item's start → that start (items started after the first ending only);
   * printed as "latest final write → start", apart from {@link ExcessByStage.handover}'s k-th pairing.
   */
  handover: number;
  busy: number;
}

interface Item {
  started: number;
  callEnd?: number;
  latency?: number;
  finalized?: number;
}

/** An evaluation that started and ended in the log: its start, its call's end and latency, its final write (ms). */
export type DoneItem = Required<Item>;

/**
 * Every evaluation of the log that started and ended. Read once per run and handed to {@link itemTimeline}
 * and {@link excessByStage}, which keep those that started in their window.
 */
export function doneItems(log: string): DoneItem[] {
  const byId = new Map<string, Item>();
  for (const line of log.split('\n')) {
    const at = line.indexOf('{"ts"');
    if (at < 0) continue;
    let e: { ts: number; event?: string; evaluationId?: string; latencyMs?: number };
    try {
      e = JSON.parse(line.slice(at)) as typeof e;
    } catch {
      continue;
    }
    if (!e.evaluationId) continue;
    if (e.event === 'evaluation.started') byId.set(e.evaluationId, { started: e.ts });
    const item = byId.get(e.evaluationId);
    if (!item) continue;
    if (e.event === 'call.finished') Object.assign(item, { callEnd: e.ts, latency: e.latencyMs ?? 0 });
    if (e.event === 'evaluation.finalized') item.finalized = e.ts;
  }
  return [...byId.values()].filter(
    (i): i is DoneItem => i.callEnd !== undefined && i.latency !== undefined && i.finalized !== undefined,
  );
}

/** Those of `items` that started in [`from`, `to`] (epoch ms). */
const startedIn = (items: readonly DoneItem[], from: number, to: number) =>
  items.filter((i) => i.started >= from && i.started <= to);

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const mean = (xs: readonly number[]) => sum(xs) / Math.max(xs.length, 1);

/** The timeline of the `items` ({@link doneItems}) that started in [`from`, `to`] (epoch ms); null when none. */
export function itemTimeline(items: readonly DoneItem[], from: number, to: number): ItemTimeline | null {
  const done = startedIn(items, from, to);
  if (done.length === 0) return null;
  const finals = done.map((i) => i.finalized).sort((a, b) => a - b);
  const handovers: number[] = [];
  for (const i of done) {
    // The latest final write before this start: the ending that made room for it.
    let before: number | undefined;
    for (const f of finals) {
      if (f > i.started) break;
      before = f;
    }
    if (before !== undefined) handovers.push(i.started - before);
  }
  const span = Math.max(...finals) - Math.min(...done.map((i) => i.started));
  return {
    items: done.length,
    startToCall: mean(done.map((i) => i.callEnd - i.latency - i.started)),
    call: mean(done.map((i) => i.latency)),
    callToFinal: mean(done.map((i) => i.finalized - i.callEnd)),
    handover: mean(handovers),
    busy: span > 0 ? sum(done.map((i) => i.finalized - i.started)) / span : 0,
  };
}

/** A run's excess over N × L / C by stage, in seconds (they add up to `total`); see the module note. */
export interface ExcessByStage {
  /** T − N × L / C. */
  total: number;
  /** The POST → the first C items' starts (the API's insert, the first window's queue hop, the objects' start). */
  ramp: number;
  /** The object's start → its call out (the provider gate's acquire, the request built). */
  startToCall: number;
  /** The call as the object saw it, beyond L (the mock and the local HTTP, the runtime's thread busy). */
  transport: number;
  /** The call's result → the final write committed (the D1 transaction). */
  finalWrite: number;
  /**
   * The k-th final write → the (C + k)-th start, the one it let in (the claim's hand-over to the next object);
   * printed as "k-th final write → (C+k)-th start", apart from {@link ItemTimeline.handover}.
   */
  handover: number;
  /** The last C final writes → `completedAt`, and whatever the log did not show (items with a missing line). */
  tail: number;
  /** The mean of the first C starts after the POST, ms. */
  rampMeanMs: number;
}

/**
 * The excess of a run that was POSTed at `t0` and completed at `end` (epoch ms), for its `n` items of one
 * call of `latency` ms each with `c` slots, from the log's `items` ({@link doneItems}); null when none of
 * them started in the run.
 */
export function excessByStage(
  items: readonly DoneItem[],
  run: { t0: number; end: number; n: number; latency: number; c: number },
): ExcessByStage | null {
  const { t0, end, n, latency, c } = run;
  const done = startedIn(items, t0, end);
  if (done.length === 0) return null;
  const starts = done.map((i) => i.started).sort((a, b) => a - b);
  const finals = done.map((i) => i.finalized).sort((a, b) => a - b);
  const first = starts.slice(0, c);
  const ramp = sum(first.map((s) => s - t0));
  const handover = sum(starts.slice(c).map((s, k) => s - (finals[k] ?? s)));
  const startToCall = sum(done.map((i) => i.callEnd - i.latency - i.started));
  const transport = sum(done.map((i) => i.latency - latency));
  const finalWrite = sum(done.map((i) => i.finalized - i.callEnd));
  const total = end - t0 - (n * latency) / c;
  const accounted = (ramp + handover + startToCall + transport + finalWrite) / c;
  const s = (ms: number) => ms / c / 1000;
  return {
    total: total / 1000,
    ramp: s(ramp),
    startToCall: s(startToCall),
    transport: s(transport),
    finalWrite: s(finalWrite),
    handover: s(handover),
    tail: total / 1000 - accounted / 1000,
    rampMeanMs: mean(first.map((x) => x - t0)),
  };
}
