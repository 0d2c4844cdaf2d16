/**
 * @module
 * The e2e project's first setup file (tests/vitest.e2e.config.ts): a test file starts only once the run's
 * Worker bundle and seed state are made. The global setup (./worker-bundle.ts) makes them in the background,
 * beside the node and worker projects' files, instead of before any file of the run; this file waits for them
 * on its loopback endpoint (`inject('workerReady')`), which answers when they are made, or with the error that
 * stopped them (then every e2e file fails with it). Then every stack this file starts serves that bundle
 * ({@link preparedWorker}), and so do the `npm start`s and runners it spawns: `TRIBUNAL_PREPARED_WORKER` is set
 * in this process's environment, which they inherit (src/cli/prepared-worker.ts).
 */
import { get } from 'node:http';
import { inject } from 'vitest';
import type { PreparedWorker } from '../../src/cli/worker-bundle.js';
import { PREPARED_WORKER_ENV } from '../../src/cli/prepared-worker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** GET it for the run's prepared Worker: answered once the bundle and the seed state are made. */
    workerReady: string;
  }
}

/** What the endpoint answers: the folder of the prepared Worker and what is in it. */
interface Ready {
  dir: string;
  worker: PreparedWorker;
}

/** The endpoint's answer (node:http, not fetch: the contract's setup file wraps fetch after this one). */
function ask(url: string): Promise<Ready> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        if (res.statusCode === 200) resolve(JSON.parse(body) as Ready);
        else reject(new Error(`the e2e run's Worker bundle or seed state was not made: ${body}`));
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

const ready = await ask(inject('workerReady'));
process.env[PREPARED_WORKER_ENV] = ready.dir;

/** The Worker bundle every e2e stack serves and wrangler.toml as read for it (`startLocalStack({ worker })`). */
export function preparedWorker(): PreparedWorker {
  return ready.worker;
}
