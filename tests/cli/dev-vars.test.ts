/**
 * A developer's `.dev.vars` as npm start's own settings read it (src/cli/dev-vars.ts): a provider, auth or log level
 * set there is never overridden by one of npm start's defaults (the mock, an open /v1, `LOG_LEVEL=info`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDevVars, settingsOf, sourceOf } from '../../src/cli/dev-vars.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-devvars-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('readDevVars', () => {
  it('reads .dev.vars as wrangler dev does, quotes and comments included, and leaves out empty values', () => {
    const dir = dirWith({
      '.dev.vars':
        '# provider\nLLM_BASE_URL=http://127.0.0.1:9/v1\nLLM_API_KEY="sk-dev"\nAPI_KEYS=\nADMIN_TOKEN="  "\n',
      '.env': 'LLM_MODEL=from-dot-env\n',
    });
    // .env is not read when .dev.vars exists.
    expect(readDevVars(dir, {})).toEqual({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_API_KEY: 'sk-dev' });
  });

  it('without .dev.vars reads .env then .env.local (the later wins), unless told not to; none is {}', () => {
    const dir = dirWith({ '.env': 'LLM_MODEL=a\nLOG_LEVEL=warn\n', '.env.local': 'LLM_MODEL=b\n' });
    expect(readDevVars(dir, {})).toEqual({ LLM_MODEL: 'b', LOG_LEVEL: 'warn' });
    expect(readDevVars(dir, { CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'false' })).toEqual({});
    expect(readDevVars(dirWith({}), {})).toEqual({});
    expect(readDevVars(dir, { CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'FALSE' })).toEqual({});
  });

  it('expands .env values as wrangler dev does (not .dev.vars): earlier values, defaults, the environment only when included', () => {
    const env = { OPENAI_API_KEY: 'sk-from-env' };
    const dotEnv = dirWith({
      '.env':
        'HOST=127.0.0.1\nLLM_BASE_URL=http://$HOST:${PORT:-9}/v1\nLLM_API_KEY=${OPENAI_API_KEY}\nPRICE=\\$5\nALT=${HOST:+set}\n',
    });
    expect(readDevVars(dotEnv, env)).toEqual({
      HOST: '127.0.0.1',
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      PRICE: '$5',
      ALT: 'set',
    });
    expect(readDevVars(dotEnv, { ...env, CLOUDFLARE_INCLUDE_PROCESS_ENV: 'true' })).toMatchObject({
      LLM_API_KEY: 'sk-from-env',
    });
    expect(readDevVars(dirWith({ '.dev.vars': 'LLM_API_KEY=${OPENAI_API_KEY}\n' }), env)).toEqual({
      LLM_API_KEY: '${OPENAI_API_KEY}',
    });
  });
});

describe('settingsOf and sourceOf', () => {
  it('the environment wins over .dev.vars, an empty environment variable counts as unset, and each names its source', () => {
    const dev = { LLM_BASE_URL: 'http://dev/v1', ALLOW_ANONYMOUS: 'false', API_KEYS: 'a'.repeat(64) };
    const env = { LLM_BASE_URL: 'http://env/v1', ALLOW_ANONYMOUS: '', PORT: '9000' };
    // Only the settings npm start decides by come from .dev.vars: a shared .env's PORT moves no port.
    expect(settingsOf({}, { PORT: '3000', LOG_LEVEL: 'warn' })).toEqual({ LOG_LEVEL: 'warn' });
    expect(sourceOf('PORT', {}, { PORT: '3000' })).toBeNull();
    expect(settingsOf(env, dev)).toEqual({
      LLM_BASE_URL: 'http://env/v1',
      ALLOW_ANONYMOUS: 'false',
      API_KEYS: 'a'.repeat(64),
      PORT: '9000',
    });
    expect(sourceOf('LLM_BASE_URL', env, dev)).toBe('env');
    expect(sourceOf('ALLOW_ANONYMOUS', env, dev)).toBe('.dev.vars');
    expect(sourceOf('ADMIN_TOKEN', env, dev)).toBeNull();
  });
});
