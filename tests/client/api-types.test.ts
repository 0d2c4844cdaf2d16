/**
 * The client's types are the API's: src/client/api-types.ts must be what `npm run client:types` generates
 * from the current OpenAPI document, so a route added or changed without regenerating fails here (as
 * `npm run types:check` does for the Worker's bindings).
 *
 * The package script's two commands run in this process (tests/support/cli-in-process.ts: each CLI's own entry
 * code, its stdout captured as the shell's redirection would write it). As two `node --import tsx` processes
 * they cost ~10 CPU-s (the app and openapi-typescript loaded and transformed anew, under a shell); here the
 * app's modules are this process's. The script's text is pinned below, so what runs is what it runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/cli/worker-bundle.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { TEST_MS } from '../support/patience.js';

const COMMITTED = 'src/client/api-types.ts';

/**
 * `npm run client:types`: the document printed to a file, then the types written from it. Groups: the printing
 * CLI, the document's path, the generating CLI.
 */
const SCRIPT =
  /^node --import tsx (\S+\.ts) > ("\$\{TMPDIR:-\/tmp\}\/[\w.-]+\.json") && node --import tsx (\S+\.ts) --document \2 --output (\S+)$/;

describe("the client's generated types", () => {
  it(
    'are up to date with the routes (else: npm run client:types)',
    async () => {
      const scripts = (
        JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
      ).scripts;
      const [, printer = '', , generator = '', output] = SCRIPT.exec(scripts['client:types'] ?? '') ?? [];
      expect(output).toBe(COMMITTED);
      const dir = mkdtempSync(join(tmpdir(), 'tribunal-client-types-'));
      const document = join(dir, 'openapi.json');
      const out = join(dir, 'api-types.ts');

      const printed = await runCliInProcess(join(REPO_ROOT, printer), []);
      expect({ code: printed.code, stderr: printed.stderr }).toEqual({ code: 0, stderr: '' });
      writeFileSync(document, printed.stdout);
      // The generator, writing elsewhere.
      const generated = await runCliInProcess(join(REPO_ROOT, generator), ['--document', document, '--output', out]);
      expect(generated).toEqual({ code: 0, stdout: '', stderr: '' });

      const fresh = readFileSync(out, 'utf8');
      expect(fresh.length).toBeGreaterThan(10_000);
      expect(
        readFileSync(join(REPO_ROOT, COMMITTED), 'utf8') === fresh,
        `${COMMITTED} is stale: run npm run client:types`,
      ).toBe(true);
    },
    TEST_MS,
  );
});
