/**
 * Where a batch item's time goes, read from the local stack's log (the Worker's JSON lines): for every
 * evaluation that started within a run, the object's `evaluation.started`, `call.finished` (with its
 * latency) and `evaluation.finalized` events. Meant for single-call presets (one call per item); with more
 * calls, "the call" is the last one. Times are the Durable Object's clock, in ms.
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
  /** A final write → the next item's start (items started after the first ending only). */
  handover: number;
  busy: number;
}

interface Item {
  started: number;
  callEnd?: number;
  latency?: number;
  finalized?: number;
}

/** The timeline of the evaluations that started in [`from`, `to`] (epoch ms); null when none finished. */
export function itemTimeline(log: string, from: number, to: number): ItemTimeline | null {
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
    if (e.event === 'evaluation.started' && e.ts >= from && e.ts <= to) byId.set(e.evaluationId, { started: e.ts });
    const item = byId.get(e.evaluationId);
    if (!item) continue;
    if (e.event === 'call.finished') Object.assign(item, { callEnd: e.ts, latency: e.latencyMs ?? 0 });
    if (e.event === 'evaluation.finalized') item.finalized = e.ts;
  }
  const done = [...byId.values()].filter(
    (i): i is Required<Item> => i.callEnd !== undefined && i.latency !== undefined && i.finalized !== undefined,
  );
  if (done.length === 0) return null;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);
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
    busy: span > 0 ? done.reduce((s, i) => s + (i.finalized - i.started), 0) / span : 0,
  };
}
