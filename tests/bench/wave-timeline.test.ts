/**
 * bench:tiers' wave timeline (bench/wave-timeline.ts) reads the runtime's log as the coordinator writes it:
 * each wave's close, submission and delivery of one group, the items' starts and final writes, the runtime's CPU
 * while a wave was handed over; other groups' lines and earlier runs' lines are left out.
 */
import { describe, expect, it } from 'vitest';
import { cpuBetween, formatWaveTimeline, waveTimeline } from '../../bench/wave-timeline.js';

const POST = 1_000_000;
const G = 'ba_1';
const line = (ts: number, fields: Record<string, unknown>) =>
  `[wrangler:info] ${JSON.stringify({ ts: POST + ts, level: 'info', ...fields })}`;
const coordinator = `${G}|default|mock-judge`;

const LOG = [
  line(-5_000, { event: 'evaluation.started', evaluationId: 'ev_old' }),
  line(-4_000, { event: 'evaluation.finalized', evaluationId: 'ev_old' }),
  line(300, { event: 'evaluation.started', evaluationId: 'ev_a' }),
  line(700, { event: 'evaluation.started', evaluationId: 'ev_b' }),
  line(900, { event: 'wave.closed', coordinator, wave: 1, calls: 4, items: 2, openMs: 600, quietMs: 1 }),
  // Another group's wave at the same time is not this run's.
  line(905, { event: 'wave.closed', coordinator: 'ba_2|default|mock-judge', wave: 1, calls: 9 }),
  line(930, { event: 'wave.submitted', coordinator, wave: 1, part: 0 }),
  line(4_300, {
    ...{ event: 'wave.delivered', coordinator, wave: 1, part: 0, polls: 14, sinceSubmitMs: 3_070 },
    ...{ deliveryMs: 300, results: 4, deliveries: 2, answered: 4, rpcMsMax: 40, rpcMsSum: 50, readMs: 3 },
  }),
  line(4_310, { event: 'wave.closed', coordinator, wave: 2, calls: 4, items: 2, openMs: 250, quietMs: 2 }),
  line(4_350, { event: 'wave.submitted', coordinator, wave: 2, part: 0 }),
  line(7_700, {
    ...{ event: 'wave.delivered', coordinator, wave: 2, part: 0, polls: 13, sinceSubmitMs: 3_050 },
    ...{ deliveryMs: 200, results: 4, deliveries: 2, answered: 0, rpcMsMax: 30, rpcMsSum: 40, readMs: 2 },
  }),
  line(7_800, { event: 'evaluation.finalized', evaluationId: 'ev_a' }),
  line(7_900, { event: 'evaluation.finalized', evaluationId: 'ev_b' }),
  'not a JSON line',
].join('\n');

describe('the wave timeline', () => {
  it("reads each wave's steps, the start and the end of one group's run", () => {
    const cpu = [
      { at: POST + 4_000, ms: 100 },
      { at: POST + 4_300, ms: 340 },
    ];
    const t = waveTimeline(LOG, G, POST, POST + 60, cpu);
    expect(t).not.toBeNull();
    if (!t) return;
    expect(t.waves.map((w) => [w.wave, w.calls, w.closedAt, w.submitMs, w.turnaroundSeenMs, w.gapMs])).toEqual([
      [1, 4, 900, 30, 3_070, 10],
      [2, 4, 4_310, 40, 3_050, 200],
    ]);
    expect(t.waves[0]?.rpcMsMean).toBe(25);
    // The CPU samples around wave 1's hand-over (4,000 → 4,300); none cover wave 2's.
    expect(t.waves.map((w) => w.deliveryCpuMs)).toEqual([240, null]);
    expect([t.answerMs, t.firstStartMs, t.lastStartMs, t.startMs, t.endMs, t.lastFinalMs]).toEqual([
      60, 300, 700, 900, 200, 7_900,
    ]);
    const text = formatWaveTimeline(t, 3_000);
    // Wave 1: 30 + 3,070 + 300 + 10 over 3,000.
    expect(text).toMatch(/\| 1 \| 4 \/ 2 \| 900 \|.*\| 410 \|/);
    expect(text).toContain('POST → answered 60 ms');
  });

  it('is null for a group with no delivered wave, and CPU needs samples on both sides', () => {
    expect(waveTimeline(LOG, 'ba_none', POST, POST)).toBeNull();
    expect(cpuBetween([{ at: 10, ms: 5 }], 5, 20)).toBeNull();
    expect(
      cpuBetween(
        [
          { at: 0, ms: 5 },
          { at: 30, ms: 9 },
        ],
        5,
        20,
      ),
    ).toBe(4);
  });
});
