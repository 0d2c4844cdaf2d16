/**
 * @module
 * `#/rubrics/{id}/versions/{n}`: one immutable rubric version (`GET /v1/rubrics/{id}/versions/{n}`): its
 * reference and hash, the tags pointing at it, criteria, scale, aspects, evaluation steps, golden examples,
 * the golden check's result with each example's expected answer against the judge's, and its changes from version n−1, with links between versions.
 * `#/rubrics/{id}` shows the latest version. While the check runs or G-Eval's steps are being written, the
 * version is read again every few seconds.
 */
import { getJson } from '../api.js';
import { ago, badge, breadcrumb, facts, idCode, page, pageHead } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatTime } from '../format.js';
import type { MetaEvaluation, Rubric, RubricTag, RubricVersion } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { changesCard } from './rubric-diff-view.js';
import { checkExamplesCard } from './check-examples.js';
import { aspectsCard, checkCard, criteriaCard, examplesCard, scaleCard, stepsCard } from './rubric-parts.js';
import { rubricHref } from './rubrics.js';

/** How often a version whose check runs (or whose steps are being written) is read again, ms. */
const POLL_MS = 3000;

/** Most version links shown around the current one (the first and latest are always there). */
const VERSION_WINDOW = 5;

const versionPath = (id: string, n: number) => `/v1/rubrics/${encodeURIComponent(id)}/versions/${String(n)}`;

/** Links to the versions: previous, next, and a window of numbers around this one (versions are 1…latest). */
function versionNav(r: Rubric, n: number): HTMLElement {
  const numbers = new Set([1, r.latestVersion]);
  for (let k = Math.max(1, n - VERSION_WINDOW); k <= Math.min(r.latestVersion, n + VERSION_WINDOW); k++) numbers.add(k);
  const sorted = [...numbers].sort((a, b) => a - b);
  const items: HTMLElement[] = [];
  sorted.forEach((k, i) => {
    if (i > 0 && k - (sorted[i - 1] ?? k) > 1) items.push(h('li', { class: 'muted', 'aria-hidden': 'true' }, '…'));
    items.push(
      h(
        'li',
        null,
        h(
          'a',
          { href: rubricHref(r.id, k), ...(k === n ? { 'aria-current': 'page' } : {}) },
          `v${k}`,
          k === r.latestVersion ? h('span', { class: 'visually-hidden' }, ' (latest)') : null,
        ),
      ),
    );
  });
  return h(
    'nav',
    { class: 'version-nav', 'aria-label': 'Versions' },
    n > 1 ? h('a', { class: 'btn btn-small', href: rubricHref(r.id, n - 1), rel: 'prev' }, `← Version ${n - 1}`) : null,
    h('ol', { class: 'version-list' }, items),
    n < r.latestVersion
      ? h('a', { class: 'btn btn-small', href: rubricHref(r.id, n + 1), rel: 'next' }, `Version ${n + 1} →`)
      : null,
  );
}

/** A tag as `#prod`, with its minimum agreement when it has one. */
function tagText(t: RubricTag | undefined, name: string): HTMLElement {
  const min = t?.minAgreement;
  return h(
    'span',
    { class: 'tag' },
    `#${name}`,
    min ? h('span', { class: 'muted small' }, ` (needs ${min.metric} ≥ ${min.min})`) : null,
  );
}

/** The parts that change while a check runs or steps are written (the rest of a version never changes). */
interface LiveSlots {
  aspects: HTMLElement;
  steps: HTMLElement;
  check: HTMLElement;
  /** The completed check's examples, the judge against the expected answer. */
  examples: HTMLElement;
}

function fillSlots(slots: LiveSlots, v: RubricVersion): void {
  replaceChildren(slots.aspects, aspectsCard(v));
  replaceChildren(slots.steps, stepsCard(v));
  replaceChildren(slots.check, checkCard(v));
  // An empty slot takes no room (a version without aspects).
  for (const slot of [slots.aspects, slots.steps, slots.check, slots.examples])
    slot.hidden = slot.childElementCount === 0;
}

/** Once the check completed: its examples one by one, from its meta-evaluation. */
async function fillExamples(slots: LiveSlots, v: RubricVersion, signal: AbortSignal): Promise<void> {
  if (v.check?.status !== 'completed') return;
  const m = await getJson<MetaEvaluation>(
    `/v1/meta-evaluations/${encodeURIComponent(v.check.metaEvaluationId)}`,
    signal,
  );
  replaceChildren(slots.examples, checkExamplesCard(m, v.scale));
  slots.examples.hidden = false;
}

function render(ctx: ViewContext, r: Rubric, v: RubricVersion, previous: RubricVersion | null, slots: LiveSlots): void {
  const tags = v.tags.map((name) =>
    tagText(
      r.tags.find((t) => t.tag === name),
      name,
    ),
  );
  const latest = v.version === r.latestVersion;
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'stack',
        breadcrumb(
          [
            ['Rubrics', '#/rubrics'],
            [r.name, rubricHref(r.id)],
          ],
          `v${v.version}`,
        ),
        h(
          'div',
          { class: 'title-row' },
          h('h1', null, v.name, h('span', { class: 'muted' }, ` · version ${v.version}`)),
          badge(v.kind, v.kind === 'pairwise' ? 'info' : 'neutral'),
          latest ? badge('latest', 'neutral') : null,
          r.archivedAt ? badge('archived', 'warn', `archived ${formatTime(r.archivedAt)}`) : null,
          h('span', { class: 'spacer' }),
          h('a', { class: 'btn btn-primary btn-small', href: judgeHref(v) }, 'Judge with this version'),
        ),
        facts(
          [
            ['Reference', idCode(v.ref)],
            ['Hash', h('code', { class: 'id', title: v.hash }, v.hash.slice(0, 16))],
            ['Created', ago(v.createdAt)],
            [
              'Tags here',
              tags.length > 0 ? h('span', { class: 'tag-list-inline' }, tags) : h('span', { class: 'muted' }, 'none'),
            ],
            r.archivedAt ? ['Archived', 'judges only when named with its version (rb_…@n)'] : null,
            ['Judged', h('a', { href: `#/?rubric=${encodeURIComponent(v.ref)}` }, 'evaluations by this version')],
          ],
          'facts facts-inline',
        ),
        versionNav(r, v.version),
      ),
      criteriaCard(v),
      scaleCard(v),
      slots.aspects,
      slots.steps,
      examplesCard(v),
      slots.check,
      slots.examples,
      changesCard(v.version, v, previous, rubricHref(r.id, v.version - 1)),
    ),
  );
}

/**
 * The submit form with this version picked; for a pointwise rubric, with the preset made for rubrics (the
 * form's default preset judges pairs).
 */
function judgeHref(v: RubricVersion): string {
  const q = new URLSearchParams({ rubric: v.ref });
  if (v.kind === 'pointwise') q.set('preset', 'rubric-judge');
  return `#/new?${q.toString()}`;
}

/** True while something on the version is still being produced: its check, or its generated steps. */
function settling(v: RubricVersion): boolean {
  return v.check?.status === 'running' || v.steps?.status === 'pending';
}

/** The rubric version page. */
export const rubricVersionView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const rubric = await getJson<Rubric>(`/v1/rubrics/${encodeURIComponent(id)}`, ctx.signal);
  const n = ctx.params.version === undefined ? rubric.latestVersion : Number(ctx.params.version);
  const [first, previous] = await Promise.all([
    getJson<RubricVersion>(versionPath(id, n), ctx.signal),
    n > 1 ? getJson<RubricVersion>(versionPath(id, n - 1), ctx.signal) : Promise.resolve(null),
  ]);
  setTitle(`${first.name} v${first.version}`);
  // Slots hold the live parts (aspects for their generated steps), so a refresh keeps focus and scroll.
  const slots: LiveSlots = { aspects: h('div'), steps: h('div'), check: h('div'), examples: h('div') };
  fillSlots(slots, first);
  render(ctx, rubric, first, previous, slots);
  void (async () => {
    let version = first;
    while (settling(version)) {
      await sleep(POLL_MS, ctx.signal);
      version = await getJson<RubricVersion>(versionPath(id, n), ctx.signal);
      fillSlots(slots, version);
    }
    await fillExamples(slots, version, ctx.signal);
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
