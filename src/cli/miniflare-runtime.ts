/**
 * @module
 * The local runtime without `wrangler dev`: the deployed Worker bundle (`wrangler deploy --dry-run`
 * output) on Miniflare's API directly, with the D1, Queues, Durable Objects and vars that wrangler.toml
 * declares (read through wrangler's own `unstable_getMiniflareWorkerOptions` by the parent, so nothing is
 * configured twice and this process never imports wrangler). No proxy worker, no file watcher, no
 * per-request log line unless asked.
 *
 * Runs as a child process of the local stack (src/cli/local-stack.ts), which owns its process group:
 * it gets {@link RuntimeConfig} over IPC, applies the D1 migrations on its one Miniflare instance before
 * the Worker runs unless the state's marker says they are in (./local-migrations.ts: then workerd starts once), answers `ready` (or `failed`), reloads a rebuilt bundle on
 * `reload`, reads an ended evaluation or batch on `describe` (the crons need it not: the parent fires them
 * over HTTP, ./cron.ts), and ends with its workerd on SIGTERM/SIGINT or when the parent goes away. On `dispose`
 * it stops the Worker alone and waits for another `start`: a stack that stops hands the process, Miniflare
 * loaded, to its parent's next stack (`reuseRuntime`, ./local-runtimes.ts). Node only.
 */
import type { Readable } from 'node:stream';
import { isMain } from './args.js';
import type { Described, EndedRef } from './ended.js';
import { readEnded } from './ended.js';
import { bucketOfId, shardOfBucket } from '../config/d1-buckets.js';
import { startOnMigratedState } from './local-migrations.js';
import { d1ReaderOver, localOpsSecret, localOpsUrl, withLocalOps } from './local-ops.js';
import type { MiniflareInstance, MiniflareOptions, RuntimeConfig, WorkerSetup } from './worker-options.js';
import { miniflareOptionsOf } from './worker-options.js';

/** Parent → runtime. */
export type RuntimeRequest =
  | { type: 'start'; config: RuntimeConfig }
  /** Serve a rebuilt bundle, with wrangler.toml as read again. */
  | { type: 'reload'; scriptPath: string; worker: WorkerSetup }
  /** Read an ended evaluation or batch from the local D1 (npm start's terminal lines, ./ended.ts). */
  | { type: 'describe'; requestId: number; ref: EndedRef }
  /** Stop the Worker (workerd exits) and wait for the next `start`: the process is kept for another stack. */
  | { type: 'dispose' };

/** Runtime → parent. */
export type RuntimeReply =
  | { type: 'ready'; url: string; crons: string[]; fromEnv: string[]; fromDevVars: string[] }
  | { type: 'failed'; message: string }
  | { type: 'reloaded' }
  | { type: 'reload-failed'; message: string }
  /** workerd has exited; the next request may be a `start`. */
  | { type: 'disposed' }
  /** The answer to `describe` (null when it could not be read). */
  | { type: 'described'; requestId: number; described: Described | null };

/**
 * Reads `ref` in the D1 database that holds it: the shard its id names first (src/config/d1-shards.ts), then
 * the others (an id made before the shards, or the single-database layout).
 */
async function describeInAny(
  ops: string,
  secret: string,
  bindings: readonly string[],
  ref: EndedRef,
): Promise<Described | null> {
  const shards = bindings.filter((b) => /^DB_\d{2}$/.test(b)).sort();
  const bucket = bucketOfId('batchId' in ref ? ref.batchId : ref.evaluationId);
  const first = bucket === null ? undefined : shards[shardOfBucket(bucket, shards.length)];
  let last: Described | null = null;
  for (const binding of [...(first ? [first] : []), ...bindings.filter((b) => b !== first)]) {
    last = await readEnded(d1ReaderOver(ops, secret, binding), ref);
    if (last.evaluation || last.batch) return last;
  }
  return last;
}

function reply(message: RuntimeReply): void {
  process.send?.(message);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * workerd's output, passed on as it comes (bytes, not lines through `console`): its pipes are drained
 * whenever this process's event loop runs, which nothing here ever holds up waiting on workerd
 * (./local-ops.ts says why that matters).
 */
function passOutput(stdout: Readable, stderr: Readable): void {
  stdout.pipe(process.stdout);
  stderr.pipe(process.stderr);
}

/** Serves the Worker until told to stop; see the module comment for the protocol. */
function serve(): void {
  let mf: MiniflareInstance | undefined;
  let current: RuntimeConfig | undefined;
  // The terminal's reads go to workerd over HTTP (./local-ops.ts), never through Miniflare's proxy.
  const secret = localOpsSecret();
  /** The helper Worker's origin, once started. */
  let ops: string | undefined;
  const optionsOf = (config: RuntimeConfig): MiniflareOptions => ({
    ...withLocalOps(miniflareOptionsOf(config).options, secret),
    handleRuntimeStdio: passOutput,
  });
  let ending = false;
  const end = (code: number) => {
    if (ending) return;
    ending = true;
    void (mf?.dispose() ?? Promise.resolve()).finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => {
    end(0);
  });
  process.on('SIGINT', () => {
    end(0);
  });
  // The parent went away without stopping us: do not outlive it.
  process.on('disconnect', () => {
    end(0);
  });
  process.on('message', (request: RuntimeRequest) => {
    void (async () => {
      if (request.type === 'start') {
        try {
          current = request.config;
          const { options, crons, fromEnv, fromDevVars } = miniflareOptionsOf(current);
          // Unless the state's marker says it holds these migrations for this shard count: D1 alone first,
          // migrated, then the Worker on the same instance (an alarm left in the state may fire as soon as the
          // Worker runs, and must find its tables). A state written with fewer shards (one database) moves
          // into its tenants' shards before anything reads it.
          const started = await startOnMigratedState(options, current.worker.d1, optionsOf(current), {
            handleRuntimeStdio: passOutput,
          });
          mf = started.mf;
          const moved = started.carried?.moved ?? {};
          if (Object.keys(moved).length > 0)
            process.stdout.write(`D1 carried over into the shards: ${JSON.stringify(moved)}\n`);
          const url = (await mf.ready).origin;
          ops = await localOpsUrl(mf);
          reply({ type: 'ready', url, crons, fromEnv, fromDevVars });
        } catch (e) {
          reply({ type: 'failed', message: messageOf(e) });
          end(1);
        }
      } else if (request.type === 'describe') {
        let described: Described | null = null;
        try {
          if (ops)
            described = await describeInAny(
              ops,
              secret,
              current?.worker.d1.map((d) => d.binding) ?? ['DB'],
              request.ref,
            );
        } catch {
          // The runtime is stopping, or the state predates a column: the terminal line says less.
        }
        reply({ type: 'described', requestId: request.requestId, described });
      } else if (request.type === 'dispose') {
        const running = mf;
        mf = undefined;
        current = undefined;
        ops = undefined;
        try {
          // Resolves once workerd has exited (Miniflare SIGKILLs it, as a stop's SIGTERM to the group ended it).
          await running?.dispose();
          reply({ type: 'disposed' });
        } catch (e) {
          reply({ type: 'failed', message: messageOf(e) });
          end(1);
        }
      } else if (current && mf) {
        try {
          current = { ...current, scriptPath: request.scriptPath, worker: request.worker };
          await mf.setOptions(optionsOf(current));
          ops = await localOpsUrl(mf);
          reply({ type: 'reloaded' });
        } catch (e) {
          reply({ type: 'reload-failed', message: messageOf(e) });
        }
      }
    })();
  });
}

if (isMain(import.meta.url) && process.send) serve();
