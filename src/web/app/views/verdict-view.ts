/**
 * @module
 * The outcome side of the evaluation page: the verdict (winner or score, confidence, position flip,
 * replies that never parsed, the cascade stage that decided), the votes, and calls / tokens / cost.
 */
import { badge, card, facts, progressBar, scoreHeadline, winnerChip } from '../components.js';
import type { DebateState } from '../debate.js';
import { callsDone, usageSoFar } from '../debate.js';
import { h } from '../dom.js';
import type { Child } from '../dom.js';
import { formatDuration, formatInt, formatPct, formatScore, formatUsd } from '../format.js';
import type { Evaluation, Task, VerdictSummary } from '../types.js';
import { voteText } from './debate-view.js';

/** `details.decidedBy` of a cascade verdict. */
function decidedBy(v: VerdictSummary): string | null {
  const d = v.details?.decidedBy as { stage?: unknown; label?: unknown } | undefined;
  if (!d || typeof d.stage !== 'number') return null;
  return `stage ${d.stage + 1}${typeof d.label === 'string' && d.label !== '' ? ` (${d.label})` : ''}`;
}

function headline(v: VerdictSummary, task: Task | null): HTMLElement {
  if (v.taskKind === 'pairwise') {
    const w = v.winner ?? 'tie';
    return h(
      'p',
      { class: 'verdict-headline' },
      winnerChip(w),
      h('span', null, w === 'tie' ? 'Neither answer is better' : `Answer ${w} is better`),
    );
  }
  const aspect = task?.kind === 'pointwise' ? task.aspect : null;
  // The verdict's own scale (a rubric's, or the overall's); verdicts from before it fall back to the task's.
  const scale = v.scale ?? aspect?.scale ?? null;
  return scoreHeadline(v.score, scale, aspect?.name ?? (v.aspects && v.aspects.length > 0 ? 'overall' : 'score'));
}

function flipText(flip: boolean | null): Child {
  if (flip === null) return h('span', { class: 'muted' }, 'not measured (one order)');
  return flip
    ? h('span', null, badge('yes', 'warn'), ' swapping the answers changed the outcome')
    : h('span', null, badge('no', 'neutral'), ' both orders agree');
}

/** The verdict card, or a placeholder with the live progress while the debate runs. */
export function verdictCard(s: DebateState, task: Task | null): HTMLElement {
  const v = s.verdict;
  if (!v) {
    if (s.status === 'failed' || s.status === 'cancelled') {
      return card(
        'Verdict',
        h('p', { class: 'verdict-headline' }, h('span', null, s.status === 'failed' ? 'Failed' : 'Cancelled')),
        s.error ? h('p', { class: 'error-text' }, `${s.error.code}: ${s.error.message}`) : null,
      );
    }
    const done = callsDone(s);
    // Planned calls count first attempts only: re-asks can take the count past the plan.
    const planned = Math.max(s.callsPlanned, done);
    return card(
      'Verdict',
      h(
        'p',
        { class: 'muted' },
        s.status === 'queued' || s.status === null ? 'Queued: waiting for a worker…' : 'The agents are debating…',
      ),
      progressBar(done, planned, 'LLM calls done'),
      h('p', { class: 'muted small' }, `${done} of ${planned || '?'} LLM calls`),
    );
  }
  const stage = decidedBy(v);
  return card(
    'Verdict',
    headline(v, task),
    h(
      'div',
      { class: 'confidence' },
      h('span', null, `Confidence ${formatPct(v.confidence)}`),
      progressBar(Math.round(v.confidence * 100), 100, 'Confidence'),
    ),
    facts([
      v.scores ? ['Scores', `A ${formatScore(v.scores.a)} · B ${formatScore(v.scores.b)}`] : null,
      v.taskKind === 'pairwise' ? ['Position flip', flipText(v.positionFlip)] : null,
      stage ? ['Decided by', stage] : null,
      [
        'Unparsed replies',
        v.unparsed.length === 0
          ? 'none'
          : h(
              'span',
              null,
              badge(String(v.unparsed.length), 'warn'),
              ` ${v.unparsed.map((u) => `${u.agent} (${u.stage})`).join(', ')}`,
            ),
      ],
      ['Method', v.method],
    ]),
  );
}

/**
 * Every aspect of a rubric's verdict: score on its scale, weight, confidence and rationale, with the
 * weighted overall (of 0-1 normalised scores) and the spread; null when the verdict has no aspects.
 */
export function aspectsCard(s: DebateState): HTMLElement | null {
  const v = s.verdict;
  const aspects = v?.aspects;
  if (!v || !aspects || aspects.length === 0) return null;
  const header = ['Aspect', 'Score', 'Weight', 'Confidence'];
  return card(
    'Aspects',
    facts([
      v.overall !== undefined ? ['Overall (weighted, 0-1)', formatScore(v.overall)] : null,
      v.spread !== undefined ? ['Spread (weighted SD)', formatScore(v.spread)] : null,
    ]),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table aspects-verdict' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            header.map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        // The rationale (a paragraph) gets a row of its own under the figures: as a fifth column it was
        // squeezed to a word a line on a phone, and the rows grew tall and empty.
        aspects.map((a) =>
          h(
            'tbody',
            null,
            h(
              'tr',
              { class: a.rationale ? 'aspect-main' : null },
              h('th', { scope: 'row' }, a.name),
              h(
                'td',
                null,
                a.score === undefined ? '—' : `${formatScore(a.score)} (${String(a.scale.min)}-${String(a.scale.max)})`,
              ),
              h('td', null, String(a.weight)),
              h('td', null, formatPct(a.confidence)),
            ),
            a.rationale
              ? h(
                  'tr',
                  { class: 'aspect-rationale' },
                  h(
                    'td',
                    { colspan: 4, class: 'small' },
                    h('span', { class: 'visually-hidden' }, 'Rationale: '),
                    a.rationale,
                  ),
                )
              : null,
          ),
        ),
      ),
    ),
  );
}

/** The votes table (empty until the verdict). */
export function votesCard(s: DebateState): HTMLElement | null {
  if (s.votes.length === 0) return null;
  const withOrder = s.votes.some((v) => v.order !== undefined);
  return card(
    'Votes',
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Agent'),
            withOrder ? h('th', { scope: 'col' }, 'Order') : null,
            h('th', { scope: 'col' }, 'Vote'),
          ),
        ),
        h(
          'tbody',
          null,
          s.votes.map((v) =>
            h(
              'tr',
              null,
              h(
                'th',
                { scope: 'row' },
                v.label,
                v.label.toLowerCase() !== v.agent.toLowerCase()
                  ? h('span', { class: 'muted small' }, ` ${v.agent}`)
                  : null,
              ),
              withOrder ? h('td', null, v.order === 'BA' ? 'swapped' : v.order === 'AB' ? 'as submitted' : '—') : null,
              h('td', null, voteText(v)),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Calls, tokens, cost and timing (from `GET /v1/evaluations/{id}` at the end; the replies' own figures live). */
export function usageCard(s: DebateState, ev: Evaluation | null): HTMLElement {
  // The figures of `GET /v1/evaluations/{id}` as read at the end (read earlier they are already stale).
  const u = s.ended && s.transcriptMerged ? ev?.usage : undefined;
  const live = usageSoFar(s);
  const started = ev?.startedAt ? Date.parse(ev.startedAt) : null;
  const finished = ev?.finishedAt ? Date.parse(ev.finishedAt) : null;
  return card(
    'Cost',
    facts([
      ['LLM calls', u ? formatInt(u.calls) : `${callsDone(s)} so far`],
      [
        'Tokens',
        u
          ? `${formatInt(u.promptTokens)} in · ${formatInt(u.completionTokens)} out${u.cachedPromptTokens > 0 ? ` (${formatInt(u.cachedPromptTokens)} cached)` : ''}`
          : `${formatInt(live.promptTokens)} in · ${formatInt(live.completionTokens)} out so far`,
      ],
      [
        'Cost',
        u
          ? h(
              'span',
              null,
              formatUsd(u.costUsd),
              u.estimated ? h('span', { class: 'muted small' }, ' (some counts estimated)') : null,
              u.cacheSavedUsd > 0
                ? h('span', { class: 'muted small' }, ` (the prompt cache saved ${formatUsd(u.cacheSavedUsd)})`)
                : null,
            )
          : `${formatUsd(live.costUsd)} so far`,
      ],
      // A verdict cache hit made no call: its verdict, and the debate behind it, are another evaluation's.
      ev?.cache.from
        ? [
            'Verdict cache',
            h(
              'span',
              null,
              'served from ',
              h('a', { href: `#/evaluations/${ev.cache.from}` }, ev.cache.from),
              ` · saved ${formatUsd(ev.cache.savedUsd)}`,
            ),
          ]
        : null,
      [
        'Duration',
        started !== null
          ? formatDuration((finished ?? Date.now()) - started) + (finished === null ? ' so far' : '')
          : '—',
      ],
    ]),
  );
}

const taskText = (label: string, value: string | undefined) =>
  value === undefined ? null : h('div', { class: 'task-text' }, h('h3', null, label), h('p', null, value));

/** A task's conversation (`messages`, where a question or source stands): each turn under its speaker. */
function conversation(messages: Task['messages']): HTMLElement | null {
  if (!messages) return null;
  return h(
    'div',
    { class: 'conversation' },
    messages.map((m) =>
      m.role === 'user'
        ? taskText('User', m.content)
        : 'answerA' in m && m.answerA !== undefined
          ? h('div', { class: 'answers' }, taskText('Assistant in A', m.answerA), taskText('Assistant in B', m.answerB))
          : taskText('Assistant', m.content),
    ),
  );
}

/** The task: remembered by the tab that submitted it, else read from `GET /v1/evaluations/{id}/task`. */
export function taskCard(task: Task | null): HTMLElement | null {
  if (!task) return null;
  const text = taskText;
  return card(
    'Task',
    task.kind === 'pairwise'
      ? [
          text('Question', task.question),
          conversation(task.messages),
          h('div', { class: 'answers' }, text('Answer A', task.answerA), text('Answer B', task.answerB)),
          text('Reference', task.reference),
        ]
      : task.kind === 'trajectory'
        ? [
            text('Request', task.request),
            conversation(task.messages),
            ...task.steps.map((s, i) =>
              text(
                `Step ${i + 1}: ${s.type}${s.name !== undefined ? ` ${s.name}` : ''}${s.spanId !== undefined ? ` (span ${s.spanId})` : ''}`,
                [s.input, s.output, s.error !== undefined ? `Error: ${s.error}` : undefined]
                  .filter((x): x is string => x !== undefined)
                  .join('\n'),
              ),
            ),
            text('Final answer', task.finalAnswer),
          ]
        : [
            // A task scored by a rubric or on several aspects names no one aspect here.
            task.aspect
              ? facts([
                  ['Aspect', task.aspect.name],
                  ['Scale', `${task.aspect.scale.min} to ${task.aspect.scale.max}`],
                  task.aspect.description !== undefined ? ['Definition', task.aspect.description] : null,
                ])
              : null,
            text('Source', task.source),
            conversation(task.messages),
            text('Context', task.context),
            text('Output', task.output),
          ],
  );
}
