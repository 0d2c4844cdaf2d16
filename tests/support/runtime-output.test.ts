/**
 * A quiet `npm test`: the root config shows a test's console only when it fails, and workerd's own lines go to
 * a file, never a failure's report, a test's logs or vitest's summary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { divertRuntimeOutput, isRuntimeOutput } from './runtime-output.js';

const WORKERD = [
  'exception = workerd/api/web-socket.c++:821: disconnected: WebSocket peer disconnected\n',
  'workerd/io/worker.c++:2219: info: uncaught exception; source = Uncaught (in promise); stack = Error: boom\n    at run (index.js:1:1)\n',
  'kj/async-io-unix.c++:186: warning: something\n',
  "Error sending to pool: TypeError: Can't call WebSocket send() after close().\n",
];
const KEPT = [
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

  it('writes the report and the logs through, and workerd lines to the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tribunal-runtime-output-')), 'runtime.log');
    writeFileSync(file, '');
    const terminal: string[] = [];
    const stream = { write: (chunk: unknown): boolean => terminal.push(String(chunk)) > 0 };
    const lines = divertRuntimeOutput([stream], file);
    for (const chunk of [...WORKERD, ...KEPT]) stream.write(chunk);
    stream.write(Buffer.from(WORKERD[0] ?? ''));
    expect(terminal).toEqual(KEPT);
    expect(readFileSync(file, 'utf8')).toBe([...WORKERD, WORKERD[0]].join(''));
    expect(lines()).toBe(6);
  });
});
