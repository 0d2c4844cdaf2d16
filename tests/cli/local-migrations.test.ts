/**
 * The local runtime's own D1 migrations (src/cli/local-migrations.ts) keep wrangler's books: every file
 * of migrations/ is applied once, in order, and `wrangler d1 migrations apply --local` on the same state
 * afterwards finds nothing to apply (same table, same names), so a state made by either serves the other.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLocalMigrations } from '../../src/cli/local-migrations.js';
import { REPO_ROOT, WRANGLER_ENV } from '../../src/cli/local-stack.js';

const CONFIG = join(REPO_ROOT, 'wrangler.toml');

describe('applyLocalMigrations', { timeout: 60_000 }, () => {
  it('applies each migration once, in order, and wrangler then finds nothing to apply', async () => {
    const persistTo = join(mkdtempSync(join(tmpdir(), 'tribunal-migrations-')), 'state');
    const files = readdirSync(join(REPO_ROOT, 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    expect(await applyLocalMigrations(CONFIG, persistTo)).toEqual(files);
    expect(await applyLocalMigrations(CONFIG, persistTo)).toEqual([]);

    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        join(REPO_ROOT, 'node_modules', '.bin', 'wrangler'),
        ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo],
        { cwd: REPO_ROOT, env: { ...process.env, ...WRANGLER_ENV, CI: 'true' } },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`wrangler failed:\n${stdout}\n${stderr}`));
          else resolve(stdout);
        },
      );
    });
    expect(output).toContain('No migrations to apply');
  });
});
