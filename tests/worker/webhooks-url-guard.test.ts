/**
 * The outbound URL guard, rule by rule, with workerd's own URL parser (the one the Worker uses): every
 * refused form names its rule; the loopback switch opens loopback only.
 */
import { describe, expect, it } from 'vitest';
import type { UrlRule } from '../../src/webhooks/url-guard.js';
import { checkWebhookUrl, parseIPv4, parseIPv6 } from '../../src/webhooks/url-guard.js';

const REFUSED: [UrlRule, string[]][] = [
  [
    'invalid_url',
    ['not a url', '/relative/path', 'https://', `https://a.example/${'x'.repeat(2100)}`, 'https://[fe80::1%25eth0]/'],
  ],
  [
    'credentials',
    ['https://user:pass@hooks.example/x', 'https://user@hooks.example/x', 'https://:secret@hooks.example/'],
  ],
  [
    'https_only',
    [
      'http://hooks.example/x',
      'ftp://hooks.example/x',
      'ws://hooks.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,x',
    ],
  ],
  [
    'loopback',
    [
      'https://127.0.0.1/x',
      'https://127.1.2.3/',
      'https://localhost/',
      'https://LOCALHOST./',
      'https://api.localhost/',
      'https://[::1]/',
      'https://[0:0:0:0:0:0:0:1]/',
      // Decimal, octal, hex and short forms of 127.0.0.1.
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.0.0.1/',
      'https://0x7f000001/',
      'https://127.1/',
      // IPv4-mapped and -compatible IPv6.
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[::127.0.0.1]/',
    ],
  ],
  [
    'private',
    [
      'https://10.0.0.1/',
      'https://10.255.255.255/',
      'https://172.16.0.1/',
      'https://172.31.255.254/',
      'https://192.168.1.1/',
      'https://167772161/',
      'https://012.0.0.1/',
      'https://0xa.0.0.1/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::ffff:c0a8:101]/',
      'https://[fc00::1]/',
      'https://[fd12:3456::1]/',
      'https://[64:ff9b::10.1.2.3]/',
      'https://[2002:c0a8:101::1]/',
    ],
  ],
  ['link_local', ['https://169.254.1.1/', 'https://[fe80::1]/', 'https://[febf::1]/', 'https://[::ffff:169.254.3.4]/']],
  ['cgnat', ['https://100.64.0.1/', 'https://100.127.255.255/', 'https://[::ffff:100.100.1.1]/']],
  ['multicast', ['https://224.0.0.1/', 'https://239.255.255.255/', 'https://[ff02::1]/', 'https://[ff0e::1]/']],
  [
    'metadata',
    [
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/',
      'https://0xa9fea9fe/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fd00:ec2::254]/',
      'https://metadata.google.internal/computeMetadata/v1/',
    ],
  ],
  [
    'reserved',
    [
      'https://0.0.0.0/',
      'https://0/',
      'https://[::]/',
      'https://255.255.255.255/',
      'https://240.0.0.1/',
      'https://192.0.2.10/',
      'https://198.18.0.1/',
      'https://[2001:db8::1]/',
    ],
  ],
];

describe('refused URLs name the rule they break', () => {
  for (const [rule, urls] of REFUSED) {
    it(rule, () => {
      for (const url of urls) {
        const v = checkWebhookUrl(url);
        expect(v.ok ? 'accepted' : v.rule, url).toBe(rule);
        if (!v.ok) expect(v.message.length, url).toBeGreaterThan(10);
      }
    });
  }
});

describe('accepted URLs', () => {
  it('public https hosts and addresses pass, normalised', () => {
    for (const url of [
      'https://hooks.example.com/tribunal?x=1',
      'https://8.8.8.8/',
      'https://[2606:4700:4700::1111]/',
      'https://100.128.0.1/',
      'https://172.32.0.1/',
      'https://[::ffff:8.8.8.8]/',
      'https://hooks.example.com:8443/a',
    ]) {
      const v = checkWebhookUrl(url);
      expect(v.ok, `${url}: ${v.ok ? '' : v.message}`).toBe(true);
    }
    expect(checkWebhookUrl('HTTPS://Hooks.Example.COM/Path')).toEqual({
      ok: true,
      url: 'https://hooks.example.com/Path',
    });
  });
});

describe('WEBHOOK_ALLOW_LOOPBACK opens loopback, and only loopback', () => {
  const open = { allowLoopback: true };
  it('http and https to loopback pass', () => {
    for (const url of [
      'http://127.0.0.1:8787/hook',
      'http://localhost:3000/',
      'https://127.0.0.1/',
      'http://[::1]:9000/',
      'http://2130706433/',
    ]) {
      expect(checkWebhookUrl(url, open).ok, url).toBe(true);
    }
  });
  it('everything else is still refused, http to a non-loopback host as https_only', () => {
    expect(checkWebhookUrl('http://hooks.example/x', open)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrl('https://10.0.0.1/', open)).toMatchObject({ ok: false, rule: 'private' });
    expect(checkWebhookUrl('http://169.254.169.254/', open)).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrl('https://169.254.169.254/', open)).toMatchObject({ ok: false, rule: 'metadata' });
    expect(checkWebhookUrl('http://user:pw@127.0.0.1/', open)).toMatchObject({ ok: false, rule: 'credentials' });
  });
  it('without the switch, http to loopback is https_only and https to loopback is loopback', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8787/hook')).toMatchObject({ ok: false, rule: 'https_only' });
    expect(checkWebhookUrl('https://127.0.0.1:8787/hook')).toMatchObject({ ok: false, rule: 'loopback' });
  });
});

describe('the address parsers themselves (the URL parser normalises first; these are the second line)', () => {
  it('parseIPv4 reads every loose form and refuses out-of-range parts', () => {
    expect(parseIPv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIPv4('2130706433')).toBe(0x7f000001);
    expect(parseIPv4('0177.0.0.1')).toBe(0x7f000001);
    expect(parseIPv4('0x7f.1')).toBe(0x7f000001);
    expect(parseIPv4('127.65536')).toBe(0x7f010000);
    expect(parseIPv4('127.16777216')).toBeNull();
    expect(parseIPv4('256.0.0.1')).toBeNull();
    expect(parseIPv4('1.2.3.4.5')).toBeNull();
    expect(parseIPv4('example.com')).toBeNull();
    expect(parseIPv4('08.0.0.1')).toBeNull();
  });
  it('parseIPv6 expands :: and dotted tails', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('::ffff:10.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]);
    expect(parseIPv6('fd00:ec2::254')).toEqual([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('1:2:3')).toBeNull();
  });
});
