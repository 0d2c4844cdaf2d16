/**
 * `npm run bench:scale-model`: replays the per-verdict footprint `npm run bench:capacity` measured (the committed
 * bench/capacity-footprint.json, which `bench:capacity -- --reference` rewrites, or `--footprint FILE`) at a load
 * (default 10M verdicts a day, 10× peaks, a year of retention) against Cloudflare's limits, for the layout as
 * built at its defaults, the one-database layout before it and the target (bench/scale-limits.ts), and prints per
 * limit the use at the peak, its share, the verdicts per day at which it binds and the days of retention each
 * store holds, then the binding limit; then the D1 partitioning options side by side. docs/scale.md reads the
 * tables.
 *
 * ```
 * npm run bench:scale-model -- [--preset chateval-faireval] [--verdicts-per-day 10000000] [--peak 10]
 *   [--retention-days 365] [--d1-databases 64] [--d1-key hash|tenant] [--d1-hot-days 30] [--footprint FILE]
 * ```
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { intOption, isMain, runCli, UsageError } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import type { CapacityFootprint, PresetFootprint } from './capacity-footprint.js';
import { CAPACITY_FOOTPRINT_PATH } from './capacity-footprint.js';
import type { LimitRow } from './scale-limits.js';
import type { Layout, Load } from './scale-layouts.js';
import { bindingRow, GATE_SLOTS_PER_SHARD, limitRows } from './scale-limits.js';
import { AS_BUILT, DEFAULT_LOAD, TARGET, TODAY } from './scale-layouts.js';
import { fromWorkingDir } from './working-dir.js';

const CLI = {
  usage: `usage: npm run bench:scale-model -- [options]

Today's layout and the target against Cloudflare's limits at a load, from a measured per-verdict footprint.

  --preset P              the preset whose footprint is replayed (default chateval-faireval)
  --verdicts-per-day N    default 10000000
  --peak K                peak over the mean (default 10)
  --retention-days D      default 365
  --d1-databases N        the target's D1 databases (default 64)
  --d1-key K              the target's partition key: hash, tenant or tenant-hash (default hash)
  --d1-hot-days D         days the target's D1 keeps before the archive (default 30)
  --spread K              as built: D1 databases the largest tenant is spread over (its limits.spread; default 64)
  --footprint FILE        default ${CAPACITY_FOOTPRINT_PATH}
  -h, --help              this text`,
  options: {
    preset: { type: 'string', default: 'chateval-faireval' },
    'verdicts-per-day': { type: 'string', default: '10000000' },
    peak: { type: 'string', default: '10' },
    'retention-days': { type: 'string', default: '365' },
    'd1-databases': { type: 'string', default: '64' },
    'd1-key': { type: 'string', default: 'hash' },
    'd1-hot-days': { type: 'string', default: '30' },
    spread: { type: 'string', default: '64' },
    footprint: { type: 'string', default: CAPACITY_FOOTPRINT_PATH },
  },
} as const satisfies CliSpec<CliOptions>;

const ROOT = new URL('..', import.meta.url).pathname;

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;

function num(x: number): string {
  if (!Number.isFinite(x)) return 'never';
  if (x >= 1e9) return `${(x / 1e9).toFixed(1)}G`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(1)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)}k`;
  return x >= 10 ? x.toFixed(0) : x.toFixed(2);
}

function days(d: number | undefined): string {
  if (d === undefined) return '';
  if (!Number.isFinite(d)) return 'unlimited';
  if (d < 1) return `${(d * 24).toFixed(1)} h`;
  return `${d.toFixed(d < 10 ? 1 : 0)} d`;
}

/** The table of one layout's rows; a share past 50% is marked, a cap the code keeps is said. */
function layoutTable(rows: readonly LimitRow[]): string {
  const binding = bindingRow(rows);
  const over = rows.filter((r) => !r.cap && r.share > 0.5);
  return [
    '| store | limit | use at the peak | share | binds at (verdicts/day) | retention held | note |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.store} | ${r.limit} | ${num(r.atPeak)} | ${pct(r.share)}${r.share > 0.5 ? (r.cap ? ' (a cap)' : ' **over 50%**') : ''} | ${num(r.bindsAt)} | ${days(r.retentionDays)} | ${r.note} |`,
    ),
    '',
    binding
      ? `Binding limit: ${binding.store}, ${binding.limit}: ${pct(binding.share)} (reaches 50% at ${num(binding.bindsAt / 2)} verdicts/day). ${over.length === 0 ? 'Nothing past 50%.' : `${over.length} past 50%.`}`
      : '',
  ].join('\n');
}

/**
 * The D1 partitioning options the model compares, each with its label, from the target and as-built layouts
 * given (`--d1-databases`, `--d1-hot-days`, `--spread`): every label names the figures its row is computed with.
 */
export function d1OptionRows(target: Layout['d1'], asBuilt: Layout['d1']): [string, Layout['d1']][] {
  const n = target.databases;
  const kept = (hotDays: number | null) => (hotDays === null ? 'a year in D1' : `${hotDays} days + archive`);
  const hot = kept(target.hotDays);
  const built = `${asBuilt.databases} tenant-hashed databases`;
  const spread = Math.min(asBuilt.largestTenantSpread ?? 1, asBuilt.databases);
  return [
    ['one database (today)', TODAY.d1],
    ['one database, thin index (1 KB, 8 rows), no archive', { ...target, databases: 1, hotDays: null }],
    [`one database per tenant, thin index, ${hot}`, { ...target, key: 'tenant', databases: 1_000 }],
    [`16 hashed databases, thin index, ${hot}`, { ...target, key: 'hash', databases: 16 }],
    [`${n} hashed databases, thin index, ${hot}`, { ...target, key: 'hash' }],
    [`${n} hashed databases, thin index, a year in D1`, { ...target, key: 'hash', hotDays: null }],
    [
      `as built: ${built}, the largest tenant spread over ${spread}, measured footprint, ARCHIVE_AFTER_DAYS in D1`,
      asBuilt,
    ],
    [
      `${built}, each tenant whole in one (spread 1), measured footprint, ARCHIVE_AFTER_DAYS in D1`,
      { ...asBuilt, largestTenantSpread: 1 },
    ],
    [
      `${built}, the largest tenant spread over ${Math.min(8, asBuilt.databases)}, measured footprint, ARCHIVE_AFTER_DAYS in D1`,
      { ...asBuilt, largestTenantSpread: 8 },
    ],
    [`${built}, measured footprint, no archive`, { ...asBuilt, hotDays: null }],
    [`${n} tenant-hashed databases (spread 1), thin index, ${hot}`, { ...target, key: 'tenant-hash' }],
    [
      `${n} tenant-hashed databases (spread 1), thin index, 7 days + archive`,
      { ...target, key: 'tenant-hash', hotDays: 7 },
    ],
    [
      `${n} tenant-hashed databases, the largest tenant spread over ${n}, thin index, ${hot}`,
      { ...target, key: 'tenant-hash', largestTenantSpread: n },
    ],
  ];
}

/** The D1 partitioning options side by side ({@link d1OptionRows}): size, busy time and retention of the busiest database. */
function d1Options(f: PresetFootprint, load: Load, target: Layout['d1'], asBuilt: Layout['d1']): string {
  const options = d1OptionRows(target, asBuilt);
  const rows = options.map(([name, d1]) => {
    const r = limitRows(f, load, { ...TARGET, d1 }).filter((x) => x.store === 'D1');
    const worst = Math.max(...r.map((x) => x.share));
    const cell = (i: number) => pct(r[i]?.share ?? 0);
    return `| ${name} | ${cell(0)} | ${cell(1)} | ${cell(2)} | ${days(r[0]?.retentionDays)} | ${worst <= 0.5 ? 'yes' : 'no'} |`;
  });
  return [
    '| D1 layout | busiest database, of 10 GB | account, of 1 TB | busiest database, busy | one database holds | all under 50% |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function main(values: CliValues<typeof CLI.options>): number {
  // The default is the repository's committed footprint; a path given is read from where the command was run.
  const file =
    values.footprint === CAPACITY_FOOTPRINT_PATH ? join(ROOT, values.footprint) : fromWorkingDir(values.footprint);
  const footprint = JSON.parse(readFileSync(file, 'utf8')) as CapacityFootprint;
  const f = footprint.presets[values.preset];
  if (!f)
    throw new UsageError(
      `--preset: ${values.preset} is not in ${values.footprint} (it has ${Object.keys(footprint.presets).join(', ')})`,
    );
  const key = values['d1-key'];
  if (key !== 'hash' && key !== 'tenant' && key !== 'tenant-hash')
    throw new UsageError('--d1-key: hash, tenant or tenant-hash');
  const load: Load = {
    ...DEFAULT_LOAD,
    verdictsPerDay: intOption(values['verdicts-per-day'], 'verdicts-per-day', 1) ?? DEFAULT_LOAD.verdictsPerDay,
    peak: intOption(values.peak, 'peak', 1) ?? DEFAULT_LOAD.peak,
    retentionDays: intOption(values['retention-days'], 'retention-days', 1) ?? DEFAULT_LOAD.retentionDays,
  };
  const target: Layout = {
    ...TARGET,
    d1: {
      ...TARGET.d1,
      databases: intOption(values['d1-databases'], 'd1-databases', 1) ?? TARGET.d1.databases,
      key,
      hotDays: intOption(values['d1-hot-days'], 'd1-hot-days', 1) ?? TARGET.d1.hotDays,
    },
  };
  const header = `${values.preset} footprint measured at ${footprint.commit} (${footprint.measuredAt}, ${f.items} items); load ${num(load.verdictsPerDay)} verdicts/day, peak ×${load.peak} (${num((load.verdictsPerDay / 86_400) * load.peak)} verdicts/s), ${load.retentionDays} days of retention`;
  const asBuilt: Layout = {
    ...AS_BUILT,
    d1: {
      ...AS_BUILT.d1,
      databases: target.d1.databases,
      largestTenantSpread: intOption(values.spread, 'spread', 1) ?? AS_BUILT.d1.largestTenantSpread,
    },
  };
  console.log(
    [
      header,
      '',
      `### ${AS_BUILT.name}, at the defaults: ${asBuilt.d1.databases} tenant-hashed D1 databases (each tenant in its home shard, the largest spread over ${Math.min(asBuilt.d1.largestTenantSpread ?? 1, asBuilt.d1.databases)}), the measured footprint, ${AS_BUILT.d1.hotDays} days in D1 then the archive (ARCHIVE_AFTER_DAYS), the sweeps a message per shard; gate shards, reservations, ${asBuilt.lanesPerReceiver} lanes per receiver (WEBHOOK_LANES)`,
      '',
      layoutTable(limitRows(f, load, asBuilt)),
      '',
      `### ${TODAY.name}: one D1 database, one provider gate per provider and model, one limiter take per request, no archive (the layout before the shards)`,
      '',
      layoutTable(limitRows(f, load, TODAY)),
      '',
      `### ${target.name}: ${target.d1.databases} ${{ hash: 'hashed', tenant: 'per-tenant', 'tenant-hash': 'tenant-hashed' }[target.d1.key]} D1 databases (≤ 1 KB, ≤ 8 rows per verdict, ${target.d1.hotDays ?? 'all'} days, then the archive), the sweeps a message per shard, ${TARGET.lanesPerReceiver} lanes per busy receiver, provider gate shards of ≤ ${GATE_SLOTS_PER_SHARD} slots, reservations per isolate`,
      '',
      layoutTable(limitRows(f, load, target)),
      '',
      '### D1 partitioning options (target footprint unless said)',
      '',
      d1Options(f, load, target.d1, asBuilt.d1),
    ].join('\n'),
  );
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
