/**
 * The client's types are the API's: src/client/api-types.ts must be what `npm run client:types` generates
 * from the current OpenAPI document, so a route added or changed without regenerating fails here (as
 * `npm run types:check` does for the Worker's bindings).
 *
 * The package script's two commands run in this process (tests/support/cli-in-process.ts: each CLI's own entry
 * code, its stdout captured as the shell's redirection would write it). As two `node --import tsx` processes
 * they cost ~10 CPU-s (the app and openapi-typescript loaded and transformed anew, under a shell); here the
 * app's modules are this process's. The script's text is pinned below, so what runs is what it runs.
 *
 * The generator's answer is kept on disk by its inputs, as vitest keeps its transforms (`fsModuleCache`): the
 * key hashes the document and everything else the output depends on (the generator's source, package-lock.json
 * for openapi-typescript's and TypeScript's versions, Node's version), the value is the output's sha256. A run
 * whose document is unchanged then compares the committed file's hash with it instead of loading and running
 * openapi-typescript again (~3.6 of this file's ~6 CPU-s); a changed route, an upgrade or a fresh checkout (CI)
 * misses and generates as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/cli/worker-bundle.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { TEST_MS } from '../support/patience.js';

const COMMITTED = 'src/client/api-types.ts';
/** The generator's outputs by their inputs' hash (git-ignored with node_modules; deleting it only costs a run). */
const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'tribunal-client-types');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Everything but the document that the generator's output depends on: its source and its packages' versions. */
function generatorInputs(generator: string): string[] {
  const source = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
  return [source(generator), source('src/cli/args.ts'), source('package-lock.json'), process.version];
}

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
      const key = join(CACHE, sha256(JSON.stringify([printed.stdout, ...generatorInputs(generator)])));
      // An entry that is not a whole hash (a write cut short) is a miss, not a lasting "stale".
      const cached = existsSync(key) ? readFileSync(key, 'utf8') : '';
      let freshHash = /^[0-9a-f]{64}$/.test(cached) ? cached : undefined;
      if (freshHash === undefined) {
        writeFileSync(document, printed.stdout);
        // The generator, writing elsewhere.
        const generated = await runCliInProcess(join(REPO_ROOT, generator), ['--document', document, '--output', out]);
        expect(generated).toEqual({ code: 0, stdout: '', stderr: '' });
        const fresh = readFileSync(out, 'utf8');
        expect(fresh.length).toBeGreaterThan(10_000);
        freshHash = sha256(fresh);
        mkdirSync(CACHE, { recursive: true });
        writeFileSync(key, freshHash);
      }

      expect(
        sha256(readFileSync(join(REPO_ROOT, COMMITTED), 'utf8')) === freshHash,
        `${COMMITTED} is stale: run npm run client:types`,
      ).toBe(true);
    },
    TEST_MS,
  );
});
