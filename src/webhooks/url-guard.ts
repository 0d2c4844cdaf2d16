/**
 * @module
 * The outbound URL guard: which URLs Tribunal will POST webhooks to. One function,
 * {@link checkWebhookUrl}, applied when a URL is registered (endpoint, one-off `webhook.url`, trigger
 * callback) and again before every attempt. Each refusal names its {@link UrlRule}:
 *
 * | rule | refused |
 * |---|---|
 * | `invalid_url` | not an absolute URL, or longer than {@link MAX_URL_CHARS} |
 * | `credentials` | a user name or password in the URL |
 * | `https_only` | any scheme but `https` (plain `http` only to loopback, and only with `WEBHOOK_ALLOW_LOOPBACK=true`) |
 * | `loopback` | 127.0.0.0/8, ::1, `localhost`, `*.localhost` (allowed with `WEBHOOK_ALLOW_LOOPBACK=true`) |
 * | `private` | 10/8, 172.16/12, 192.168/16, fc00::/7 |
 * | `link_local` | 169.254/16, fe80::/10 |
 * | `cgnat` | 100.64/10 (carrier-grade NAT, RFC 6598) |
 * | `multicast` | 224/4, ff00::/8 |
 * | `metadata` | cloud metadata services: 169.254.169.254, fd00:ec2::254, `metadata.google.internal` |
 * | `reserved` | 0/8 and ::, 240/4 and 255.255.255.255, 192.0.0/24, 198.18/15, documentation ranges, 100::/64 |
 *
 * IPv4 literals are recognised in every form the URL standard accepts (decimal `2130706433`, octal
 * `0177.0.0.1`, hex `0x7f.1`; the URL parser normalises them, and this module parses the loose forms
 * again itself), and IPv6 addresses that embed an IPv4 one (`::ffff:10.0.0.1`, `::10.0.0.1`,
 * `64:ff9b::/96` NAT64, `2002::/16` 6to4) are judged by that IPv4 address.
 *
 * Limit: a host NAME that resolves to a private address cannot be checked here: Workers have no DNS
 * lookup before `fetch`, and a lookup would race the real one anyway (DNS rebinding). Cloudflare's
 * network does not route Workers' subrequests into private networks, which is the backstop.
 */

/** A guard rule (see the module table). */
export type UrlRule =
  | 'invalid_url'
  | 'credentials'
  | 'https_only'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'metadata'
  | 'reserved';

/** The guard's answer: the normalised URL, or the rule it broke and why. */
export type UrlVerdict = { ok: true; url: string } | { ok: false; rule: UrlRule; message: string };

/** Longest accepted URL, in characters (2048). */
export const MAX_URL_CHARS = 2048;

/** Options of {@link checkWebhookUrl}. */
export interface UrlGuardOptions {
  /** Allow `http`/`https` to loopback (local development; `WEBHOOK_ALLOW_LOOPBACK=true`). Default false. */
  allowLoopback?: boolean;
}

/** Host names of cloud metadata services. */
const METADATA_HOSTS: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

type Classified = { rule: UrlRule; why: string } | null;

const refuse = (rule: UrlRule, message: string): UrlVerdict => ({ ok: false, rule, message });

/** Checks `raw` against every rule; see the module table. */
export function checkWebhookUrl(raw: string, options: UrlGuardOptions = {}): UrlVerdict {
  if (raw.length > MAX_URL_CHARS) return refuse('invalid_url', `the URL is longer than ${MAX_URL_CHARS} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('invalid_url', 'not an absolute URL');
  }
  if (url.username !== '' || url.password !== '')
    return refuse('credentials', 'credentials in URLs are refused; authenticate with the signature instead');
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse('https_only', `scheme "${url.protocol.slice(0, -1)}" is refused; use https`);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const found = classifyHost(host);
  const loopbackAllowed = options.allowLoopback === true && found?.rule === 'loopback';
  if (url.protocol === 'http:' && !loopbackAllowed) {
    return refuse(
      'https_only',
      'plain http is refused; use https (http to loopback only when WEBHOOK_ALLOW_LOOPBACK=true)',
    );
  }
  if (found && !loopbackAllowed) return refuse(found.rule, `host ${url.hostname} ${found.why}`);
  return { ok: true, url: url.href };
}

/** The rule a host breaks, or null. Host names other than the listed ones pass (see the module limit). */
function classifyHost(host: string): Classified {
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = parseIPv6(host.slice(1, -1));
    return groups ? classifyIPv6(groups) : { rule: 'invalid_url', why: 'is not a valid IPv6 address' };
  }
  const v4 = parseIPv4(host);
  if (v4 !== null) return classifyIPv4(v4);
  if (host === 'localhost' || host.endsWith('.localhost')) return { rule: 'loopback', why: 'is a loopback name' };
  if (METADATA_HOSTS.has(host)) return { rule: 'metadata', why: 'is a cloud metadata service' };
  return null;
}

/**
 * An IPv4 literal as a 32-bit number, in any form the URL standard's IPv4 parser accepts (1-4 parts,
 * each decimal, octal with a leading 0, or hex with 0x; the last part fills the remaining bytes); null
 * when `host` is not one.
 */
export function parseIPv4(host: string): number | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const values: number[] = [];
  for (const p of parts) {
    let v: number;
    if (/^0x[0-9a-f]*$/i.test(p)) v = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) v = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) v = Number(p);
    else return null;
    values.push(v);
  }
  const last = values.pop() ?? 0;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return null;
  return values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
}

/** True when `ip` is inside `base/bits` (IPv4, 32-bit numbers). */
function inV4(ip: number, base: string, bits: number): boolean {
  const b = parseIPv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(b / size);
}

/** An IPv4 address that breaks a rule: the rule, the address in dotted form and what it is. */
interface V4Finding {
  rule: UrlRule;
  shown: string;
  what: string;
}

/** The rule an IPv4 address breaks, or null. */
function classifyIPv4(ip: number): Classified {
  const f = findIPv4(ip);
  return f ? { rule: f.rule, why: `(${f.shown}) is ${f.what}` } : null;
}

function findIPv4(ip: number): V4Finding | null {
  const shown = [ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255].join('.');
  if (shown === '169.254.169.254') return { rule: 'metadata', shown, what: 'a cloud metadata address' };
  const table: [string, number, UrlRule, string][] = [
    ['127.0.0.0', 8, 'loopback', 'a loopback address'],
    ['10.0.0.0', 8, 'private', 'a private address (RFC 1918)'],
    ['172.16.0.0', 12, 'private', 'a private address (RFC 1918)'],
    ['192.168.0.0', 16, 'private', 'a private address (RFC 1918)'],
    ['169.254.0.0', 16, 'link_local', 'a link-local address'],
    ['100.64.0.0', 10, 'cgnat', 'a carrier-grade NAT address (RFC 6598)'],
    ['224.0.0.0', 4, 'multicast', 'a multicast address'],
    ['0.0.0.0', 8, 'reserved', 'in "this network" (0.0.0.0/8)'],
    ['240.0.0.0', 4, 'reserved', 'a reserved or broadcast address'],
    ['192.0.0.0', 24, 'reserved', 'an IETF protocol assignment (192.0.0.0/24)'],
    ['192.0.2.0', 24, 'reserved', 'a documentation address'],
    ['198.51.100.0', 24, 'reserved', 'a documentation address'],
    ['203.0.113.0', 24, 'reserved', 'a documentation address'],
    ['198.18.0.0', 15, 'reserved', 'a benchmarking address (198.18.0.0/15)'],
  ];
  for (const [base, bits, rule, what] of table) if (inV4(ip, base, bits)) return { rule, shown, what };
  return null;
}

/** An IPv6 address as 8 groups of 16 bits (with an embedded dotted IPv4 tail), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted?.[1] !== undefined && dotted[2] !== undefined) {
    const parts = dotted[2].split('.').map(Number);
    if (parts.some((p) => p > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = parts;
    tail.push(a * 256 + b, c * 256 + d);
    s = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string | undefined): number[] | null => {
    if (!h) return [];
    const gs = h.split(':');
    if (gs.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
    return gs.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  if (!head || !rest) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1) return known === 8 ? [...head, ...tail] : null;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

/** The rule an IPv6 address breaks, or null; embedded IPv4 addresses are judged as IPv4. */
function classifyIPv6(g: number[]): Classified {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (hi: number, lo: number) => hi * 65536 + lo;
  const shown = g.map((x) => x.toString(16)).join(':');
  if (g.every((x) => x === 0)) return { rule: 'reserved', why: 'is the unspecified address' };
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return { rule: 'loopback', why: 'is the IPv6 loopback address' };
  // IPv4-mapped ::ffff:a.b.c.d and the deprecated IPv4-compatible ::a.b.c.d.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0))
    return embedded(v4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(v4(g6, g7));
  if (g0 === 0x2002) return embedded(v4(g1, g2));
  if (shown === 'fd00:ec2:0:0:0:0:0:254') return { rule: 'metadata', why: 'is a cloud metadata address' };
  if ((g0 & 0xfe00) === 0xfc00) return { rule: 'private', why: 'is a unique-local address (fc00::/7)' };
  if ((g0 & 0xffc0) === 0xfe80) return { rule: 'link_local', why: 'is a link-local address (fe80::/10)' };
  if ((g0 & 0xff00) === 0xff00) return { rule: 'multicast', why: 'is a multicast address (ff00::/8)' };
  if (g0 === 0x2001 && g1 === 0x0db8) return { rule: 'reserved', why: 'is a documentation address (2001:db8::/32)' };
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0)
    return { rule: 'reserved', why: 'is a discard-only address (100::/64)' };
  return null;
}

/** The rule an IPv6 address embedding the IPv4 address `ip` breaks, or null. */
function embedded(ip: number): Classified {
  const f = findIPv4(ip);
  return f ? { rule: f.rule, why: `embeds ${f.shown}, ${f.what}` } : null;
}
