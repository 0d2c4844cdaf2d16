/**
 * One configuration: wrangler.toml's `[vars]`, the table in src/config/vars.ts and the README's table list
 * the same variables with the same defaults (and the README the same units and secrets), and the queues
 * wrangler.toml binds are the ones the Worker's router serves. A value the table refuses is named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readWranglerConfig } from '../../src/cli/wrangler-config.js';
import { ConfigError, configOf, SECRETS, VARS } from '../../src/config/vars.js';
import { ROOT } from './import-graph.js';

/** The rows of the README's configuration table: name → default (as written) and unit. */
function readmeTable(): Map<string, { default: string; unit: string }> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  const rows = new Map<string, { default: string; unit: string }>();
  for (const m of section.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \| ([^|]+) \|/gm)) {
    const [, name, dflt, unit] = m;
    if (name === undefined || dflt === undefined || unit === undefined) continue;
    rows.set(name, {
      default: dflt
        .trim()
        .replace(/^`(.*)`$/, '$1')
        .replace('(empty)', ''),
      unit: unit.trim(),
    });
  }
  return rows;
}

describe('the configuration', () => {
  const wrangler = readWranglerConfig({ config: join(ROOT, 'wrangler.toml') });

  it("wrangler.toml's [vars] are the table's variables, with the table's defaults", () => {
    const vars = Object.fromEntries(Object.entries(wrangler.vars).map(([k, v]) => [k, String(v)]));
    expect(vars).toEqual(Object.fromEntries(Object.entries(VARS).map(([k, v]) => [k, v.default])));
    // Secrets are never in wrangler.toml.
    for (const secret of Object.keys(SECRETS)) expect(Object.keys(vars)).not.toContain(secret);
  });

  it("the README's table lists every variable and secret with the table's default and unit", () => {
    const rows = readmeTable();
    expect(rows.size).toBeGreaterThan(20);
    const expected = new Map([
      ...Object.entries(VARS).map(([k, v]): [string, { default: string; unit: string }] => [
        k,
        { default: v.default, unit: v.unit },
      ]),
      ...Object.keys(SECRETS).map((k): [string, { default: string; unit: string }] => [
        k,
        { default: '(secret)', unit: 'text' },
      ]),
    ]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(expected));
  });

  it('the queues wrangler.toml has the Worker consume are the ones its router serves', () => {
    const consumed = (wrangler.queues.consumers ?? []).map((c) => c.queue).sort();
    expect(consumed.length).toBe(8);
    // The router's table names each queue by a constant declared beside its consumer (Worker code, read as text).
    const router = readFileSync(join(ROOT, 'queues/router.ts'), 'utf8');
    const table = router.slice(
      router.indexOf('QUEUE_CONSUMERS'),
      router.indexOf('};', router.indexOf('QUEUE_CONSUMERS')),
    );
    const constants = [...table.matchAll(/\[([A-Z_]+)\]: handle/g)].map((m) => m[1]);
    const declared = new Map<string, string>();
    for (const file of [
      'queues/jobs.ts',
      'queues/jobs-dead-letter.ts',
      'queues/batch-fanout.ts',
      'src/webhooks/dispatch.ts',
      'src/traces/ingest.ts',
      'queues/spans.ts',
      'queues/maintenance.ts',
    ])
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/export const ([A-Z_]+) = '([a-z-]+)';/g))
        if (m[1] !== undefined && m[2] !== undefined) declared.set(m[1], m[2]);
    expect(constants.map((c) => declared.get(c ?? '')).sort()).toEqual(consumed);
  });

  it('parses once per environment object and per set of values; defaults fill the unset and the empty; an invalid value is named', () => {
    const env = { STALL_SECONDS: '30', FAST_START: '', LLM_SUPPORTS_N: 'TRUE', API_KEYS: ' AB , ,cd ' };
    const c = configOf(env);
    expect(configOf(env)).toBe(c);
    // Every Durable Object instance gets its own environment object with the same values: parsed once too.
    expect(configOf({ ...env })).toBe(c);
    expect(configOf({ ...env, STALL_SECONDS: '31' })).not.toBe(c);
    expect(c).toMatchObject({ STALL_SECONDS: 30, FAST_START: true, LLM_SUPPORTS_N: true, BATCH_CONCURRENCY: 16 });
    expect(c.API_KEYS).toEqual(['ab', 'cd']);
    expect(c.ADMIN_TOKEN).toBeUndefined();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const bad = { BATCH_CONCURRENCY: '5000', ALLOW_BYOK: 'yes', STALL_SECONDS: '30' };
      expect(() => configOf(bad)).toThrow(ConfigError);
      expect(() => configOf(bad)).toThrow(ConfigError);
      // One line, once, naming each invalid variable and its value.
      expect(logged).toHaveBeenCalledTimes(1);
      const line = JSON.parse(String(logged.mock.calls[0]?.[0])) as { event: string; invalid: string };
      expect(line.event).toBe('config.invalid');
      expect(line.invalid).toContain('BATCH_CONCURRENCY="5000": must be at most 1000');
      expect(line.invalid).toContain('ALLOW_BYOK="yes": must be "true" or "false"');
      expect(line.invalid).not.toContain('STALL_SECONDS');
    } finally {
      logged.mockRestore();
    }
  });

  it("refuses more webhook attempts at once per receiver than a lane's one invocation has connections (6)", () => {
    expect(configOf({}).WEBHOOK_CONCURRENCY).toBe(6);
    expect(configOf({ WEBHOOK_CONCURRENCY: '6' }).WEBHOOK_CONCURRENCY).toBe(6);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => configOf({ WEBHOOK_CONCURRENCY: '32' })).toThrow(ConfigError);
      expect(String(logged.mock.calls[0]?.[0])).toContain('WEBHOOK_CONCURRENCY=\\"32\\": must be at most 6');
    } finally {
      logged.mockRestore();
    }
  });
});
