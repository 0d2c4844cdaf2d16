/**
 * @module
 * The cards of a rubric version's page (./rubric-version.ts): criteria, scale with each level's text,
 * aspects (criteria, weight, scale, steps), evaluation steps (given with the version, or written by G-Eval's
 * auto-CoT and stored on it), golden examples, and the golden check's result.
 */
import { badge, card, facts, statusPill } from '../components.js';
import { h } from '../dom.js';
import type { Child } from '../dom.js';
import { formatTime, shortId } from '../format.js';
import { exampleLines } from '../rubric-diff.js';
import type { RubricCheck, RubricScale, RubricVersion } from '../types.js';
import { reportSections } from './report-view.js';

/** Longest task text shown in the examples table, characters (the whole text is the tooltip). */
const CLIP = 280;

const prose = (text: string) => h('p', { class: 'prose' }, text);

/** A scale as `1 to 5`. */
function range(s: RubricScale): string {
  return `${s.min} to ${s.max}`;
}

/** A scale's level texts, highest score first; null without any. */
function levelsTable(s: RubricScale, caption: string): HTMLElement | null {
  const levels = [...(s.levels ?? [])].sort((x, y) => y.score - x.score);
  if (levels.length === 0) return null;
  return h(
    'table',
    { class: 'table levels' },
    h('caption', { class: 'visually-hidden' }, caption),
    h(
      'thead',
      null,
      h('tr', null, h('th', { scope: 'col', class: 'num' }, 'Score'), h('th', { scope: 'col' }, 'Meaning')),
    ),
    h(
      'tbody',
      null,
      levels.map((l) => h('tr', null, h('th', { scope: 'row', class: 'num' }, String(l.score)), h('td', null, l.text))),
    ),
  );
}

/** The criteria card. */
export function criteriaCard(v: RubricVersion): HTMLElement {
  return card('Criteria', prose(v.criteria));
}

/** The scale card; null for a pairwise rubric or one whose every aspect has its own scale. */
export function scaleCard(v: RubricVersion): HTMLElement | null {
  if (!v.scale) return null;
  return card(
    'Scale',
    h('p', null, `Scores from ${range(v.scale)}.`),
    levelsTable(v.scale, 'What each score means') ?? h('p', { class: 'muted small' }, 'No text per level.'),
  );
}

/** The generated steps of aspect `name`, when G-Eval's auto-CoT wrote them. */
function generatedSteps(v: RubricVersion, name: string): string | null {
  return v.steps?.aspects?.find((a) => a.name === name)?.evaluationSteps ?? null;
}

/** The aspects card; null without aspects. */
export function aspectsCard(v: RubricVersion): HTMLElement | null {
  const aspects = v.aspects ?? [];
  if (aspects.length === 0) return null;
  const total = aspects.reduce((sum, a) => sum + (a.weight ?? 1), 0);
  return card(
    `Aspects (${aspects.length})`,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table aspects-table' },
        h('caption', { class: 'visually-hidden' }, 'Aspects, each scored on its own'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Aspect', 'Criteria', 'Weight', 'Scale', 'Steps'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          null,
          aspects.map((a) => {
            const weight = a.weight ?? 1;
            const generated = generatedSteps(v, a.name);
            return h(
              'tr',
              null,
              h('th', { scope: 'row' }, a.name),
              h('td', { class: 'prose' }, a.criteria),
              h(
                'td',
                { class: 'num' },
                String(weight),
                h('span', { class: 'block muted small' }, `${Math.round((weight / total) * 100)}%`),
              ),
              h(
                'td',
                null,
                a.scale
                  ? [range(a.scale), levelsTable(a.scale, `What each score of ${a.name} means`)]
                  : h('span', { class: 'muted' }, v.scale ? `the rubric's (${range(v.scale)})` : '—'),
              ),
              h(
                'td',
                { class: 'prose small' },
                a.evaluationSteps ??
                  (generated !== null
                    ? [badge('generated', 'info'), ' ', generated]
                    : h('span', { class: 'muted' }, '—')),
              ),
            );
          }),
        ),
      ),
    ),
  );
}

/** True when the version turns G-Eval's auto-CoT off (`autoSteps: false`; absent means on). */
function autoStepsOff(v: RubricVersion): boolean {
  return v.autoSteps === false;
}

/** The evaluation steps card: given with the version, and those G-Eval's auto-CoT wrote (or is writing). */
export function stepsCard(v: RubricVersion): HTMLElement {
  const s = v.steps;
  const evaluationLink = (id: string) =>
    h('a', { href: `#/evaluations/${encodeURIComponent(id)}`, title: id }, shortId(id));
  const generated: Child = !s
    ? null
    : s.status === 'pending'
      ? h('p', null, badge('pending', 'info'), ' Being written by evaluation ', evaluationLink(s.evaluationId), '.')
      : s.status === 'failed'
        ? h(
            'p',
            null,
            badge('failed', 'error'),
            ' The last attempt (',
            evaluationLink(s.evaluationId),
            ') failed; the next G-Eval style use tries again.',
          )
        : [
            h(
              'p',
              { class: 'muted small' },
              'Generated once by G-Eval’s auto-CoT in ',
              evaluationLink(s.evaluationId),
              ', stored and reused.',
            ),
            s.evaluationSteps !== null ? prose(s.evaluationSteps) : null,
            (s.aspects ?? []).length > 0 ? h('p', { class: 'muted small' }, 'Per aspect: in the Aspects table.') : null,
          ];
  return card(
    'Evaluation steps',
    v.evaluationSteps !== undefined ? [h('h3', null, 'Given with this version'), prose(v.evaluationSteps)] : null,
    generated ? [v.evaluationSteps !== undefined ? h('h3', null, 'Generated') : null, generated] : null,
    v.evaluationSteps === undefined && !s
      ? h(
          'p',
          { class: 'muted' },
          autoStepsOff(v)
            ? "None: this version has autoSteps off, so G-Eval style judges use their templates' generic steps."
            : 'None yet: G-Eval style judges write them from the criteria on first use (auto-CoT).',
        )
      : null,
  );
}

function clip(text: string): HTMLElement {
  return text.length > CLIP ? h('span', { title: text }, `${text.slice(0, CLIP)}…`) : h('span', null, text);
}

/** The golden examples card. */
export function examplesCard(v: RubricVersion): HTMLElement {
  if (v.examples.length === 0)
    return card('Golden examples', h('p', { class: 'muted' }, 'None: this version has no labelled examples to check.'));
  return card(
    `Golden examples (${v.examples.length})`,
    h(
      'div',
      { class: 'table-wrap table-scroll' },
      h(
        'table',
        { class: 'table examples-table' },
        h('caption', { class: 'visually-hidden' }, 'Golden examples and their expected answers'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['#', 'Task', 'Expected', 'Note'].map((c, i) =>
              h('th', { scope: 'col', class: i === 0 ? 'num' : null }, c),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          v.examples.map((ex, i) => {
            const task = exampleLines({ task: ex.task, expected: ex.expected });
            const expectedAspects = Object.entries(ex.expectedAspects ?? {});
            return h(
              'tr',
              null,
              h('th', { scope: 'row', class: 'num' }, String(i + 1)),
              h(
                'td',
                { class: 'example-task' },
                // The task's labelled texts (the last line is the expected answer, shown in its own column).
                task.slice(0, -1).map((l) => {
                  const at = l.indexOf(': ');
                  return h('div', null, h('strong', null, l.slice(0, at)), ' ', clip(l.slice(at + 2)));
                }),
              ),
              h(
                'td',
                null,
                h('strong', null, String(ex.expected)),
                expectedAspects.map(([k, s]) => h('span', { class: 'block small' }, `${k} ${s}`)),
              ),
              h('td', { class: 'small' }, ex.note ?? h('span', { class: 'muted' }, '—')),
            );
          }),
        ),
      ),
    ),
  );
}

/** The golden check card: none, running (with its meta-evaluation), or the agreement with intervals. */
export function checkCard(v: RubricVersion): HTMLElement {
  const c: RubricCheck | null = v.check;
  if (!c)
    return card(
      'Golden check',
      h('p', null, badge('none', 'neutral'), ' Not run for this version.'),
      h(
        'p',
        { class: 'muted small' },
        h('code', null, `POST /v1/rubrics/${v.id}/versions/${v.version}/check`),
        ' runs its examples as a meta-evaluation.',
      ),
    );
  const meta = h('a', { href: `#/meta/${encodeURIComponent(c.metaEvaluationId)}` }, shortId(c.metaEvaluationId));
  return card(
    'Golden check',
    h(
      'p',
      { class: 'check-status' },
      statusPill(c.status),
      c.status === 'running' ? ' The examples are being judged.' : null,
    ),
    facts(
      [
        ['Meta-evaluation', meta],
        ['Judge', c.preset ?? (c.config ? 'custom config' : '—')],
        c.completedAt ? ['Completed', formatTime(c.completedAt)] : null,
      ],
      'facts facts-inline',
    ),
    // The check's report is the meta-evaluation's agreement report, written inline in the document.
    c.report ? reportSections(c.report) : c.status === 'completed' ? h('p', { class: 'muted' }, 'No report.') : null,
  );
}
