/** How the viewer writes money, durations, statistics and agent initials (src/web/app/format.ts). */
import { describe, expect, it } from 'vitest';
import {
  formatAgo,
  formatDuration,
  formatPct,
  formatScore,
  formatStat,
  formatUsd,
  initialsOf,
  scoreOf,
} from '../../src/web/app/format.js';

describe('format', () => {
  it('a score out of its scale, or alone when the scale is not known', () => {
    expect([scoreOf(5, { max: 10 }), scoreOf(3.25, { max: 5 }), scoreOf(4, null), scoreOf(1, undefined)]).toEqual([
      '5 / 10',
      '3.25 / 5',
      '4',
      '1',
    ]);
  });

  it('money: sub-cent amounts keep four decimals, larger ones cents, large ones whole dollars', () => {
    expect([0, 0.00042, 0.05, 12.345, 1234.5].map(formatUsd)).toEqual([
      '$0.00',
      '$0.0004',
      '$0.05',
      '$12.35',
      '$1,235',
    ]);
  });

  it('durations, shares and statistics (a real minus sign; a dash for undefined)', () => {
    expect([850, 2400, 185_000, 7_500_000].map(formatDuration)).toEqual([
      '850 ms',
      '2.4 s',
      '3 min 05 s',
      '2 h 05 min',
    ]);
    expect([0.8333, null, Number.NaN].map((x) => formatPct(x))).toEqual(['83.3%', '—', '—']);
    expect([0.615, -0.15, null].map((x) => formatStat(x))).toEqual(['0.61', '\u22120.15', '—']);
    expect([4, 3.5, 3.25].map(formatScore)).toEqual(['4', '3.5', '3.25']);
  });

  it('never shows a negative zero: a value that rounds to zero has no minus sign', () => {
    // A comparison's interval bound of -0.001 read "−0.00", as if below zero.
    expect([-0.001, -0, -0.004999, 0.001].map((x) => formatStat(x))).toEqual(['0.00', '0.00', '0.00', '0.00']);
    expect(formatStat(-0.0004, 3)).toBe('0.000');
    expect(formatStat(-0.005, 3)).toBe('\u22120.005');
    expect([-0.0004, -0, -0.025].map((x) => formatPct(x))).toEqual(['0.0%', '0.0%', '\u22122.5%']);
  });

  it('relative times and initials', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(
      ['2026-01-01T11:59:48Z', '2026-01-01T11:57:00Z', '2026-01-01T09:00:00Z'].map((t) => formatAgo(t, now)),
    ).toEqual(['12 s ago', '3 min ago', '3 h ago']);
    expect(
      [
        'General Public',
        'Critic',
        'juror2',
        'Advocate 1 for Answer 2',
        '',
        'Critic (strict)',
        '(judge)',
        'Juge (sévère)',
        'Кри́тик',
      ].map(initialsOf),
    ).toEqual(['GP', 'C', 'J2', 'A1', '?', 'CS', 'J', 'JS', 'К']);
  });
});
