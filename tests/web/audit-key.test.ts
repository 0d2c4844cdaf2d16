/**
 * The viewer's accessibility audits run once per distinct page of an e2e run (tests/web/viewer-harness.ts
 * `expectAccessible`): a page is its route with ids as `:id`, its phone or desktop layout and its colour
 * scheme, and the first
 * file to claim it in the run's folder audits it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditKeyOf, claimAudit } from './audit-keys.js';

describe('auditKeyOf', () => {
  it('names the route without ids or query, and the layout', () => {
    expect(auditKeyOf('http://127.0.0.1:4000/#/evaluations/ev_1a2b', 1280)).toBe('/#/evaluations/:id desktop');
    expect(auditKeyOf('http://127.0.0.1:4000/#/evaluations/ev_9z?tab=debate', 1280)).toBe('/#/evaluations/:id desktop');
    expect(auditKeyOf('http://127.0.0.1:4000/#/rubrics/rb_1/versions/2', 375)).toBe(
      '/#/rubrics/:id/versions/:id phone',
    );
    expect(auditKeyOf('http://127.0.0.1:4000/#/?status=failed', 1280)).toBe('/#/ desktop');
    expect(auditKeyOf('http://127.0.0.1:4000/', 1280)).toBe('/#/ desktop');
    expect(auditKeyOf('http://127.0.0.1:4000/docs', 1280)).toBe('/docs#/ desktop');
    // Another page, another layout: audited apart.
    expect(auditKeyOf('http://127.0.0.1:4000/#/batches', 1280)).not.toBe(auditKeyOf('http://x/#/batches', 375));
    expect(auditKeyOf('http://127.0.0.1:4000/#/batches', 1280)).not.toBe(auditKeyOf('http://x/#/batches/b_1', 1280));
    // The dark scheme's colours are audited apart.
    expect(auditKeyOf('http://127.0.0.1:4000/#/batches', 1280, 'dark')).toBe('/#/batches desktop dark');
    expect(auditKeyOf('http://127.0.0.1:4000/#/batches', 1280, 'light')).toBe('/#/batches desktop');
  });
});

describe('claimAudit', () => {
  it('grants a page once per folder (the run), and once per process without one', () => {
    const run = mkdtempSync(join(tmpdir(), 'tribunal-audit-claims-'));
    const key = '/#/evaluations/:id desktop';
    expect([claimAudit(run, key), claimAudit(run, key), claimAudit(run, '/#/ phone')]).toEqual([true, false, true]);
    const other = mkdtempSync(join(tmpdir(), 'tribunal-audit-claims-'));
    expect(claimAudit(other, key)).toBe(true);
    const solo = `/#/solo-${Date.now()} desktop`;
    expect([claimAudit(undefined, solo), claimAudit(undefined, solo)]).toEqual([true, false]);
  });
});
