/**
 * The local runtime's floor for `bench:peers`: a Worker that does nothing but forward each POST body to the
 * mock's `/chat/completions` and stream the answer back, on the same workerd (Miniflare's API, the same
 * compatibility date) as Tribunal's local stack, in its own process group so its CPU is measured apart.
 * No Tribunal code runs in it: what it costs per item is what one HTTP hop through the local runtime and
 * one outbound call cost, before any validation, persistence or judging. Its answers leave marked
 * `Content-Encoding: identity`, as Tribunal's local runtime marks the Worker's (src/cli/worker-options.ts
 * `localEntryModule`), so neither side pays Miniflare's emulated gzip and the floor stays the same runtime.
 *
 * Run as a script it prints `FORWARD_URL=<url>` once it serves; {@link startForwardProcess} spawns it. With an
 * inspector port, workerd's V8 inspector listens there (`bench:peers`' split of its CPU by isolate). The `bare`
 * variant serves ./bare-worker.ts instead: the same forward with the architecture's minimum of persistence.
 */
import { join } from 'node:path';
import { isMain } from '../src/cli/args.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { Miniflare } from '../src/cli/worker-options.js';
import { readWranglerConfig } from '../src/cli/wrangler-config.js';
import type { ServingChild } from './serving-child.js';
import { BARE_SCRIPT, bareOptions } from './bare-worker.js';
import { benchStateDir } from './state-dir.js';
import { startServingChild } from './serving-child.js';

/** The forwarding Worker (an ES module): the mock's base URL comes in as the `TARGET` binding. */
const SCRIPT = `export default {
  async fetch(request, env) {
    const answer = await fetch(env.TARGET + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body: await request.text(),
    });
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
  },
};`;

/** Which Worker {@link startForwardProcess} serves: `forward` (this file's) or `bare` (./bare-worker.ts). */
export type ForwardVariant = 'forward' | 'bare';

/**
 * Starts the forwarding Worker (or its `bare` variant) in front of the mock at `mockBaseUrl` (`…/v1`); resolves
 * once it serves. Its `url` takes an OpenAI chat-completions body; its process group holds its Node side and
 * workerd.
 */
export function startForwardProcess(
  mockBaseUrl: string,
  inspectorPort?: number,
  variant: ForwardVariant = 'forward',
): Promise<ServingChild> {
  const args = ['bench/forward-worker.ts', mockBaseUrl, String(inspectorPort ?? ''), variant];
  return startServingChild(args, /FORWARD_URL=(\S+)/, `the ${variant} Worker`);
}

async function serve(target: string, inspectorPort: number | undefined, variant: ForwardVariant): Promise<void> {
  const { compatibility_date: compatibilityDate } = readWranglerConfig({ config: join(REPO_ROOT, 'wrangler.toml') });
  const mf = new Miniflare({
    modules: true,
    script: variant === 'bare' ? BARE_SCRIPT : SCRIPT,
    bindings: { TARGET: target },
    ...(variant === 'bare' ? bareOptions(benchStateDir('tribunal-bare-')) : {}),
    host: '127.0.0.1',
    port: 0,
    compatibilityDate,
    ...(inspectorPort === undefined ? {} : { inspectorPort }),
  });
  const url = await mf.ready;
  process.stdout.write(`FORWARD_URL=${url.origin}\n`);
  const end = () => {
    void mf.dispose().finally(() => process.exit(0));
  };
  process.on('SIGTERM', end);
  process.on('SIGINT', end);
}

if (isMain(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    process.stderr.write(
      'usage: node --import tsx bench/forward-worker.ts <mock base URL> [inspector port] [forward|bare]\n',
    );
    process.exit(2);
  }
  const port = process.argv[3] ? Number(process.argv[3]) : undefined;
  await serve(target, port, process.argv[4] === 'bare' ? 'bare' : 'forward');
}
