/**
 * What `npm start` tells a developer about who may call `/v1`: it sets ALLOW_ANONYMOUS=true when the
 * environment does not (the service is closed otherwise), and says so.
 */
import { describe, expect, it } from 'vitest';
import { authLine } from '../../src/cli/start.js';

describe("npm start's auth line", () => {
  it('without keys: says npm start set ALLOW_ANONYMOUS=true, and that a deployment is closed', () => {
    const line = authLine({ apiKeys: 0, managed: false, allowAnonymous: undefined });
    expect(line).toContain('npm start sets ALLOW_ANONYMOUS=true');
    expect(line).toContain('open to anyone as tenant "default"');
    expect(line).toContain('503 auth_not_configured');
  });

  it('ALLOW_ANONYMOUS=false from the environment: says /v1 is closed', () => {
    expect(authLine({ apiKeys: 0, managed: false, allowAnonymous: 'false' })).toBe(
      'No ADMIN_TOKEN or API_KEYS, and ALLOW_ANONYMOUS is not true: /v1 answers 503 auth_not_configured (closed, as deployed).',
    );
  });

  it('with keys, anonymous access is never mentioned', () => {
    for (const o of [
      { apiKeys: 2, managed: false },
      { apiKeys: '.dev.vars' as const, managed: false },
      { apiKeys: 0, managed: true },
    ]) {
      const line = authLine({ ...o, allowAnonymous: 'true' });
      expect(line).toMatch(/requires "Authorization: Bearer/);
      expect(line).not.toContain('ANONYMOUS');
    }
  });
});
