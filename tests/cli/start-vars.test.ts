/**
 * The `[vars]` npm start sets for local development unless the environment or `.dev.vars` does: among them the
 * pace of readers of many evaluation objects, which the deployed default (0) leaves unpaced but the local runtime
 * needs (every object shares one workerd process's SQLite heap).
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_OBJECT_READ_PACE } from '../../src/cli/local-stack.js';
import { startVars } from '../../src/cli/start.js';
import { configOf, VARS } from '../../src/config/vars.js';

describe("npm start's vars", () => {
  it('pace object reads at 1,000 per window, open /v1 and allow loopback webhooks, none of them a deployment default', () => {
    const vars = startVars({}, 'info');
    expect(vars).toEqual({
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      ALLOW_ANONYMOUS: 'true',
      OBJECT_READ_PACE: '1000',
      LOG_LEVEL: 'info',
    });
    expect(LOCAL_OBJECT_READ_PACE).toBe('1000');
    expect(configOf(vars).OBJECT_READ_PACE).toBe(1_000);
    expect(VARS.OBJECT_READ_PACE.default).toBe('0');
  });

  it('the environment (or .dev.vars) wins over each default', () => {
    const env = { WEBHOOK_ALLOW_LOOPBACK: 'false', ALLOW_ANONYMOUS: 'false', OBJECT_READ_PACE: '0' };
    expect(startVars(env, 'warn')).toEqual({ ...env, LOG_LEVEL: 'warn' });
  });
});
