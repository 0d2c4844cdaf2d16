/**
 * @module
 * A Worker bundled beforehand, handed to `npm start` and the runner through the environment: a test and CI
 * hook. With `TRIBUNAL_PREPARED_WORKER` naming a folder that `prepareWorker` (./local-stack.ts) filled and
 * {@link writePreparedWorker} described, a local stack serves that bundle and that reading of wrangler.toml
 * instead of bundling the Worker again (`wrangler deploy --dry-run` with the assets' build, about 7 CPU-s)
 * and reading wrangler.toml again: a start then costs the runtime's boot only. The e2e tests' global setup
 * sets it for every `npm start` and runner they run; a developer has no reason to (a change to the sources
 * is not in a bundle made before it). Node only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { WorkerSetup } from './worker-options.js';

/** The environment variable naming a prepared Worker's folder. */
export const PREPARED_WORKER_ENV = 'TRIBUNAL_PREPARED_WORKER';

/** The file in that folder describing what is there. */
const MANIFEST = 'prepared.json';

/** A Worker bundled and its wrangler.toml read once (local-stack names it `PreparedWorker`). */
export interface PreparedFiles {
  /** Entry module of the bundle. */
  entry: string;
  /** wrangler.toml as the runtime starts from it. */
  setup: WorkerSetup;
  /** The runtime child's module. */
  runtime: string;
}

/** The manifest as written: the setup is wrangler's own reading, checked here for its name only. */
const ManifestSchema = z.object({
  entry: z.string().min(1),
  runtime: z.string().min(1),
  setup: z.looseObject({ name: z.string() }),
});

/** Describes `prepared` (made in `dir`) in `dir`, for {@link preparedWorkerFrom}. */
export function writePreparedWorker(dir: string, prepared: PreparedFiles): void {
  writeFileSync(join(dir, MANIFEST), JSON.stringify(prepared));
}

/**
 * The prepared Worker `env` names ({@link PREPARED_WORKER_ENV}), or undefined when it names none. Throws,
 * naming the variable, when the folder holds no readable manifest or its files are gone.
 */
export function preparedWorkerFrom(env: NodeJS.ProcessEnv = process.env): PreparedFiles | undefined {
  const dir = env[PREPARED_WORKER_ENV];
  if (dir === undefined || dir === '') return undefined;
  let parsed: z.infer<typeof ManifestSchema>;
  try {
    parsed = ManifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
  } catch (e) {
    throw new Error(
      `${PREPARED_WORKER_ENV}=${dir} names no prepared Worker (${MANIFEST}: ${e instanceof Error ? e.message : String(e)}); unset it to bundle the Worker now`,
    );
  }
  for (const file of [parsed.entry, parsed.runtime])
    if (!existsSync(file))
      throw new Error(`${PREPARED_WORKER_ENV}=${dir}: ${file} is gone; unset it to bundle the Worker now`);
  return { entry: parsed.entry, runtime: parsed.runtime, setup: parsed.setup as unknown as WorkerSetup };
}
