/**
 * The client's types are the API's: src/client/api-types.ts must be what `npm run client:types` generates
 * from the current OpenAPI document, so a route added or changed without regenerating fails here (as
 * `npm run types:check` does for the Worker's bindings).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_MS } from '../support/patience.js';
import { shellEnv } from '../support/shell.js';

const root = new URL('../../', import.meta.url).pathname;
const COMMITTED = 'src/client/api-types.ts';

function sh(command: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'sh',
      ['-c', command],
      {
        cwd: root,
        env: shellEnv({
          ...process.env,
          ...env,
          PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
        }),
        // The script compiles the routes and generates the types: over 60 s at load 21.
        timeout: TEST_MS,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} failed: ${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

describe("the client's generated types", () => {
  it(
    'are up to date with the routes (else: npm run client:types)',
    async () => {
      const scripts = (
        JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
      ).scripts;
      const script = scripts['client:types'] ?? '';
      expect(script).toContain(`--output ${COMMITTED}`);
      const dir = mkdtempSync(join(tmpdir(), 'tribunal-client-types-'));
      const out = join(dir, 'api-types.ts');
      // tsx keeps its transforms in <tmpdir>/tsx-<uid>: with TMPDIR this folder (for the script's document), both
      // runs transformed the whole app anew, ~1.7 of their ~11 CPU-s; linked, they share every other tsx run's.
      const tsxCache = join(tmpdir(), `tsx-${userInfo().uid}`);
      mkdirSync(tsxCache, { recursive: true });
      symlinkSync(tsxCache, join(dir, `tsx-${userInfo().uid}`));
      // The package script itself, writing elsewhere.
      await sh(script.replace(`--output ${COMMITTED}`, `--output ${out}`), { TMPDIR: dir });
      const fresh = readFileSync(out, 'utf8');
      expect(fresh.length).toBeGreaterThan(10_000);
      expect(
        readFileSync(join(root, COMMITTED), 'utf8') === fresh,
        `${COMMITTED} is stale: run npm run client:types`,
      ).toBe(true);
    },
    2 * TEST_MS,
  );
});
