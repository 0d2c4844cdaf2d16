/**
 * A quiet `npm test`: the root config shows a test's console only when it fails, and workerd's own lines go to
 * a file, never a failure's report, a test's logs or vitest's summary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { divertRuntimeOutput, isIntendedAbort, isRuntimeOutput } from './runtime-output.js';

const WORKERD = [
  'exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\n',
  'workerd/io/worker.c++:2219: info: uncaught exception; source = Uncaught (in promise); stack = Error: boom\n    at run (index.js:1:1)\n',
  'kj/async-io-unix.c++:186: warning: something\n',
  "Error sending to pool: TypeError: Can't call WebSocket send() after close().\n",
];
/** The pool's own lines for the aborts tests make on purpose (as 0.15 writes them: no workerd source prefix). */
const ABORTS = [
  'uncaught exception; source = Uncaught (in promise); stack = Error: Application called abortAllDurableObjects().\n    at Stepper.runInline (/x/durable-objects/evaluation/step.ts:96:39)\n',
  'uncaught exception; exception = workerd/jsg/_virtual_includes/iterator/workerd/jsg/value.h:1480: failed: jsg.Error: Application called abortAllDurableObjects().\nstack: /x/workerd@2f23840 /x/workerd@2f23f00\n',
  'uncaught exception; source = Uncaught (in promise); stack = Error: test: crashed between upload and submit\n    at TestWaveCoordinatorDO.afterUpload (/x/tests/worker/test-wave-coordinator.ts:17:11)\n',
  'uncaught exception; exception = workerd/jsg/_virtual_includes/iterator/workerd/jsg/value.h:1480: failed: jsg.Error: test: crashed between upload and submit\nstack: /x/workerd@2f23840\n',
  'uncaught exception; exception = workerd/api/actor-state.c++:1142: failed: broken.outputGateBroken; jsg.Error: test: the gate object was reset\nstack: /x/workerd@2f201f0\n',
];
/** Other uncaught exceptions: the same shape, any other error (or the abort's text elsewhere than its end). */
const OTHER_EXCEPTIONS = [
  'uncaught exception; source = Uncaught (in promise); stack = Error: boom\n    at run (index.js:1:1)\n',
  'uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n',
  'uncaught exception; source = Uncaught (in promise); stack = Error: after test: crashed between upload and submit, a crash\n',
  'uncaught exception; source = Uncaught (in promise); stack = TypeError: x\n    at Error: Application called abortAllDurableObjects().\n',
];
const KEPT = [
  ...OTHER_EXCEPTIONS,
  ' ✓  worker  tests/worker/openai-client.test.ts (8 tests) 1000ms\n',
  ' FAIL  worker  tests/worker/x.test.ts > a test\n',
  'AssertionError: expected 202 to be 200\n',
  'stderr | tests/worker/x.test.ts > a test\n{"level":"error","event":"evaluation.failed"}\n',
  ' Test Files  3 passed (3)\n',
];

describe('a quiet npm test', () => {
  it("shows a test's console only when the test fails, and diverts workerd's lines, in every project", () => {
    expect(config.test?.silent).toBe('passed-only');
    expect(config.test?.reporters).toContain('./tests/support/runtime-output.ts');
  });

  it("tells workerd's own lines from vitest's report and a test's logs", () => {
    for (const line of WORKERD) expect(isRuntimeOutput(line), line).toBe(true);
    for (const line of KEPT) expect(isRuntimeOutput(line), line).toBe(false);
  });

  it('holds the uncaught exceptions of the aborts tests make on purpose, by their message, and no other', () => {
    for (const chunk of ABORTS) expect(isIntendedAbort(chunk), chunk).toBe(true);
    for (const chunk of [...WORKERD, ...KEPT]) expect(isIntendedAbort(chunk), chunk).toBe(false);
  });

  it('writes the report and the logs through, and workerd lines to the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tribunal-runtime-output-')), 'runtime.log');
    writeFileSync(file, '');
    const terminal: string[] = [];
    const stream = { write: (chunk: unknown): boolean => terminal.push(String(chunk)) > 0 };
    const lines = divertRuntimeOutput([stream], file);
    for (const chunk of [...WORKERD, ...ABORTS, ...KEPT]) stream.write(chunk);
    stream.write(Buffer.from(WORKERD[0] ?? ''));
    expect(terminal).toEqual(KEPT);
    expect(readFileSync(file, 'utf8')).toBe([...WORKERD, ...ABORTS, WORKERD[0]].join(''));
    expect(lines()).toBe(16);
  });
});
