/**
 * The status module (src/evaluations/status.ts) and D1 agree: the migration's CHECK constraint lists
 * exactly the enum, and the SQL guards let a D1 write through exactly for the transitions the module
 * allows.
 */
import { describe, expect, it } from 'vitest';
import {
  canTransition,
  EVALUATION_STATUSES,
  isTerminal,
  SQL_NOT_ENDED,
  sqlMayBecome,
  TERMINAL_STATUSES,
} from '../../src/evaluations/status.js';
import { insertJob, PAIRWISE, testEnv } from './helpers.js';

/** The status values D1's `evaluations.status` CHECK constraint allows, read from the applied schema. */
async function checkedStatuses(): Promise<string[]> {
  const row = await testEnv.DB.prepare(
    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'evaluations'",
  ).first<{ sql: string }>();
  const check = /\bstatus\s+TEXT\s+NOT NULL\s+CHECK\s*\(\s*status\s+IN\s*\(([^)]*)\)\s*\)/i.exec(row?.sql ?? '');
  if (!check?.[1]) throw new Error(`no status CHECK in: ${row?.sql ?? '(no evaluations table)'}`);
  return check[1].split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
}

describe('status', () => {
  it("D1's CHECK constraint lists exactly the enum's statuses", async () => {
    expect(await checkedStatuses()).toEqual([...EVALUATION_STATUSES]);
  });

  it('terminal statuses go nowhere; the others may end in any terminal status', () => {
    for (const from of EVALUATION_STATUSES) {
      for (const to of TERMINAL_STATUSES) expect(canTransition(from, to), `${from} → ${to}`).toBe(!isTerminal(from));
    }
    expect(canTransition('queued', 'running')).toBe(true);
    expect(canTransition('running', 'queued')).toBe(false);
  });

  it('each SQL guard lets a D1 write through exactly for the allowed transitions', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const seen: string[] = [];
    for (const from of EVALUATION_STATUSES) {
      for (const to of EVALUATION_STATUSES) {
        await testEnv.DB.prepare('UPDATE evaluations SET status = ? WHERE id = ?').bind(from, id).run();
        const r = await testEnv.DB.prepare(`UPDATE evaluations SET status = ? WHERE id = ? AND ${sqlMayBecome(to)}`)
          .bind(to, id)
          .run();
        if (r.meta.changes > 0) seen.push(`${from}→${to}`);
        expect(r.meta.changes, `${from} → ${to}`).toBe(canTransition(from, to) ? 1 : 0);
      }
      await testEnv.DB.prepare('UPDATE evaluations SET status = ? WHERE id = ?').bind(from, id).run();
      const touched = await testEnv.DB.prepare(
        `UPDATE evaluations SET updated_at = updated_at WHERE id = ? AND ${SQL_NOT_ENDED}`,
      )
        .bind(id)
        .run();
      expect(touched.meta.changes, `not ended: ${from}`).toBe(isTerminal(from) ? 0 : 1);
    }
    // Two sources (queued, running) times four targets (running and the three ends).
    expect(seen).toHaveLength(8);
  });
});
