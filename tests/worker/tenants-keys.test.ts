/**
 * Tenants and managed keys: the admin API behind ADMIN_TOKEN, a key shown once and stored as a hash,
 * its scopes, last-used time, revocation and expiry taking effect on the very next request, the API_KEYS
 * mode still working beside managed keys, open mode, and no key or token ever in a response or a log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../src/http/request-hash.js';
import { API_KEY_PATTERN } from '../../src/tenants/ids.js';
import { apiWith } from './api-fetch.js';
import { drainAlarms, testEnv } from './helpers.js';
import { ADMIN_TOKEN, as, asAdmin, errorOf, keyed, newKey, newTenant, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

interface KeyJson {
  id: string;
  tenantId: string;
  prefix: string;
  label: string;
  scopes: string[];
  status: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

describe('the admin API', () => {
  it('needs ADMIN_TOKEN (compared whole) or a key with the admin scope', async () => {
    expect((await keyed('/v1/admin/tenants')).status).toBe(401);
    const wrong = await keyed('/v1/admin/tenants', as(`${ADMIN_TOKEN}x`));
    expect(wrong.status).toBe(401);
    expect((await errorOf(wrong)).code).toBe('unauthorized');
    expect((await keyed('/v1/admin/tenants', as(ADMIN_TOKEN.slice(0, -1)))).status).toBe(401);
    expect((await asAdmin('/v1/admin/tenants')).status).toBe(200);

    const tenant = await newTenant();
    const worker = await newKey(tenant);
    const forbidden = await keyed('/v1/admin/tenants', as(worker.key));
    expect(forbidden.status).toBe(403);
    expect(await errorOf(forbidden)).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('"admin"') as string,
    });
    const operator = await newKey(tenant, ['admin']);
    expect((await keyed('/v1/admin/tenants', as(operator.key))).status).toBe(200);
  });

  it('accepts ADMIN_TOKEN on /v1/admin only: elsewhere it is no key at all', async () => {
    const r = await keyed('/v1/methods', as(ADMIN_TOKEN));
    expect(r.status).toBe(401);
  });

  it('creates, reads, lists and changes tenants; limits left out are the defaults', async () => {
    const created = await asAdmin('/v1/admin/tenants', {
      body: { name: 'Acme', limits: { maxRunning: 3, monthlySpendCapUsd: 25 } },
    });
    expect(created.status).toBe(201);
    const t = await created.json<{
      id: string;
      limits: Record<string, unknown>;
      effectiveLimits: Record<string, unknown>;
    }>();
    expect(t.id).toMatch(/^tn_[a-z2-7]{16}$/);
    expect(created.headers.get('Location')).toBe(`/v1/admin/tenants/${t.id}`);
    expect(t.limits).toEqual({
      rateLimit: null,
      maxRunning: 3,
      monthlySpendCapUsd: 25,
      monthlyEvaluationCap: null,
      retentionDays: null,
      storeContent: null,
      defaultTier: null,
      spread: null,
    });
    expect(t.effectiveLimits).toEqual({
      rateLimit: { requests: 600, windowSeconds: 60 },
      maxRunning: 3,
      monthlySpendCapUsd: 25,
      monthlyEvaluationCap: null,
      retentionDays: 30,
      storeContent: true,
      defaultTier: null,
      spread: 1,
      readSpread: 1,
    });

    const read = await (
      await asAdmin(`/v1/admin/tenants/${t.id}`)
    ).json<{ name: string; current: Record<string, unknown> }>();
    expect(read.name).toBe('Acme');
    expect(read.current).toMatchObject({ evaluationsThisMonth: 0, spendThisMonthUsd: 0, running: 0 });

    const patched = await asAdmin(`/v1/admin/tenants/${t.id}`, {
      method: 'PATCH',
      body: { name: 'Acme Corp', limits: { maxRunning: null, rateLimit: { requests: 5, windowSeconds: 10 } } },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      name: 'Acme Corp',
      limits: { maxRunning: null, rateLimit: { requests: 5, windowSeconds: 10 }, monthlySpendCapUsd: 25 },
    });

    const page = await (
      await asAdmin('/v1/admin/tenants?limit=500')
    ).json<{ tenants: { id: string }[]; next: string | null }>();
    expect(page.tenants.map((x) => x.id)).toContain(t.id);
    expect((await asAdmin('/v1/admin/tenants/tn_aaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await asAdmin('/v1/admin/tenants', { body: { name: 'again', id: t.id } })).status).toBe(409);
    const bad = await asAdmin('/v1/admin/tenants', { body: { name: 'x', limits: { maxRunning: 0 } } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('limits.maxRunning');
  });

  it('pages tenants with limit and after', async () => {
    for (let i = 0; i < 3; i++) await newTenant();
    const first = await (
      await asAdmin('/v1/admin/tenants?limit=2')
    ).json<{ tenants: { id: string }[]; next: string | null }>();
    expect(first.tenants).toHaveLength(2);
    expect(first.next).toBe(first.tenants[1]?.id);
    const second = await (
      await asAdmin(`/v1/admin/tenants?limit=2&after=${first.next ?? ''}`)
    ).json<{ tenants: { id: string }[] }>();
    expect(second.tenants[0]?.id.localeCompare(first.next ?? '')).toBe(1);
  });
});

describe('a key', () => {
  it('is trb_ + 160 random bits, shown once, stored only as its sha-256 with a short prefix', async () => {
    const tenant = await newTenant();
    const r = await asAdmin('/v1/admin/keys', { body: { tenantId: tenant, label: 'ci' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('Cache-Control')).toBe('no-store');
    const { key, apiKey } = await r.json<{ key: string; apiKey: KeyJson }>();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(apiKey).toMatchObject({
      tenantId: tenant,
      label: 'ci',
      scopes: ['evaluations:write', 'read'],
      status: 'active',
      prefix: key.slice(0, 10),
    });
    const row = await testEnv.DB.prepare('SELECT * FROM api_keys WHERE id = ?').bind(apiKey.id).first();
    expect(row?.hash).toBe(await sha256Hex(key));
    expect(JSON.stringify(row)).not.toContain(key);
    // Never again in an answer.
    const listed = await (await asAdmin(`/v1/admin/keys?tenantId=${tenant}`)).text();
    const single = await (await asAdmin(`/v1/admin/keys/${apiKey.id}`)).text();
    for (const text of [listed, single]) {
      expect(text).toContain(apiKey.id);
      expect(text).not.toContain(key);
    }
    // Two keys never collide (160 bits).
    expect((await newKey(tenant)).key).not.toBe(key);
  });

  it('works for its tenant, records when it was used (at most once a minute), and is refused within one request of its revocation', async () => {
    const { tenant, key, keyId } = await tenantWithKey();
    const before = Date.now();
    const ok = await keyed('/v1/methods', as(key));
    expect(ok.status).toBe(200);
    const used = await (await asAdmin(`/v1/admin/keys/${keyId}`)).json<KeyJson>();
    expect(Date.parse(used.lastUsedAt ?? '')).toBeGreaterThanOrEqual(before);
    // A second request within the minute leaves the time alone.
    await keyed('/v1/methods', as(key));
    expect((await (await asAdmin(`/v1/admin/keys/${keyId}`)).json<KeyJson>()).lastUsedAt).toBe(used.lastUsedAt);

    const revoked = await asAdmin(`/v1/admin/keys/${keyId}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    const record = await revoked.json<KeyJson>();
    expect(record.status).toBe('revoked');
    // The very next request is refused.
    const refused = await keyed('/v1/methods', as(key));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('WWW-Authenticate')).toContain('invalid_token');
    expect((await errorOf(refused)).message).toBe(`API key ${keyId} was revoked`);
    // Revoking again keeps the first time; other keys of the tenant keep working.
    expect(
      (await (await asAdmin(`/v1/admin/keys/${keyId}/revoke`, { method: 'POST' })).json<KeyJson>()).revokedAt,
    ).toBe(record.revokedAt);
    expect((await keyed('/v1/methods', as((await newKey(tenant)).key))).status).toBe(200);
    expect((await asAdmin('/v1/admin/keys/key_aaaaaaaaaaaaaaaa/revoke', { method: 'POST' })).status).toBe(404);
  });

  it('stops working when it expires, on the first request after', async () => {
    const tenant = await newTenant();
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { key, id } = await newKey(tenant, undefined, { expiresAt });
    expect((await keyed('/v1/methods', as(key))).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(expiresAt) + 1);
      const r = await keyed('/v1/methods', as(key));
      expect(r.status).toBe(401);
      expect((await errorOf(r)).message).toContain(`API key ${id} expired at`);
      expect((await (await asAdmin(`/v1/admin/keys/${id}`)).json<KeyJson>()).status).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
    const past = await asAdmin('/v1/admin/keys', { body: { tenantId: tenant, expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);
    expect((await errorOf(past)).message).toContain('expiresAt: must be in the future');
  });

  it('of an unknown tenant, an unknown key and a malformed key are refused', async () => {
    expect((await asAdmin('/v1/admin/keys', { body: { tenantId: 'tn_aaaaaaaaaaaaaaaa' } })).status).toBe(404);
    const unknown = await keyed('/v1/methods', as(`trb_${'a'.repeat(32)}`));
    expect(unknown.status).toBe(401);
    expect((await errorOf(unknown)).message).toBe('invalid API key');
    expect((await keyed('/v1/methods', as('trb_short'))).status).toBe(401);
    const missing = await keyed('/v1/methods');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('WWW-Authenticate')).toBe('Bearer');
  });
});

describe('auth modes', () => {
  it('API_KEYS tokens keep working beside managed keys, with the tenant id they always had', async () => {
    const token = 'legacy-token-7f3e';
    const digest = await sha256Hex(token);
    const { key, tenant } = await tenantWithKey();
    const legacy = await keyed('/v1/usage', as(token), { API_KEYS: digest });
    expect(legacy.status).toBe(200);
    expect((await legacy.json<{ tenant: string }>()).tenant).toBe(digest.slice(0, 12));
    const managed = await keyed('/v1/usage', as(key), { API_KEYS: digest });
    expect((await managed.json<{ tenant: string }>()).tenant).toBe(tenant);
    // Without ADMIN_TOKEN, API_KEYS alone still guards /v1 as before.
    expect((await apiWith({ API_KEYS: digest }, '/v1/usage')).status).toBe(401);
  });

  it('an API_KEYS token that happens to start with trb_ still works; a revoked managed key never falls through to it', async () => {
    const token = `trb_legacy_${'x'.repeat(20)}`;
    const digest = await sha256Hex(token);
    const legacy = await keyed('/v1/usage', as(token), { API_KEYS: digest });
    expect(legacy.status).toBe(200);
    expect((await legacy.json<{ tenant: string }>()).tenant).toBe(digest.slice(0, 12));
    const { key, keyId } = await tenantWithKey();
    expect((await asAdmin(`/v1/admin/keys/${keyId}/revoke`, { method: 'POST' })).status).toBe(200);
    // Even listed in API_KEYS, a revoked managed key is refused.
    const revoked = await keyed('/v1/usage', as(key), { API_KEYS: `${digest},${await sha256Hex(key)}` });
    expect(revoked.status).toBe(401);
    expect((await errorOf(revoked)).message).toContain('revoked');
  });

  it('an operator can give an API_KEYS tenant limits by adopting its id', async () => {
    const token = 'legacy-token-for-limits';
    const digest = await sha256Hex(token);
    const adopted = await asAdmin('/v1/admin/tenants', {
      body: { name: 'legacy', id: digest.slice(0, 12), limits: { rateLimit: { requests: 7, windowSeconds: 60 } } },
    });
    expect(adopted.status).toBe(201);
    const r = await keyed('/v1/methods', as(token), { API_KEYS: digest });
    expect(r.headers.get('RateLimit-Policy')).toBe('"default";q=7;w=60');
  });

  it('without ADMIN_TOKEN and API_KEYS, and with ALLOW_ANONYMOUS=true, /v1 is open as tenant "default"', async () => {
    const r = await apiWith({ ADMIN_TOKEN: '', API_KEYS: '', ALLOW_ANONYMOUS: 'true' }, '/v1/usage');
    expect(r.status).toBe(200);
    expect((await r.json<{ tenant: string }>()).tenant).toBe('default');
    // Open mode is not rate-limited.
    expect(r.headers.get('RateLimit')).toBeNull();
  });
});

describe('closed by default', () => {
  const closed = { ADMIN_TOKEN: '', API_KEYS: '', ALLOW_ANONYMOUS: 'false' };

  it('without ADMIN_TOKEN and API_KEYS, as deployed (ALLOW_ANONYMOUS false), every /v1 route is 503 auth_not_configured', async () => {
    for (const [path, init] of [
      ['/v1/usage', {}],
      ['/v1/evaluations', {}],
      ['/v1/methods', {}],
      [
        '/v1/evaluations',
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ task: {} }) },
      ],
      ['/v1/admin/tenants', { headers: { Authorization: 'Bearer anything' } }],
    ] as const) {
      const r = await apiWith(closed, path, init);
      expect(r.status, path).toBe(503);
      const e = await errorOf(r);
      expect(e.code, path).toBe('auth_not_configured');
      expect(e.message).toMatch(/ADMIN_TOKEN/);
    }
    const n = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations WHERE tenant = ?')
      .bind('default')
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
    // What is not /v1 stays up: the health check and the document.
    expect((await apiWith(closed, '/health')).status).toBe(200);
    expect((await apiWith(closed, '/openapi.json')).status).toBe(200);
  });

  it('an unset or invalid ALLOW_ANONYMOUS is the closed default', async () => {
    const unset = await apiWith({ ADMIN_TOKEN: '', API_KEYS: '', ALLOW_ANONYMOUS: undefined }, '/v1/methods');
    expect(unset.status).toBe(503);
    expect((await errorOf(unset)).code).toBe('auth_not_configured');
  });

  it('/v1/admin is never reachable without ADMIN_TOKEN: not anonymously, not with an API_KEYS token', async () => {
    const anonymous = await apiWith({ ADMIN_TOKEN: '', API_KEYS: '', ALLOW_ANONYMOUS: 'true' }, '/v1/admin/tenants');
    expect(anonymous.status).toBe(503);
    expect((await errorOf(anonymous)).code).toBe('auth_not_configured');
    const token = 'legacy-token-no-admin';
    const withKey = await keyed('/v1/admin/tenants', as(token), { ADMIN_TOKEN: '', API_KEYS: await sha256Hex(token) });
    expect(withKey.status).toBe(503);
    // With ADMIN_TOKEN set, ALLOW_ANONYMOUS opens nothing: a call without a token is 401, on /v1 too.
    for (const path of ['/v1/admin/tenants', '/v1/methods'])
      expect((await keyed(path, {}, { ALLOW_ANONYMOUS: 'true' })).status, path).toBe(401);
  });
});

describe('secrets stay secret', () => {
  it("no key and no admin token in any response or log line of a key's whole life", async () => {
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      }),
    );
    const bodies: string[] = [];
    let key = '';
    try {
      const tenant = await newTenant();
      const created = await asAdmin('/v1/admin/keys', { body: { tenantId: tenant } });
      key = (await created.json<{ key: string; apiKey: { id: string } }>()).key;
      const id =
        (await (await asAdmin(`/v1/admin/keys?tenantId=${tenant}`)).json<{ keys: { id: string }[] }>()).keys[0]?.id ??
        '';
      for (const r of [
        await keyed('/v1/methods', as(key)),
        await keyed('/v1/evaluations/ev_nope', as(key)),
        await asAdmin(`/v1/admin/keys/${id}/revoke`, { method: 'POST' }),
        await keyed('/v1/methods', as(key)),
        await keyed('/v1/admin/tenants', as('wrong-admin-token')),
        await asAdmin(`/v1/admin/tenants/${tenant}`),
      ]) {
        bodies.push(await r.text(), JSON.stringify([...r.headers]));
      }
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(key).toMatch(API_KEY_PATTERN);
    for (const text of [...bodies, ...lines]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(ADMIN_TOKEN);
    }
  });
});
