/**
 * Where a batch-tier run's time goes, wave by wave, read from the local stack's log (the Worker's JSON lines):
 * the coordinator's `wave.closed`, `wave.submitted` and `wave.delivered` lines (src/waves/coordinator.ts) and the
 * items' `evaluation.finalized`. Times are the runtime's clock (the bench's own, same machine), ms.
 */

/** A process's CPU used so far (ms) at a moment (epoch ms). */
export interface CpuSample {
  at: number;
  ms: number;
}

/** One wave (one provider batch: the bench's runs fit one file a wave). */
export interface WaveRow {
  wave: number;
  calls: number;
  items: number;
  /** When the wave closed, ms after the POST. */
  closedAt: number;
  /** How long the wave was open (first registration → close), and quiet (last registration → close). */
  openMs: number;
  quietMs: number;
  /** Close → the batch created (the upload, the lookup, the creation). */
  submitMs: number;
  /** Submission → the poll that saw the batch terminal (the turnaround plus the poll's lag). */
  turnaroundSeenMs: number;
  polls: number;
  /** Terminal poll → every result handed over and the next calls registered. */
  deliveryMs: number;
  /** The runtime's (workerd's) CPU meanwhile, ms, or null without samples: near {@link deliveryMs}, the hand-over is CPU-bound. */
  deliveryCpuMs: number | null;
  /** Opening the output file. */
  readMs: number;
  deliveries: number;
  rpcMsMean: number;
  rpcMsMax: number;
  answered: number;
  /** Delivered → the next wave closed (or, for the last wave, → the last item finalized). */
  gapMs: number;
}

/** A run's timeline. */
export interface WaveTimeline {
  waves: WaveRow[];
  /** POST → the first wave closed. */
  startMs: number;
  /** POST → its answer (the batch stored, its items queued). */
  answerMs: number;
  /** POST → the first and the last of the run's items started (`evaluation.started`), or null when none did. */
  firstStartMs: number | null;
  lastStartMs: number | null;
  /** The last wave delivered → the last item finalized (the batch's `completedAt` is that write's clock). */
  endMs: number;
  /** POST → the last item finalized. */
  lastFinalMs: number | null;
}

interface Line {
  ts: number;
  event?: string;
  coordinator?: string;
  wave?: number;
  [k: string]: unknown;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** CPU used between two moments, from the samples nearest outside them; null when they do not cover both. */
export function cpuBetween(samples: readonly CpuSample[], from: number, to: number): number | null {
  const before = samples.filter((s) => s.at <= from).at(-1);
  const after = samples.find((s) => s.at >= to);
  return before && after ? after.ms - before.ms : null;
}

/**
 * The timeline of the coordinators of `group` (a Tribunal batch id) in `log`, against the POST at `postAt`
 * (epoch ms); null when no wave was delivered. Finalizations count from `postAt` on.
 */
export function waveTimeline(
  log: string,
  group: string,
  postAt: number,
  answeredAt: number,
  cpu: readonly CpuSample[] = [],
): WaveTimeline | null {
  const closed = new Map<number, Line>();
  const submitted = new Map<number, Line>();
  const delivered = new Map<number, Line>();
  let lastFinal: number | null = null;
  const starts: number[] = [];
  for (const text of log.split('\n')) {
    const at = text.indexOf('{"ts"');
    if (at < 0) continue;
    let e: Line;
    try {
      e = JSON.parse(text.slice(at)) as Line;
    } catch {
      continue;
    }
    if (e.event === 'evaluation.finalized' && e.ts >= postAt) lastFinal = Math.max(lastFinal ?? 0, e.ts);
    if (e.event === 'evaluation.started' && e.ts >= postAt) starts.push(e.ts);
    if (!e.coordinator?.startsWith(`${group}|`) || e.wave === undefined) continue;
    // The first line of each kind per wave (a wave of one file; a re-read after a failed delivery logs once more).
    const into = e.event === 'wave.closed' ? closed : e.event === 'wave.submitted' ? submitted : null;
    if (into && !into.has(e.wave)) into.set(e.wave, e);
    if (e.event === 'wave.delivered') delivered.set(e.wave, e);
  }
  const waves = [...closed.keys()].sort((a, b) => a - b);
  const rows: WaveRow[] = [];
  for (const w of waves) {
    const c = closed.get(w);
    const s = submitted.get(w);
    const d = delivered.get(w);
    if (!c || !s || !d) continue;
    const next = closed.get(w + 1)?.ts ?? lastFinal ?? d.ts;
    const deliveries = num(d.deliveries);
    rows.push({
      wave: w,
      calls: num(c.calls),
      items: num(c.items),
      closedAt: c.ts - postAt,
      openMs: num(c.openMs),
      quietMs: num(c.quietMs),
      submitMs: s.ts - c.ts,
      turnaroundSeenMs: num(d.sinceSubmitMs),
      polls: num(d.polls),
      deliveryMs: num(d.deliveryMs),
      deliveryCpuMs: cpuBetween(cpu, d.ts - num(d.deliveryMs), d.ts),
      readMs: num(d.readMs),
      deliveries,
      rpcMsMean: deliveries > 0 ? num(d.rpcMsSum) / deliveries : 0,
      rpcMsMax: num(d.rpcMsMax),
      answered: num(d.answered),
      gapMs: next - d.ts,
    });
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return null;
  // The run's items start before its first wave closes; later starts are other runs'.
  const own = starts.filter((s) => s <= first.closedAt + postAt);
  return {
    waves: rows,
    startMs: first.closedAt,
    answerMs: answeredAt - postAt,
    firstStartMs: own.length > 0 ? Math.min(...own) - postAt : null,
    lastStartMs: own.length > 0 ? Math.max(...own) - postAt : null,
    endMs: last.gapMs,
    lastFinalMs: lastFinal === null ? null : lastFinal - postAt,
  };
}

/** The timeline as Markdown: a table of waves, then the start and the end. */
export function formatWaveTimeline(t: WaveTimeline, turnaroundMs: number): string {
  const ms = (x: number) => x.toFixed(0);
  const rows = t.waves.map((w) =>
    [
      w.wave,
      `${w.calls} / ${w.items}`,
      ms(w.closedAt),
      `${ms(w.openMs)} / ${ms(w.quietMs)}`,
      ms(w.submitMs),
      `${ms(w.turnaroundSeenMs)} (${w.polls})`,
      ms(w.turnaroundSeenMs - turnaroundMs),
      w.deliveryCpuMs === null ? ms(w.deliveryMs) : `${ms(w.deliveryMs)} (CPU ${ms(w.deliveryCpuMs)})`,
      ms(w.readMs),
      `${w.deliveries}: ${ms(w.rpcMsMean)} / ${ms(w.rpcMsMax)}`,
      w.answered,
      ms(w.gapMs),
      ms(w.submitMs + w.turnaroundSeenMs + w.deliveryMs + w.gapMs - turnaroundMs),
    ].join(' | '),
  );
  return [
    `Wave timeline (ms; turnaround ${turnaroundMs} ms). Over = close → next close (the last: → last final write) minus the turnaround.`,
    '',
    '| wave | calls / items | closed at | open / quiet | close → submitted | submitted → seen terminal (polls) | poll lag | terminal → delivered | file open | RPCs: mean / max | next calls | delivered → next close | over |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
    `Start: POST → answered ${ms(t.answerMs)} ms → first item started ${t.firstStartMs === null ? '-' : ms(t.firstStartMs)} ms → last item started ${t.lastStartMs === null ? '-' : ms(t.lastStartMs)} ms → first wave closed ${ms(t.startMs)} ms. End: last wave delivered → last final write ${ms(t.endMs)} ms${t.lastFinalMs !== null ? ` (POST → last final write ${ms(t.lastFinalMs)} ms)` : ''}.`,
  ].join('\n');
}
