/**
 * bench:batch's excess by stage (bench/batch-timeline.ts `excessByStage`): the C slots' time split into the
 * ramp, each item's stages, the handovers and the tail, adding up to T − N × L / C; lines of items that started
 * before the run are left out.
 */
import { describe, expect, it } from 'vitest';
import { doneItems, excessByStage } from '../../bench/batch-timeline.js';

const POST = 1_000_000;
const line = (ts: number, fields: Record<string, unknown>) =>
  `[wrangler:info] ${JSON.stringify({ ts: POST + ts, level: 'debug', ...fields })}`;

/** An item's three lines: started at `start`, its call out `out` ms later for `call` ms, its final write `write` ms after. */
function item(id: string, start: number, out: number, call: number, write: number): string[] {
  return [
    line(start, { event: 'evaluation.started', evaluationId: id }),
    line(start + out + call, { event: 'call.finished', evaluationId: id, latencyMs: call }),
    line(start + out + call + write, { event: 'evaluation.finalized', evaluationId: id }),
  ];
}

describe('excessByStage', () => {
  it('splits T − N·L/C into parts that add up, each over C', () => {
    // C = 2, L = 100, N = 3: a and b start after a ramp of 40 and 60 ms; c takes the slot a's write freed 10 ms later.
    const log = [
      ...item('ev_old', -500, 1, 100, 1),
      ...item('ev_a', 40, 2, 110, 8), // final at 160
      ...item('ev_b', 60, 4, 120, 6), // final at 190
      ...item('ev_c', 170, 2, 104, 4), // final at 280
    ].join('\n');
    const end = POST + 300;
    const x = excessByStage(doneItems(log), { t0: POST, end, n: 3, latency: 100, c: 2 });
    expect(x).not.toBeNull();
    if (!x) return;
    const ms = (s: number) => Math.round(s * 1000 * 2);
    expect(ms(x.ramp)).toBe(40 + 60);
    expect(ms(x.startToCall)).toBe(2 + 4 + 2);
    expect(ms(x.transport)).toBe(10 + 20 + 4);
    expect(ms(x.finalWrite)).toBe(8 + 6 + 4);
    expect(ms(x.handover)).toBe(170 - 160);
    // The tail: b's slot idle from 190, c's from 280, to the end at 300.
    expect(ms(x.tail)).toBe(300 - 190 + (300 - 280));
    expect(x.total).toBeCloseTo(0.3 - (3 * 100) / 2 / 1000, 6);
    expect(x.ramp + x.startToCall + x.transport + x.finalWrite + x.handover + x.tail).toBeCloseTo(x.total, 6);
    expect(x.rampMeanMs).toBe(50);
  });

  it('is null without an item of the run', () => {
    expect(
      excessByStage(doneItems(item('ev_old', -500, 1, 100, 1).join('\n')), {
        t0: POST,
        end: POST + 10,
        n: 1,
        latency: 1,
        c: 1,
      }),
    ).toBeNull();
  });
});
