/**
 * Which D1 database a statement goes to is decided in one place, src/config/d1-shards.ts (`tenantDb`,
 * `recordDb`, `everyTenantDb`, `controlDb`): no other Worker file reads a D1 binding itself, so a tenant's
 * rows can never land in, or be read from, another tenant's database by a feature that forgot the layout.
 * A static read of the sources, like the dependency rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SOURCE_ROOTS } from './import-graph.js';

/** The one file that may name the bindings. */
const ROUTER = 'src/config/d1-shards.ts';
/** Node-side code (the CLI, the local stack) names the binding as a string for wrangler, never reads it. */
const NOT_WORKER = ['src/cli/', 'src/mock-llm/', 'src/datasets/', 'src/web/'];

/** A read of a D1 binding: `env.DB`, `this.env.DB_03`, `env['DB']`, `{ DB } = env`. */
const BINDING_READ = /\.DB(?:_\w+)?\b|\[\s*['"]DB(?:_\w+)?['"]\s*\]|\{[^}]*\bDB(?:_\w+)?\b[^}]*\}\s*=\s*[\w.]*env\b/;

function offenders(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && path !== ROUTER && !NOT_WORKER.some((p) => path.startsWith(p))) {
        readFileSync(join(ROOT, path), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (BINDING_READ.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
          });
      }
    }
  };
  for (const root of SOURCE_ROOTS) walk(root);
  return found;
}

describe('D1 routing', () => {
  it('recognises every way of reading a binding', () => {
    for (const line of ['env.DB.prepare(x)', 'this.instance.env.DB_07', "c.env['DB']", 'const { DB } = env;'])
      expect(BINDING_READ.test(line), line).toBe(true);
    for (const line of ['tenantDb(env, tenant).prepare(x)', 'const DBX = 1;', '// the D1 database'])
      expect(BINDING_READ.test(line), line).toBe(false);
  });

  it('no Worker file but src/config/d1-shards.ts reads a D1 binding', () => {
    expect(offenders()).toEqual([]);
  });
});
