/**
 * The prepared-Worker hook (src/cli/prepared-worker.ts): a folder described once is read back as written;
 * an unset variable bundles as before; a folder that holds no manifest, or whose bundle is gone, fails
 * naming the variable instead of starting on something else. (That `npm start` serves it:
 * tests/cli/e2e/start.test.ts reads its banner.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreparedFiles } from '../../src/cli/prepared-worker.js';
import { PREPARED_WORKER_ENV, preparedWorkerFrom, writePreparedWorker } from '../../src/cli/prepared-worker.js';
import type { WorkerSetup } from '../../src/cli/worker-options.js';

/** A folder with an entry and a runtime module, described. */
function prepared(): { dir: string; files: PreparedFiles } {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-prepared-test-'));
  const files: PreparedFiles = {
    entry: join(dir, 'index.js'),
    runtime: join(dir, 'miniflare-runtime.mjs'),
    setup: { name: 'tribunal', workerOptions: {}, vars: { A: '1' }, crons: ['* * * * *'], devVarKeys: [], d1: [] },
  };
  writeFileSync(files.entry, '');
  writeFileSync(files.runtime, '');
  writePreparedWorker(dir, files);
  return { dir, files };
}

describe('TRIBUNAL_PREPARED_WORKER', () => {
  it('reads back the Worker a folder describes, and nothing when unset or empty', () => {
    const { dir, files } = prepared();
    expect(preparedWorkerFrom({ [PREPARED_WORKER_ENV]: dir })).toEqual(files);
    expect(preparedWorkerFrom({})).toBeUndefined();
    expect(preparedWorkerFrom({ [PREPARED_WORKER_ENV]: '' })).toBeUndefined();
  });

  it('fails naming the variable for a folder without a manifest, a manifest of another shape, or a bundle gone', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tribunal-prepared-test-'));
    expect(() => preparedWorkerFrom({ [PREPARED_WORKER_ENV]: empty })).toThrow(
      new RegExp(`^${PREPARED_WORKER_ENV}=${empty} names no prepared Worker \\(prepared.json: ENOENT`),
    );
    writeFileSync(join(empty, 'prepared.json'), JSON.stringify({ entry: 'x', setup: {} as WorkerSetup }));
    expect(() => preparedWorkerFrom({ [PREPARED_WORKER_ENV]: empty })).toThrow(/names no prepared Worker.*runtime/s);
    const { dir, files } = prepared();
    rmSync(files.entry);
    expect(() => preparedWorkerFrom({ [PREPARED_WORKER_ENV]: dir })).toThrow(
      `${PREPARED_WORKER_ENV}=${dir}: ${files.entry} is gone`,
    );
  });
});
