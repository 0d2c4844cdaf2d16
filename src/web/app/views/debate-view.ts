/**
 * @module
 * The debate as it happens: one column per presentation order (side by side on wide screens), stages
 * in order, one card per agent message. Cards are kept by call id and updated in place, so a message
 * that arrives does not re-create the others (focus, selection and open details stay put) and a replay
 * after a reconnect changes nothing on screen.
 */
import { avatar, badge, winnerChip } from '../components.js';
import type { CallView, DebateState, Lane } from '../debate.js';
import { groupCalls, laneTitle } from '../debate.js';
import { h, replaceChildren, syncChildren } from '../dom.js';
import { formatDuration, formatInt, formatScore, formatUsd } from '../format.js';
import type { Vote } from '../types.js';

/** A vote in a few characters: `B`, `A 7 · B 9`, `4`. */
export function voteText(v: Vote): Node {
  if (!v.parsed) return badge('unparsed', 'warn', "The final reply never parsed; the preset's failure rule applies.");
  if (v.scores)
    return h(
      'span',
      { class: 'vote' },
      v.winner ? winnerChip(v.winner) : null,
      ` A ${formatScore(v.scores.a)} · B ${formatScore(v.scores.b)}`,
    );
  if (v.winner) return winnerChip(v.winner);
  if (v.score !== undefined) return h('strong', null, formatScore(v.score));
  return document.createTextNode('—');
}

/** Keeps each call's card and updates the columns from the state. */
export class DebateView {
  readonly element: HTMLElement;
  private readonly cards = new Map<string, { el: HTMLElement; key: string }>();
  private readonly containers = new Map<string, HTMLElement>();
  private readonly lanes: HTMLElement;
  private readonly empty: HTMLElement;

  constructor() {
    this.empty = h('p', { class: 'muted empty-debate' }, 'Waiting for the first agent to speak…');
    this.lanes = h('div', { class: 'lanes' });
    this.element = h(
      'section',
      { class: 'debate', 'aria-labelledby': 'debate-title' },
      h('h2', { id: 'debate-title', class: 'section-title' }, 'Debate'),
      this.empty,
      this.lanes,
    );
  }

  /** Brings the columns up to date with `s`. */
  update(s: DebateState): void {
    const groups = groupCalls(s.calls.values());
    this.empty.hidden = groups.length > 0;
    if (s.ended && groups.length === 0) this.empty.textContent = 'No agent spoke in this evaluation.';
    this.lanes.classList.toggle('lanes-two', groups.length > 1);
    syncChildren(
      this.lanes,
      groups.map((g) => {
        const lane = this.keyed(`lane:${g.lane}`, () =>
          h(
            'section',
            { class: `lane lane-${g.lane}`, 'aria-label': laneTitle(g.lane) },
            h('header', { hidden: true }),
            h('div', { class: 'stages' }),
          ),
        );
        const [head, stages] = [lane.firstElementChild, lane.lastElementChild];
        if (head && (groups.length > 1 || g.lane !== 'main')) head.replaceWith(this.laneHeader(g.lane, s));
        if (stages)
          syncChildren(
            stages,
            g.stages.map((st) => this.stage(g.lane, st.stage, st.calls)),
          );
        return lane;
      }),
    );
  }

  private stage(lane: Lane, name: string, calls: readonly CallView[]): HTMLElement {
    const stage = this.keyed(`stage:${lane}:${name}`, () =>
      h('div', { class: 'stage' }, h('h3', { class: 'stage-title' }, name), h('ol', { class: 'messages' })),
    );
    const list = stage.lastElementChild;
    if (list) {
      syncChildren(
        list,
        calls.map((c) => {
          const item = this.keyed(`item:${c.callId}`, () => h('li'));
          const el = this.card(c);
          if (item.firstChild !== el) item.replaceChildren(el);
          return item;
        }),
      );
    }
    return stage;
  }

  /** The element kept under `key`, made once by `make`. */
  private keyed(key: string, make: () => HTMLElement): HTMLElement {
    let el = this.containers.get(key);
    if (!el) {
      el = make();
      this.containers.set(key, el);
    }
    return el;
  }

  private laneHeader(lane: Lane, s: DebateState): HTMLElement {
    const order = lane === 'ab' ? 'AB' : lane === 'ba' ? 'BA' : undefined;
    const votes = s.votes.filter((v) => v.order === order);
    return h(
      'header',
      { class: 'lane-header' },
      h('h3', { class: 'lane-title' }, laneTitle(lane)),
      votes.length > 0
        ? h(
            'p',
            { class: 'lane-votes' },
            'Votes: ',
            votes.map((v, i) => [i > 0 ? ', ' : '', h('span', { class: 'lane-vote' }, `${v.label} `, voteText(v))]),
          )
        : lane === 'ba'
          ? h(
              'p',
              { class: 'lane-votes muted' },
              'Answers are shown to the agents in swapped order; votes are mapped back to A/B.',
            )
          : null,
    );
  }

  /** The card of one call, re-rendered only when what it shows changed. */
  private card(c: CallView): HTMLElement {
    const key = JSON.stringify([
      c.state,
      c.content,
      c.error,
      c.model,
      c.latencyMs,
      c.parseError,
      c.unparsed,
      c.usage,
      c.seq,
    ]);
    const known = this.cards.get(c.callId);
    if (known?.key === key) return known.el;
    const el = known?.el ?? h('article', { class: 'msg msg-new', 'data-call-id': c.callId });
    el.setAttribute('data-state', c.state);
    el.setAttribute('aria-busy', String(c.state === 'running'));
    el.classList.toggle('msg-unparsed', c.unparsed);
    el.classList.toggle('msg-failed', c.state === 'failed');
    replaceChildren(el, this.header(c), this.body(c), this.footer(c));
    this.cards.set(c.callId, { el, key });
    return el;
  }

  private header(c: CallView): HTMLElement {
    const badges = [
      c.attempt > 0
        ? badge(`re-ask ${c.attempt}`, 'info', 'The previous reply did not parse; the agent was asked again.')
        : null,
      c.unparsed
        ? badge('unparsed', 'error', `Never parsed: ${c.parseError ?? ''}`)
        : c.parseError !== null
          ? badge('did not parse', 'warn', c.parseError)
          : null,
      c.state === 'failed' ? badge('failed', 'error') : null,
    ];
    return h(
      'header',
      { class: 'msg-head' },
      avatar(c.label),
      h(
        'span',
        { class: 'msg-who' },
        h('strong', null, c.label),
        h(
          'span',
          { class: 'muted' },
          [c.agent, c.model].filter((x) => x !== null && x.toLowerCase() !== c.label.toLowerCase()).join(' · '),
        ),
      ),
      h('span', { class: 'msg-badges' }, badges),
      c.latencyMs !== null ? h('span', { class: 'msg-time muted' }, formatDuration(c.latencyMs)) : null,
    );
  }

  private body(c: CallView): HTMLElement {
    if (c.state === 'running') {
      return h(
        'div',
        { class: 'msg-body typing' },
        h('span', { class: 'visually-hidden' }, `${c.label} is writing…`),
        h('span', { class: 'dot', 'aria-hidden': 'true' }),
        h('span', { class: 'dot', 'aria-hidden': 'true' }),
        h('span', { class: 'dot', 'aria-hidden': 'true' }),
      );
    }
    if (c.state === 'failed')
      return h(
        'div',
        { class: 'msg-body msg-error' },
        c.error ? `${c.error.code}: ${c.error.message}` : 'The call failed.',
      );
    return h('div', { class: 'msg-body' }, c.content ?? '');
  }

  private footer(c: CallView): HTMLElement | null {
    const notes = [
      c.parseError !== null
        ? h(
            'p',
            { class: 'msg-parse' },
            h('strong', null, c.unparsed ? 'Never parsed: ' : 'Did not parse: '),
            c.parseError,
          )
        : null,
      c.usage
        ? h(
            'p',
            { class: 'msg-usage muted' },
            `${formatInt(c.usage.promptTokens)} in · ${formatInt(c.usage.completionTokens)} out · ${formatUsd(c.usage.costUsd)}`,
          )
        : null,
    ].filter((x) => x !== null);
    return notes.length > 0 ? h('footer', { class: 'msg-foot' }, notes) : null;
  }
}
