/**
 * What one verdict costs the platform (Cloudflare's side of docs/pricing.md), counted on a real run on the
 * local stack: the Worker is bundled from bench/metered-entry.ts (the production Worker with its bindings
 * wrapped to count Worker invocations, Durable Object requests and wall time, D1 queries and the rows D1's
 * own `meta` says each read and wrote, and queue messages). For each preset of the price sheet it judges
 * `--items` distinct tasks (each a `POST /v1/evaluations` with `Prefer: wait`, as a client waiting for its
 * verdict would), then the same tasks again (every one a verdict cache hit), and writes the per-verdict
 * figures of both rounds to bench/platform-usage.json, which `npm run pricing` reads.
 *
 * ```
 * npm run bench:platform -- [--items 20]
 * ```
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { groupCpuMs } from './proc-cpu.js';
import type { Meter } from './meter.js';
import { preparedMeteredWorker, readMeter } from './metered-build.js';
import type { PlatformUsage, VerdictFootprint } from './pricing-sheet.js';
import { PLATFORM_USAGE_PATH, SHEET_PRESETS, sheetTask } from './pricing-sheet.js';

const CLI = {
  usage: `usage: npm run bench:platform -- [options]

Cloudflare operations per verdict of each price-sheet preset, counted on the local stack (D1 rows from D1's
own meta), written to bench/platform-usage.json for npm run pricing.

  --items N    verdicts per preset and round (default 20)
  -h, --help   this text`,
  options: { items: { type: 'string', default: '20' } },
} as const satisfies CliSpec<CliOptions>;

const ROOT = new URL('..', import.meta.url).pathname;

const per = (a: Meter, b: Meter, n: number, cpuMs: number): VerdictFootprint => ({
  workerRequests: (b.workerFetches - a.workerFetches + (b.queueInvocations - a.queueInvocations)) / n,
  doRequests: (b.doRequests - a.doRequests + (b.doAlarms - a.doAlarms)) / n,
  doWallMs: (b.doWallMs - a.doWallMs) / n,
  d1RowsRead: (b.d1RowsRead - a.d1RowsRead) / n,
  d1RowsWritten: (b.d1RowsWritten - a.d1RowsWritten) / n,
  d1Queries: (b.d1Queries - a.d1Queries) / n,
  queueMessages: (b.queueMessagesSent - a.queueMessagesSent) / n,
  runtimeCpuMs: cpuMs / n,
});

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 1000) ?? 20;
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-bench-platform-'));
  const worker = await preparedMeteredWorker(dir);
  const stack = await startBenchStack({ persistTo: join(dir, 'state'), crons: false, worker });
  const usage: PlatformUsage = { measuredAt: new Date().toISOString().slice(0, 10), items: n, presets: {} };
  try {
    const meter = (): Promise<Meter> => readMeter(stack.url);
    for (const preset of SHEET_PRESETS) {
      const round = async (): Promise<VerdictFootprint> => {
        const before = await meter();
        const cpu0 = groupCpuMs(stack.runtimePid);
        for (let i = 0; i < n; i++) {
          const r = await fetch(`${stack.url}/v1/evaluations`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', prefer: 'wait=60' },
            body: JSON.stringify({ preset, task: sheetTask(preset, i) }),
          });
          const body = (await r.json()) as { status?: string };
          if (r.status !== 200 || body.status !== 'succeeded')
            throw new Error(`${preset} item ${i}: HTTP ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
        }
        // Work after the answer (webhook-free here; the final write's after-commit steps) settles first.
        await new Promise((resolve) => setTimeout(resolve, 500));
        return per(before, await meter(), n, groupCpuMs(stack.runtimePid) - cpu0);
      };
      const miss = await round();
      const hit = await round();
      usage.presets[preset] = { miss, hit };
      const fmt = (f: VerdictFootprint) =>
        `worker ${f.workerRequests.toFixed(2)}, DO ${f.doRequests.toFixed(2)} (${f.doWallMs.toFixed(0)} ms), D1 read ${f.d1RowsRead.toFixed(1)} written ${f.d1RowsWritten.toFixed(1)} (${f.d1Queries.toFixed(1)} queries), queue msgs ${f.queueMessages.toFixed(2)}, runtime CPU ${f.runtimeCpuMs.toFixed(1)} ms`;
      console.log(`${preset}\n  miss: ${fmt(miss)}\n  hit:  ${fmt(hit)}`);
    }
  } finally {
    await stack.stop();
  }
  writeFileSync(join(ROOT, PLATFORM_USAGE_PATH), `${JSON.stringify(usage, null, 2)}\n`);
  console.log(`wrote ${PLATFORM_USAGE_PATH}; run npm run pricing to regenerate docs/pricing.md`);
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
