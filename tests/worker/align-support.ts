/**
 * What both alignment suites check of a finished job's tag: the held-out split (and so the gain's interval) is seeded
 * by the job's random id, so on a few percent of ids the interval starts at or below 0 (tests/meta/align-core.test.ts
 * pins why) and the tag rightly stays.
 */
import { expect } from 'vitest';
import type { Alignment } from '../../src/align/schemas.js';
import { api } from './api-fetch.js';

/**
 * The tag rule on whatever interval the job's split gave: an interval there is; the tag moved to version 2 when it
 * lies above 0, else it stayed where it was (`before`: the version it named before the job; absent: there was no
 * such tag, as on the suites' new rubrics, so none is made) and the reason names the interval.
 */
export async function expectTagRule(done: Alignment, rubric: string, before?: number): Promise<void> {
  const interval = done.heldOut?.gain.interval;
  expect(interval, 'the held-out gain has an interval').toBeDefined();
  const lo = interval?.lo ?? Number.NaN;
  expect(Number.isFinite(lo)).toBe(true);
  const tags = await (await api(`/v1/rubrics/${rubric}`)).json<{ tags: { tag: string; version: number }[] }>();
  const prod = tags.tags.find((t) => t.tag === 'prod')?.version;
  if (lo > 0) {
    expect(done.tag).toMatchObject({ name: 'prod', moved: 'align' });
    expect(prod).toBe(2);
  } else {
    expect(done.tag).toMatchObject({ name: 'prod', moved: null });
    expect(done.tag?.reason).toContain(`[${lo.toFixed(3)}, `);
    expect(done.tag?.reason).toContain('does not lie above 0');
    expect(prod).toBe(before);
  }
}
