/**
 * `npm run admin`: each command's request to the admin API (method, path, body, the token from
 * TRIBUNAL_ADMIN_TOKEN), its output, and its exit codes for the API's refusals and the user's mistakes.
 * The service side is tested in tests/worker/tenants-*.test.ts and end to end in tests/cli/e2e/admin.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { expiresAt, runAdmin } from '../../src/cli/admin.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

async function admin(
  argv: string[],
  answer: { status?: number; body?: unknown; text?: string } = {},
  env: Record<string, string> = { TRIBUNAL_ADMIN_TOKEN: 'op-token' },
) {
  const sent: Sent[] = [];
  let out = '';
  let err = '';
  let code = 0;
  await runAdmin(argv, {
    env,
    fetch: (input, init) => {
      sent.push({
        url: input instanceof Request ? input.url : input instanceof URL ? input.href : input,
        method: init?.method ?? 'GET',
        headers: init?.headers as Record<string, string>,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      const text = answer.text ?? JSON.stringify(answer.body ?? { ok: true });
      return Promise.resolve(new Response(text, { status: answer.status ?? 200 }));
    },
    io: {
      out: (t) => (out += t),
      err: (t) => (err += t),
      exit: (c) => (code = c),
    },
  });
  return { sent, out, err, code };
}

describe('npm run admin', () => {
  it('tenants:update sets retention: --retention-days N, --store-content true/false, "default" clears them', async () => {
    const set = await admin([
      'tenants:update',
      '--tenant',
      'tn_abc',
      '--retention-days',
      '7',
      '--store-content',
      'false',
    ]);
    expect(set.code).toBe(0);
    expect(set.sent[0]).toMatchObject({
      method: 'PATCH',
      body: { limits: { retentionDays: 7, storeContent: false } },
    });
    const cleared = await admin([
      'tenants:update',
      '--tenant',
      'tn_abc',
      '--retention-days',
      'default',
      '--store-content',
      'default',
    ]);
    expect(cleared.sent[0]).toMatchObject({ body: { limits: { retentionDays: null, storeContent: null } } });
    const wrong = await admin(['tenants:update', '--tenant', 'tn_abc', '--store-content', 'no']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--store-content must be true, false or "default"');
    expect(wrong.sent).toEqual([]);
  });

  it('tenants:update sets the spread: --spread K, "default" clears it', async () => {
    const set = await admin(['tenants:update', '--tenant', 'tn_abc', '--spread', '4']);
    expect(set.code).toBe(0);
    expect(set.sent[0]).toMatchObject({ method: 'PATCH', body: { limits: { spread: 4 } } });
    const cleared = await admin(['tenants:update', '--tenant', 'tn_abc', '--spread', 'default']);
    expect(cleared.sent[0]).toMatchObject({ body: { limits: { spread: null } } });
    const wrong = await admin(['tenants:update', '--tenant', 'tn_abc', '--spread', '128']);
    expect(wrong.code).toBe(2);
    expect(wrong.sent).toEqual([]);
  });

  it('tenants:create sends the name and the limits given; "default" clears a limit on update', async () => {
    const created = await admin([
      'tenants:create',
      '--name',
      'Acme',
      '--rate',
      '120/60',
      '--max-running',
      '5',
      '--spend-cap',
      '25.5',
      '--target',
      'https://tribunal.example.com/',
    ]);
    expect(created.code).toBe(0);
    expect(created.sent).toEqual([
      {
        url: 'https://tribunal.example.com/v1/admin/tenants',
        method: 'POST',
        headers: { Authorization: 'Bearer op-token', Accept: 'application/json', 'Content-Type': 'application/json' },
        body: {
          name: 'Acme',
          limits: { rateLimit: { requests: 120, windowSeconds: 60 }, maxRunning: 5, monthlySpendCapUsd: 25.5 },
        },
      },
    ]);
    expect(JSON.parse(created.out)).toEqual({ ok: true });
    const updated = await admin([
      'tenants:update',
      '--tenant',
      'tn_abc',
      '--max-running',
      'default',
      '--evaluation-cap',
      '1000',
    ]);
    expect(updated.sent[0]).toMatchObject({
      url: 'http://127.0.0.1:8787/v1/admin/tenants/tn_abc',
      method: 'PATCH',
      body: { limits: { maxRunning: null, monthlyEvaluationCap: 1000 } },
    });
  });

  it('keys:create prints the key once and says so on stderr; keys:revoke and the lists hit their routes', async () => {
    const created = await admin(
      [
        'keys:create',
        '--tenant',
        'tn_abc',
        '--label',
        'ci',
        '--scopes',
        'read, evaluations:write',
        '--expires',
        '2030-01-01T00:00:00Z',
      ],
      {
        status: 201,
        body: { key: 'trb_secret', apiKey: { id: 'key_x' } },
      },
    );
    expect(created.sent[0]?.body).toEqual({
      tenantId: 'tn_abc',
      label: 'ci',
      scopes: ['read', 'evaluations:write'],
      expiresAt: '2030-01-01T00:00:00.000Z',
    });
    expect(created.out).toContain('"key": "trb_secret"');
    expect(created.err).toContain('cannot show it again');
    expect((await admin(['keys:revoke', '--key', 'key_x'])).sent[0]).toMatchObject({
      url: 'http://127.0.0.1:8787/v1/admin/keys/key_x/revoke',
      method: 'POST',
    });
    expect((await admin(['keys:list', '--tenant', 'tn_abc', '--limit', '10'])).sent[0]?.url).toBe(
      'http://127.0.0.1:8787/v1/admin/keys?limit=10&tenantId=tn_abc',
    );
    expect(
      (await admin(['tenants:list'], {}, { TRIBUNAL_ADMIN_TOKEN: 't', TRIBUNAL_URL: 'http://x.test' })).sent[0]?.url,
    ).toBe('http://x.test/v1/admin/tenants');
  });

  it('usage asks for CSV with --csv and prints it as it came', async () => {
    const r = await admin(['usage', '--tenant', 'tn_abc', '--group-by', 'key', '--from', '2026-11-01', '--csv'], {
      text: 'key,calls\r\nkey_x,3\r\n',
    });
    expect(r.sent[0]).toMatchObject({
      url: 'http://127.0.0.1:8787/v1/admin/tenants/tn_abc/usage?from=2026-11-01&groupBy=key&format=csv',
      headers: { Accept: 'text/csv' },
    });
    expect(r.out).toBe('key,calls\r\nkey_x,3\r\n');
  });

  it('an API refusal: its status, code and message on stderr, exit 1', async () => {
    const r = await admin(['tenants:get', '--tenant', 'tn_nope'], {
      status: 404,
      body: { error: { code: 'not_found', message: 'no tenant "tn_nope"' } },
    });
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: GET /v1/admin/tenants/tn_nope answered 404: not_found: no tenant "tn_nope"\n');
  });

  it('user mistakes: exit 2 with one line and the usage; nothing is sent', async () => {
    for (const [argv, line, env] of [
      [['tenants:create'], 'tenants:create needs --name', undefined],
      [['tenants:update', '--tenant', 't'], 'tenants:update needs --name or a limit to change', undefined],
      [['frobnicate'], 'unknown command "frobnicate"', undefined],
      [['tenant:create'], 'unknown command "tenant:create" (did you mean "tenants:create"?)', undefined],
      [[], 'name a command', undefined],
      [['tenants:create', '--name', 'x', '--rate', 'fast'], '--rate must be N/S', undefined],
      [['keys:create', '--tenant', 't', '--expires', 'soon'], '--expires must be an ISO 8601 time', undefined],
      [['tenants:list', '--bogus'], 'unknown option --bogus', undefined],
      [['tenants:list'], 'set TRIBUNAL_ADMIN_TOKEN', {}],
    ] as const) {
      const r = await admin([...argv], {}, env ?? { TRIBUNAL_ADMIN_TOKEN: 'op-token' });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.split('\n')[0], argv.join(' ')).toContain(line);
      expect(r.err).toContain('usage: npm run admin');
      expect(r.sent).toEqual([]);
    }
    const help = await admin(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('keys:revoke --key KEY_ID');
  });

  it('--expires takes durations from now', () => {
    expect(expiresAt('30d', Date.UTC(2026, 0, 1))).toBe('2026-01-31T00:00:00.000Z');
    expect(expiresAt('12h', Date.UTC(2026, 0, 1))).toBe('2026-01-01T12:00:00.000Z');
  });
});
