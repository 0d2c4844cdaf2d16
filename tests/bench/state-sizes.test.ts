/**
 * bench:capacity's reading of a state folder (bench/state-sizes.ts) beside what the local runtime keeps there
 * that is not a store: the migration marker in D1's folder (src/cli/local-migrations.ts) is a file, not a
 * database's folder, and must not be read as one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateSizes } from '../../bench/state-sizes.js';
import { MIGRATED_MARKER } from '../../src/cli/local-migrations.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('stateSizes', () => {
  it("reads D1's folders only: the migration marker beside them is skipped", () => {
    const state = mkdtempSync(join(tmpdir(), 'tribunal-state-sizes-test-'));
    made.push(state);
    mkdirSync(join(state, 'v3', 'd1', 'miniflare-D1DatabaseObject'), { recursive: true });
    writeFileSync(join(state, 'v3', 'd1', MIGRATED_MARKER), '{}');
    expect(stateSizes(state).d1).toEqual({ bytes: 0, tables: {} });
  });
});
