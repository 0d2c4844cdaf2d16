/**
 * Writes docs/pricing.md, the published price sheet (bench/pricing-sheet.ts), from the price table, the
 * estimator and the platform usage `npm run bench:platform` measured (bench/platform-usage.json).
 *
 * ```
 * npm run pricing            # write docs/pricing.md
 * npm run pricing -- --check # exit 1 when docs/pricing.md is stale
 * ```
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import type { PlatformUsage } from './pricing-sheet.js';
import { PLATFORM_USAGE_PATH, renderSheet } from './pricing-sheet.js';

const CLI = {
  usage: `usage: npm run pricing -- [--check]

Writes docs/pricing.md: USD per 1,000 verdicts per preset and tier, with and without verdict cache hits,
and Cloudflare's side from bench/platform-usage.json (npm run bench:platform).

  --check      write nothing; exit 1 when docs/pricing.md differs from what would be written
  -h, --help   this text`,
  options: { check: { type: 'boolean', default: false } },
} as const satisfies CliSpec<CliOptions>;

const ROOT = new URL('..', import.meta.url).pathname;

/** Repository-relative path of the sheet. */
export const SHEET_PATH = 'docs/pricing.md';

/** The sheet as `npm run pricing` would write it now. */
export async function currentSheet(): Promise<string> {
  const platform = JSON.parse(readFileSync(join(ROOT, PLATFORM_USAGE_PATH), 'utf8')) as PlatformUsage;
  return renderSheet(platform);
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const sheet = await currentSheet();
  const path = join(ROOT, SHEET_PATH);
  if (values.check) {
    const stale = readFileSync(path, 'utf8') !== sheet;
    console.log(stale ? `${SHEET_PATH} is stale: run npm run pricing` : `${SHEET_PATH} is up to date`);
    return stale ? 1 : 0;
  }
  writeFileSync(path, sheet);
  console.log(`wrote ${SHEET_PATH}`);
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
