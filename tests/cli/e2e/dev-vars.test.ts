/**
 * A developer's `.dev.vars` does not make `npm test` fail: in a copy of the project holding one with
 * API_KEYS (auth on) and a wrong LLM endpoint, the worker tests that hit /v1 without a token and judge
 * against the mock still pass. (The pool reads .dev.vars through wrangler; the worker project's bindings
 * undo each of its keys.) One worker test does both, through the API and the queue: the first of
 * tests/worker/api-evaluations.test.ts posts without a token (401 with .dev.vars' API_KEYS: it failed so with the
 * undo taken out of the worker config) and runs the queued job to the mock's verdict. A second file cost a second
 * runtime, ~3 CPU-s, and proved nothing more; the file's other 22 tests cost another 3 CPU-s of the nested run's 20.
 */
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, stopLeftovers } from '../../support/run-process.js';

afterAll(() => stopLeftovers());

const ROOT = new URL('../../../', import.meta.url).pathname;
/** The worker test run under .dev.vars: a POST without a token, its queued job run to a verdict by the mock. */
const TEST_NAME = 'answers 202 with links and Location, stores a queued row, and the queued job runs to a verdict';
const COPIED = [
  'src',
  // The Worker's static assets, built by npm test before the tests (wrangler checks the folder exists).
  'dist/web',
  'queues',
  'durable-objects',
  'migrations',
  'tests',
  'wrangler.toml',
  'package.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'vitest.config.ts',
  'worker-configuration.d.ts',
];

describe("a developer's .dev.vars", () => {
  it('leaves the worker tests on their own bindings', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'tribunal-devvars-project-'));
    for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(
      join(copy, '.dev.vars'),
      `API_KEYS=${'ab'.repeat(32)}\nLLM_BASE_URL=http://127.0.0.1:9/v1\nLLM_MAX_ATTEMPTS=1\n`,
    );
    // Waited on to its end (no wall-clock kill: tests/support/run-process.ts).
    const run = await runProcess(
      join(copy, 'node_modules', '.bin', 'vitest'),
      ['run', '--project', 'worker', 'tests/worker/api-evaluations.test.ts', '-t', TEST_NAME],
      // Not the outer run's timeline file (tests/support/project-times.ts): the nested run would write over it.
      { cwd: copy, env: { ...process.env, CI: 'true', NO_COLOR: '1', TRIBUNAL_TEST_TIMELINE: '' } },
    );
    const output = run.stdout + run.stderr;
    expect(output).toMatch(/Test Files\s+1 passed/);
    // Tests that would fail on .dev.vars' bindings: a 401 without a token, a verdict from the mock.
    expect(output).toMatch(/Tests\s+1 passed/);
    expect(run.code).toBe(0);
    // A whole vitest run of a worker file in a copy of the project: 177 s at load 17-20.
  }, 300_000);
});
