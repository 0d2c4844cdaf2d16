/**
 * @module
 * Hand-made SVG charts (no chart library, no CDN): estimates with confidence intervals as a table with an
 * interval strip per row, a confusion matrix, and a scatter of judge against human scores. Each chart
 * carries its numbers as text too (table cells, cell labels, a title and description), so nothing is
 * told by colour or position alone.
 */
import { h, svg } from './dom.js';
import { formatStat } from './format.js';

/** One estimate row: a point and its interval (null when undefined). */
export interface EstimateRow {
  label: string;
  value: number | null;
  ci: { lo: number; hi: number } | null;
  /** Optional note shown under the label, e.g. `12 groups`. */
  note?: string;
}

const STRIP_W = 240;
const STRIP_H = 22;

/** Position of `v` in a strip of width `w` over `domain`. */
function xOf(v: number, domain: readonly [number, number], w: number, pad = 6): number {
  const [a, b] = domain;
  const t = (Math.min(b, Math.max(a, v)) - a) / (b - a);
  return pad + t * (w - 2 * pad);
}

/**
 * An estimate's interval strip alone (no table): the axis over `domain`, its ticks (a dashed zero when the
 * domain spans it), the interval as a bar and the point; decorative (`aria-hidden`), as the numbers go beside it.
 */
export function strip(row: EstimateRow, domain: readonly [number, number]): SVGSVGElement {
  const ticks = domain[0] < 0 ? [domain[0], 0, domain[1]] : [domain[0], (domain[0] + domain[1]) / 2, domain[1]];
  return svg(
    'svg',
    { class: 'ci-strip', viewBox: `0 0 ${STRIP_W} ${STRIP_H}`, 'aria-hidden': 'true', focusable: 'false' },
    svg('line', {
      class: 'ci-axis',
      x1: xOf(domain[0], domain, STRIP_W),
      x2: xOf(domain[1], domain, STRIP_W),
      y1: STRIP_H / 2,
      y2: STRIP_H / 2,
    }),
    ticks.map((t) =>
      svg('line', {
        class: t === 0 ? 'ci-zero' : 'ci-tick',
        x1: xOf(t, domain, STRIP_W),
        x2: xOf(t, domain, STRIP_W),
        y1: 3,
        y2: STRIP_H - 3,
      }),
    ),
    row.ci
      ? svg('line', {
          class: 'ci-range',
          x1: xOf(row.ci.lo, domain, STRIP_W),
          x2: xOf(row.ci.hi, domain, STRIP_W),
          y1: STRIP_H / 2,
          y2: STRIP_H / 2,
        })
      : null,
    row.value !== null
      ? svg('circle', { class: 'ci-point', cx: xOf(row.value, domain, STRIP_W), cy: STRIP_H / 2, r: 5 })
      : null,
  );
}

/**
 * Estimates with their 95% (or other) intervals: a table whose last column draws each interval on the
 * same axis (`domain`, e.g. [0, 1] for accuracy, [−1, 1] for correlations).
 */
export function estimateTable(
  caption: string,
  rows: readonly EstimateRow[],
  domain: readonly [number, number],
  level: number | null,
): HTMLElement {
  const ciHead = level !== null ? `${Math.round(level * 100)}% CI` : 'CI';
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'table ci-table' },
      h('caption', null, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'Measure'),
          h('th', { scope: 'col', class: 'num' }, 'Value'),
          h('th', { scope: 'col', class: 'num ci-text' }, ciHead),
          h(
            'th',
            { scope: 'col', class: 'ci-col' },
            h(
              'span',
              { class: 'ci-domain' },
              h('span', null, formatStat(domain[0], 0)),
              h('span', null, formatStat(domain[1], 0)),
            ),
          ),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            null,
            h('th', { scope: 'row' }, r.label, r.note ? h('span', { class: 'muted small block' }, r.note) : null),
            h('td', { class: 'num' }, formatStat(r.value)),
            // Each bound unbreakable, so a phone's narrow column breaks the range between them.
            h(
              'td',
              { class: 'num muted ci-text' },
              r.ci
                ? [
                    h('span', { class: 'nowrap' }, `${formatStat(r.ci.lo)} –`),
                    ' ',
                    h('span', { class: 'nowrap' }, formatStat(r.ci.hi)),
                  ]
                : '—',
            ),
            h('td', { class: 'ci-col' }, strip(r, domain)),
          ),
        ),
      ),
    ),
  );
}

/** A 3 × 3 confusion matrix, human labels (rows) × judge labels (columns), counts in each cell. */
export function confusionMatrix(matrix: readonly (readonly number[])[], labels: readonly string[]): SVGSVGElement {
  const cell = 64;
  const left = 86;
  const top = 58;
  const n = labels.length;
  const max = Math.max(1, ...matrix.flat());
  const total = matrix.flat().reduce((s, x) => s + x, 0);
  const agree = labels.reduce((s, _l, i) => s + (matrix[i]?.[i] ?? 0), 0);
  const cells = labels.flatMap((_row, i) =>
    labels.map((_col, j) => {
      const count = matrix[i]?.[j] ?? 0;
      const level = Math.min(5, Math.ceil((count / max) * 5));
      return svg(
        'g',
        null,
        svg('rect', {
          class: `cm-cell cm-l${count === 0 ? 0 : level}${i === j ? ' cm-diag' : ''}`,
          x: left + j * cell,
          y: top + i * cell,
          width: cell - 2,
          height: cell - 2,
          rx: 4,
        }),
        svg(
          'text',
          {
            class: `cm-count${level >= 4 ? ' cm-count-on-dark' : ''}`,
            x: left + j * cell + cell / 2 - 1,
            y: top + i * cell + cell / 2 + 5,
            'text-anchor': 'middle',
          },
          String(count),
        ),
      );
    }),
  );
  const w = left + n * cell + 8;
  const hgt = top + n * cell + 8;
  return svg(
    'svg',
    { class: 'chart cm', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-labelledby': 'cm-title cm-desc' },
    svg('title', { id: 'cm-title' }, 'Confusion matrix: human label (rows) by judge label (columns)'),
    svg(
      'desc',
      { id: 'cm-desc' },
      `${agree} of ${total} items on the diagonal (judge agrees with the human label). ` +
        labels
          .map((r, i) => `Human ${r}: ${labels.map((c, j) => `judge ${c} ${matrix[i]?.[j] ?? 0}`).join(', ')}`)
          .join('. '),
    ),
    svg('text', { class: 'axis-title', x: left + (n * cell) / 2, y: 16, 'text-anchor': 'middle' }, 'Judge'),
    labels.map((l, j) =>
      svg('text', { class: 'axis-label', x: left + j * cell + cell / 2 - 1, y: top - 10, 'text-anchor': 'middle' }, l),
    ),
    svg(
      'text',
      {
        class: 'axis-title',
        x: 14,
        y: top + (n * cell) / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 14 ${top + (n * cell) / 2})`,
      },
      'Human',
    ),
    labels.map((l, i) =>
      svg('text', { class: 'axis-label', x: left - 12, y: top + i * cell + cell / 2 + 5, 'text-anchor': 'end' }, l),
    ),
    cells,
  );
}

/** One point of a scatter: human score (x) and judge score (y). */
export interface ScatterPoint {
  x: number;
  y: number;
  /** Shown as the point's tooltip, e.g. the item id. */
  label?: string;
}

/** Deterministic jitter in [−0.5, 0.5) for point `i` (ties on integer scales stay visible). */
function jitter(i: number, salt: number): number {
  const v = Math.sin((i + 1) * 12.9898 + salt * 78.233) * 43758.5453;
  return v - Math.floor(v) - 0.5;
}

/** Judge score against human score, with the y = x line; integer scales get a little jitter. */
export function scatterPlot(
  points: readonly ScatterPoint[],
  xDomain: readonly [number, number],
  yDomain: readonly [number, number],
  caption: string,
): SVGSVGElement {
  const [w, hgt, left, bottom, top, right] = [420, 340, 52, 44, 14, 14];
  const px = (v: number) => left + ((v - xDomain[0]) / (xDomain[1] - xDomain[0] || 1)) * (w - left - right);
  const py = (v: number) => hgt - bottom - ((v - yDomain[0]) / (yDomain[1] - yDomain[0] || 1)) * (hgt - top - bottom);
  const ticks = (d: readonly [number, number]) => {
    const span = d[1] - d[0];
    const step = span <= 10 ? 1 : Math.ceil(span / 5);
    const out: number[] = [];
    for (let v = Math.ceil(d[0]); v <= d[1] + 1e-9; v += step) out.push(v);
    return out;
  };
  const integerish = points.every((p) => Number.isInteger(p.x) && Number.isInteger(p.y));
  const jx = integerish ? 0.28 : 0;
  const lo = Math.max(xDomain[0], yDomain[0]);
  const hi = Math.min(xDomain[1], yDomain[1]);
  return svg(
    'svg',
    { class: 'chart scatter', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-labelledby': 'sc-title sc-desc' },
    svg('title', { id: 'sc-title' }, caption),
    svg(
      'desc',
      { id: 'sc-desc' },
      `${points.length} items; horizontal axis human score ${xDomain[0]}–${xDomain[1]}, vertical axis judge score ${yDomain[0]}–${yDomain[1]}; the diagonal marks agreement.`,
    ),
    ticks(xDomain).map((t) =>
      svg(
        'g',
        null,
        svg('line', { class: 'grid', x1: px(t), x2: px(t), y1: top, y2: hgt - bottom }),
        svg('text', { class: 'axis-label', x: px(t), y: hgt - bottom + 18, 'text-anchor': 'middle' }, String(t)),
      ),
    ),
    ticks(yDomain).map((t) =>
      svg(
        'g',
        null,
        svg('line', { class: 'grid', x1: left, x2: w - right, y1: py(t), y2: py(t) }),
        svg('text', { class: 'axis-label', x: left - 10, y: py(t) + 4, 'text-anchor': 'end' }, String(t)),
      ),
    ),
    lo < hi ? svg('line', { class: 'diag', x1: px(lo), y1: py(lo), x2: px(hi), y2: py(hi) }) : null,
    points.map((p, i) =>
      svg(
        'circle',
        { class: 'dot-point', cx: px(p.x + jitter(i, 1) * jx), cy: py(p.y + jitter(i, 2) * jx), r: 4 },
        svg('title', null, `${p.label ? `${p.label}: ` : ''}human ${p.x}, judge ${p.y}`),
      ),
    ),
    svg(
      'text',
      { class: 'axis-title', x: left + (w - left - right) / 2, y: hgt - 6, 'text-anchor': 'middle' },
      'Human score',
    ),
    svg(
      'text',
      {
        class: 'axis-title',
        x: 14,
        y: top + (hgt - top - bottom) / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 14 ${top + (hgt - top - bottom) / 2})`,
      },
      'Judge score',
    ),
  );
}

/** Bins of `values`: integers get one bar each, other values ten equal bins over their range. */
export function bins(values: readonly number[]): { lo: number; hi: number; count: number }[] {
  if (values.length === 0) return [];
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (values.every(Number.isInteger) && max - min <= 20) {
    return Array.from({ length: max - min + 1 }, (_v, i) => ({
      lo: min + i,
      hi: min + i,
      count: values.filter((x) => x === min + i).length,
    }));
  }
  const n = 10;
  const width = (max - min) / n || 1;
  return Array.from({ length: n }, (_v, i) => {
    const lo = min + i * width;
    const hi = i === n - 1 ? max : lo + width;
    return { lo, hi, count: values.filter((x) => x >= lo && (i === n - 1 ? x <= hi : x < hi)).length };
  });
}

/** A histogram of scores, each bar labelled with its count. */
export function histogram(values: readonly number[], caption: string): SVGSVGElement {
  const b = bins(values);
  const [w, hgt, left, bottom, top] = [420, 220, 12, 40, 22];
  const max = Math.max(1, ...b.map((x) => x.count));
  const bw = (w - 2 * left) / Math.max(1, b.length);
  const label = (x: { lo: number; hi: number }) =>
    x.lo === x.hi ? formatStat(x.lo, 0) : `${formatStat(x.lo, 1)}–${formatStat(x.hi, 1)}`;
  return svg(
    'svg',
    { class: 'chart histogram', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-labelledby': 'hist-title hist-desc' },
    svg('title', { id: 'hist-title' }, caption),
    svg('desc', { id: 'hist-desc' }, b.map((x) => `${label(x)}: ${x.count}`).join(', ')),
    b.map((x, i) => {
      const barH = ((hgt - top - bottom) * x.count) / max;
      const cx = left + i * bw + bw / 2;
      return svg(
        'g',
        null,
        svg('rect', {
          class: 'hist-bar',
          x: left + i * bw + 3,
          y: hgt - bottom - barH,
          width: Math.max(1, bw - 6),
          height: barH,
          rx: 3,
        }),
        svg(
          'text',
          { class: 'axis-label', x: cx, y: hgt - bottom - barH - 6, 'text-anchor': 'middle' },
          String(x.count),
        ),
        svg('text', { class: 'axis-label', x: cx, y: hgt - bottom + 18, 'text-anchor': 'middle' }, label(x)),
      );
    }),
    svg('line', { class: 'grid', x1: left, x2: w - left, y1: hgt - bottom, y2: hgt - bottom }),
  );
}
