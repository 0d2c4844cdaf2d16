/**
 * @module
 * The stored transcript, once the evaluation ended: every reply in recording order (re-asks included),
 * each with its stage, agent, model, tokens, cost and whether it parsed.
 */
import { avatar, badge } from '../components.js';
import type { CallView, DebateState } from '../debate.js';
import { laneOf } from '../debate.js';
import { h } from '../dom.js';
import { formatInt, formatUsd } from '../format.js';

function row(c: CallView): HTMLElement {
  const lane = laneOf(c.callId);
  return h(
    'li',
    { class: 'transcript-item' },
    h(
      'details',
      null,
      h(
        'summary',
        null,
        h('span', { class: 'seq' }, `#${(c.seq ?? 0) + 1}`),
        avatar(c.label),
        h(
          'span',
          { class: 'transcript-who' },
          h('strong', null, c.label),
          h(
            'span',
            { class: 'muted' },
            ` ${c.stage}${lane === 'ba' ? ' · swapped' : lane === 'ab' ? ' · as submitted' : ''}`,
          ),
        ),
        h(
          'span',
          { class: 'msg-badges' },
          c.attempt > 0 ? badge(`re-ask ${c.attempt}`, 'info') : null,
          c.unparsed ? badge('unparsed', 'error') : c.parseError !== null ? badge('did not parse', 'warn') : null,
        ),
        c.usage
          ? h(
              'span',
              { class: 'muted small transcript-usage' },
              `${formatInt(c.usage.promptTokens + c.usage.completionTokens)} tok · ${formatUsd(c.usage.costUsd)}`,
            )
          : null,
      ),
      h(
        'div',
        { class: 'transcript-body' },
        h('p', { class: 'muted small' }, `${c.callId} · ${c.model ?? ''}`),
        c.parseError !== null ? h('p', { class: 'msg-parse' }, h('strong', null, 'Parse error: '), c.parseError) : null,
        h('div', { class: 'msg-body' }, c.content ?? ''),
      ),
    ),
  );
}

/** The transcript section; null until the stored transcript was merged. */
export function transcriptSection(s: DebateState): HTMLElement | null {
  if (!s.transcriptMerged) return null;
  const messages = [...s.calls.values()].filter((c) => c.seq !== null).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  return h(
    'section',
    { class: 'transcript', 'aria-labelledby': 'transcript-title' },
    h('h2', { id: 'transcript-title', class: 'section-title' }, 'Transcript'),
    h(
      'p',
      { class: 'muted' },
      `${messages.length} ${messages.length === 1 ? 'reply' : 'replies'} in recording order. Open one for its full text.`,
    ),
    h('ol', { class: 'transcript-list' }, messages.map(row)),
  );
}
