/**
 * `npm start --runtime wrangler` binds what the default runtime binds (src/cli/wrangler-vars.ts): `.dev.vars`,
 * or `.env` / `.env.local` without it, read as wrangler dev reads them, under the environment's `[vars]` and npm
 * start's own; the banner names only the keys set to a non-empty value. Each env file it writes is read back
 * by wrangler's own reader (the one `--env-file` goes through) to exactly the values meant.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as WranglerModule from 'wrangler';
import { describe, expect, it } from 'vitest';
import { envFileLine, wranglerVarsOf } from '../../src/cli/wrangler-vars.js';
import type { WranglerVarsInput } from '../../src/cli/wrangler-vars.js';

const wrangler = createRequire(import.meta.url)('wrangler') as typeof WranglerModule;

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-wrangler-vars-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** What wrangler dev binds from an env file with `text`, given as `--env-file` (values only). */
function readBack(text: string): Record<string, unknown> {
  const dir = dirWith({ 'wrangler.toml': 'name = "t"\n', 'given.env': text });
  const read = (
    wrangler.unstable_getVarsForDev as unknown as (
      configPath: string,
      envFiles: string[],
      vars: Record<string, never>,
      env: undefined,
      silent: boolean,
    ) => Record<string, { value: unknown }>
  )(join(dir, 'wrangler.toml'), [join(dir, 'given.env')], {}, undefined, true);
  return Object.fromEntries(Object.entries(read).map(([k, v]) => [k, v.value]));
}

const BASE: Omit<WranglerVarsInput, 'dir'> = {
  declared: { LOG_LEVEL: 'warn', STALL_SECONDS: '120' },
  bindings: { LOG_LEVEL: 'info', ADMIN_TOKEN: 'admin-secret' },
  secrets: new Set(['ADMIN_TOKEN']),
  devVars: true,
  varsFromEnv: true,
  env: {},
};

describe('wranglerVarsOf', () => {
  it('reads .env and .env.local when there is no .dev.vars, and names no key left empty', () => {
    const dir = dirWith({
      '.env': 'HOST=127.0.0.1\nLLM_BASE_URL=http://$HOST:9/v1\nAPI_KEYS=\nPRICE=\\$5\nLLM_MODEL=a\n',
      '.env.local': 'LLM_MODEL=b\n',
    });
    const got = wranglerVarsOf({ ...BASE, dir });
    expect(got.fromDevVars).toEqual(['HOST', 'LLM_BASE_URL', 'PRICE', 'LLM_MODEL']);
    expect(readBack(got.envFile)).toEqual({
      HOST: '127.0.0.1',
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      API_KEYS: '',
      PRICE: '$5',
      LLM_MODEL: 'b',
      ADMIN_TOKEN: 'admin-secret',
    });
    expect(got.args).toEqual(['--var', 'LOG_LEVEL:info']);
  });

  it('reads .dev.vars as written (no expansion) and names none of its empty keys; .env is not read beside it', () => {
    const dir = dirWith({
      '.dev.vars': 'API_KEYS=\nADMIN_TOKEN="  "\nLLM_BASE_URL=http://$HOST/v1\n',
      '.env': 'LLM_MODEL=from-dot-env\n',
    });
    const got = wranglerVarsOf({ ...BASE, dir, bindings: { LOG_LEVEL: 'info' } });
    expect(got.fromDevVars).toEqual(['LLM_BASE_URL']);
    expect(readBack(got.envFile)).toEqual({ API_KEYS: '', ADMIN_TOKEN: '  ', LLM_BASE_URL: 'http://$HOST/v1' });
  });

  it("puts npm start's plain bindings and the environment's [vars] over a dev var, its secrets in the file", () => {
    const dir = dirWith({ '.dev.vars': 'LOG_LEVEL=debug\nSTALL_SECONDS=5\nADMIN_TOKEN=from-dev-vars\n' });
    const got = wranglerVarsOf({ ...BASE, dir, env: { STALL_SECONDS: '30', UNDECLARED: 'x' } });
    // The env file wins over --var in wrangler dev: a key given as --var is not in it.
    expect(readBack(got.envFile)).toEqual({ ADMIN_TOKEN: 'admin-secret' });
    expect(got.args).toEqual(['--var', 'STALL_SECONDS:30', '--var', 'LOG_LEVEL:info']);
    expect(got.fromEnv).toEqual(['STALL_SECONDS']);
    expect(got.fromDevVars).toEqual(['LOG_LEVEL', 'STALL_SECONDS', 'ADMIN_TOKEN']);
  });

  it('applies no dev var when told not to', () => {
    const dir = dirWith({ '.env': 'LLM_MODEL=a\n' });
    const got = wranglerVarsOf({ ...BASE, dir, devVars: false });
    expect(got.fromDevVars).toEqual([]);
    expect(readBack(got.envFile)).toEqual({ ADMIN_TOKEN: 'admin-secret' });
  });
});

describe('envFileLine', () => {
  it("writes values wrangler's env-file reader reads back unchanged: dollars, quotes, backslashes, line breaks", () => {
    const values = ['plain', "it's $HOME", 'a `b` "c" $X', 'x\\$y', 'two\nlines $Z', "'`", ' padded '];
    const text = values.map((v, i) => envFileLine(`K${i}`, v)).join('');
    expect(readBack(text)).toEqual(Object.fromEntries(values.map((v, i) => [`K${i}`, v])));
    expect(() => envFileLine('K', 'a\nb "c\' `d`')).toThrow('K cannot be handed to wrangler dev');
  });

  it('reads back a line and the lines after it: a value ending in `\\`, and one with every quote and a written `\\n`', () => {
    // Quoted, a value's last `\` escapes the closing quote: the value ran on into the next lines, a later key lost.
    const values = ['C:\\dir\\', '#fff', "x' #y", "it's `x` C:\\new", "a'`\\r", 'a$\\', 'last'];
    const text = values.map((v, i) => envFileLine(`K${i}`, v)).join('');
    expect(readBack(text)).toEqual(Object.fromEntries(values.map((v, i) => [`K${i}`, v])));
  });

  it('refuses, naming the key, a value no env-file line reads back as', () => {
    for (const value of ["'`\\n", ' C:\\dir\\', 'q\'`"#', 'two\nlines\\'])
      expect(() => envFileLine('SECRET', value)).toThrow(
        /^SECRET cannot be handed to wrangler dev: no env-file line reads back as its value/,
      );
  });
});
