/**
 * @module
 * How numbers, money, times and statuses read on the page. Pure functions (tested in Node).
 */

/** USD with enough digits for a single LLM call (`$0.0004`), whole cents for larger sums. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(4)}`;
  if (Math.abs(usd) < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString('en-US')}`;
}

/** A count with thousands separators. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A duration in ms as `850 ms`, `2.4 s`, `3 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m} min ${String(s % 60).padStart(2, '0')} s`
    : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/**
 * `x` with `digits` decimals and a real minus sign (`−0.15`); a value that rounds to zero reads without one
 * (`-0.001` is `0.00`, not `−0.00`: an interval's bound would otherwise look below zero while it is zero).
 */
function fixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return /^-[0.]+$/.test(s) ? s.slice(1) : s.replace(/^-/, '\u2212');
}

/** A share 0-1 as a percentage with one decimal (`83.3%`, `−2.5%`, never `−0.0%`); `—` for null. */
export function formatPct(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : `${fixed(x * 100, 1)}%`;
}

/** A statistic with two decimals (`0.62`, `−0.15` with a real minus sign, never `−0.00`); `—` for null. */
export function formatStat(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return fixed(x, digits);
}

/** A score: integer as is, otherwise up to two decimals. */
export function formatScore(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, '');
}

/** A score out of its scale, `4 / 5`; the score alone when the scale is not known. */
export function scoreOf(score: number, scale: { max: number } | null | undefined): string {
  return scale ? `${formatScore(score)} / ${formatScore(scale.max)}` : formatScore(score);
}

/** An ISO time as local date and time, e.g. `23 Nov 2026, 06:17:39`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** A past time relative to `now`, e.g. `12 s ago`, `3 min ago`, `2 h ago`, else the date. */
export function formatAgo(iso: string, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return formatTime(iso);
}

/**
 * Initials of an agent label for its avatar, from its words' letters and digits only: `General Public` →
 * `GP`, `Critic (strict)` → `CS`, `juror2` → `J2`.
 */
export function initialsOf(label: string): string {
  const words = label.split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w.length > 0);
  if (words.length === 0) return '?';
  if (words.length === 1) {
    const w = words[0] ?? '';
    const digits = /\d+$/.exec(w)?.[0] ?? '';
    return (w.charAt(0).toUpperCase() + digits).slice(0, 3);
  }
  return words
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join('');
}

/** A stable hue 0-359 for a name (agents keep their colour across pages). */
export function hueOf(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % 360;
}

/** Shortens an id for tables: `ev_9602b62f41f4…`. */
export function shortId(id: string, keep = 14): string {
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}
