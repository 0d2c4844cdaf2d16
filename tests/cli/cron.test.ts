/** Cron expressions of wrangler.toml, matched as Cloudflare runs them (UTC, cron(8) day rules). */
import { describe, expect, it } from 'vitest';
import { cronMatches, parseCron, RESTART_CRON, startCronTimer } from '../../src/cli/cron.js';

const at = (iso: string) => new Date(iso);

describe('cron', () => {
  it('matches every minute for * * * * *', () => {
    const c = parseCron('* * * * *');
    expect(cronMatches(c, at('2026-03-01T00:00:00Z'))).toBe(true);
    expect(cronMatches(c, at('2026-03-01T13:37:59Z'))).toBe(true);
  });

  it('reads steps, ranges, lists and names', () => {
    const every15 = parseCron('*/15 * * * *');
    expect(
      [0, 15, 30, 45].every((m) => cronMatches(every15, at(`2026-03-01T10:${String(m).padStart(2, '0')}:00Z`))),
    ).toBe(true);
    expect(cronMatches(every15, at('2026-03-01T10:16:00Z'))).toBe(false);
    const office = parseCron('0 9-17/4 * * MON-FRI');
    expect(cronMatches(office, at('2026-03-02T13:00:00Z'))).toBe(true); // Monday, 13 = 9 + 4
    expect(cronMatches(office, at('2026-03-02T14:00:00Z'))).toBe(false);
    expect(cronMatches(office, at('2026-03-01T13:00:00Z'))).toBe(false); // Sunday
    const list = parseCron('5,35 0 1 JAN,JUL *');
    expect(cronMatches(list, at('2026-07-01T00:35:00Z'))).toBe(true);
    expect(cronMatches(list, at('2026-08-01T00:35:00Z'))).toBe(false);
  });

  it('treats 7 as Sunday and ORs restricted day-of-month and day-of-week, as cron(8) does', () => {
    expect(cronMatches(parseCron('0 0 * * 7'), at('2026-03-01T00:00:00Z'))).toBe(true);
    const either = parseCron('0 0 13 * FRI');
    expect(cronMatches(either, at('2026-03-13T00:00:00Z'))).toBe(true); // the 13th (a Friday too)
    expect(cronMatches(either, at('2026-03-20T00:00:00Z'))).toBe(true); // a Friday
    expect(cronMatches(either, at('2026-03-14T00:00:00Z'))).toBe(false);
  });

  it('refuses what it cannot run locally, saying why', () => {
    expect(() => parseCron('* * * *')).toThrow('expected 5 fields, got 4');
    expect(() => parseCron('0 0 L * *')).toThrow(/day of month/);
    expect(() => parseCron('61 * * * *')).toThrow(/minute: "61" is not in 0-59/);
  });

  it('fires the sweep after a restart at once, with the time the runtime started, then waits for the schedule', () => {
    const fired: { cron: string; at: number }[] = [];
    const restartedAt = new Date(Date.now() - 5_000);
    const timer = startCronTimer({
      crons: ['* * * * *'],
      restartedAt,
      trigger: (cron, when) => {
        fired.push({ cron, at: when.getTime() });
        return Promise.resolve(null);
      },
    });
    timer.stop();
    expect(fired).toEqual([{ cron: RESTART_CRON, at: restartedAt.getTime() }]);
  });
});
