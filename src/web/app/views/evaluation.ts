/**
 * @module
 * `#/evaluations/{id}`: one evaluation, live. Follows `GET /v1/evaluations/{id}/events` (fetch-based SSE
 * with the key in the Authorization header; reconnects with backoff, the replay makes that lossless),
 * shows each agent's message as it arrives, the votes and the verdict, then reads the stored transcript
 * and the final usage and cost.
 */
import { ApiFailure, describeError, getJson, openStream, postJson } from '../api.js';
import { ago, badge, breadcrumb, facts, idCode, statusPill } from '../components.js';
import type { DebateState } from '../debate.js';
import { applyEvent, applyTranscript, applyVerdict, emptyDebate, isTerminal } from '../debate.js';
import { h, replaceChildren } from '../dom.js';
import { shortId } from '../format.js';
import { readSse } from '../sse.js';
import type { SseMessage } from '../sse.js';
import { recallTask } from '../tasks.js';
import type { Evaluation, EvaluationTask, Task, Transcript } from '../types.js';
import type { EvaluationEvent } from '../../../evaluations/live-events.js';
import { metadataOf } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { DebateView } from './debate-view.js';
import { rubricStamp } from './rubrics.js';
import { sourceLink } from './trace.js';
import { transcriptSection } from './transcript-view.js';
import { aspectsCard, taskCard, usageCard, verdictCard, votesCard } from './verdict-view.js';

const EVENT_TYPES: readonly string[] = ['status', 'call.started', 'call.finished', 'vote', 'verdict'];

/** An SSE message as an evaluation event, or null for a type this viewer does not know. */
export function eventOf(m: SseMessage): EvaluationEvent | null {
  if (!EVENT_TYPES.includes(m.event)) return null;
  return { type: m.event, data: JSON.parse(m.data) as unknown } as EvaluationEvent;
}

type Connection = 'connecting' | 'live' | 'reconnecting' | 'ended';

class EvaluationPage {
  private readonly state: DebateState = emptyDebate();
  private readonly debate = new DebateView();
  private readonly head = h('div', { class: 'page-head' });
  private readonly summaryMain = h('div', { class: 'summary-main' });
  private readonly usageSlot = h('div');
  private readonly statusSlot = h('span', { class: 'status-slot' });
  private readonly cancelButton = h(
    'button',
    { type: 'button', class: 'btn btn-danger btn-small' },
    'Cancel evaluation',
  );
  private readonly transcriptSlot = h('div');
  private readonly notice = h('div', { class: 'notice-slot', role: 'alert' });
  private connection: Connection = 'connecting';
  private frame = 0;
  private lastStatus: string | null = null;

  constructor(
    private readonly ctx: ViewContext,
    private evaluation: Evaluation,
    private readonly task: Task | null,
  ) {
    this.state.status = evaluation.status;
    this.state.callsDone = evaluation.progress.callsDone;
    this.state.callsPlanned = evaluation.progress.callsPlanned;
  }

  mount(): void {
    this.buildHead();
    const summary = h(
      'div',
      { class: 'summary-grid' },
      this.summaryMain,
      h('div', { class: 'summary-side' }, this.usageSlot, taskCard(this.task)),
    );
    replaceChildren(
      this.ctx.root,
      h('div', { class: 'page' }, this.head, this.notice, summary, this.debate.element, this.transcriptSlot),
    );
    this.renderNow();
    // Durations tick while the debate runs.
    const timer = window.setInterval(() => {
      if (!this.state.ended) this.render();
    }, 1000);
    this.ctx.signal.addEventListener('abort', () => {
      window.clearInterval(timer);
      cancelAnimationFrame(this.frame);
    });
  }

  /** Streams the events until the evaluation ends, then loads the transcript and final figures. */
  async follow(): Promise<void> {
    const { signal } = this.ctx;
    let delay = 1000;
    // A method, not the field: the checker cannot see `onMessage` setting it during the read.
    const ended = () => this.state.ended;
    while (!ended()) {
      try {
        const response = await openStream(this.evaluation.links.events, signal);
        this.setConnection('live');
        this.showNotice(null);
        if (!response.body) throw new Error('the event stream has no body');
        await readSse(
          response.body,
          (m) => {
            this.onMessage(m);
          },
          signal,
        );
        delay = 1000;
      } catch (e) {
        if (signal.aborted) return;
        if (e instanceof ApiFailure && (e.unauthorized || e.status === 404)) throw e;
        this.showNotice(`Live updates interrupted: ${describeError(e)}. Reconnecting…`);
        delay = Math.min(delay * 2, 15_000);
      }
      if (!ended()) {
        this.setConnection('reconnecting');
        await sleep(delay, signal);
      }
    }
    await this.loadFinal();
  }

  private onMessage(m: SseMessage): void {
    const event = eventOf(m);
    if (!event) return;
    applyEvent(this.state, event);
    if (event.type === 'verdict') this.ctx.announce(this.verdictAnnouncement());
    if (this.state.status !== this.lastStatus && this.state.status !== null) {
      this.lastStatus = this.state.status;
      this.ctx.announce(`Evaluation ${this.state.status}`);
    }
    this.render();
  }

  private verdictAnnouncement(): string {
    const v = this.state.verdict;
    if (!v) return 'Verdict received';
    return v.taskKind === 'pairwise'
      ? `Verdict: ${v.winner === 'tie' || !v.winner ? 'tie' : `answer ${v.winner} is better`}`
      : `Verdict: score ${String(v.score)}`;
  }

  private async loadFinal(): Promise<void> {
    const { signal } = this.ctx;
    this.setConnection('ended');
    for (let attempt = 0; attempt < 10; attempt++) {
      const [ev, transcript] = await Promise.all([
        getJson<Evaluation>(this.evaluation.links.self, signal),
        getJson<Transcript>(this.evaluation.links.transcript, signal),
      ]);
      this.evaluation = ev;
      this.state.status = ev.status;
      if (ev.verdict && !this.state.verdict) applyVerdict(this.state, ev.verdict);
      if (ev.error && !this.state.error) this.state.error = { code: ev.error.code, message: ev.error.message };
      applyTranscript(this.state, transcript);
      if (transcript.complete) break;
      // The final write lands just after the terminal event; the transcript says when it did.
      await sleep(500, signal);
    }
    this.renderNow();
  }

  private async cancel(button: HTMLButtonElement): Promise<void> {
    if (!window.confirm('Cancel this evaluation? Calls already in flight are still billed.')) return;
    button.disabled = true;
    try {
      await postJson(this.evaluation.links.cancel, { reason: 'cancelled from the viewer' });
      this.ctx.announce('Cancel requested');
    } catch (e) {
      button.disabled = false;
      this.showNotice(`Could not cancel: ${describeError(e)}`);
    }
  }

  private setConnection(c: Connection): void {
    this.connection = c;
    this.render();
  }

  private showNotice(text: string | null): void {
    replaceChildren(this.notice, text === null ? null : h('p', { class: 'notice notice-warn' }, text));
  }

  /** Renders on the next frame (events often come in bursts). */
  private render(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  private renderNow(): void {
    if (this.ctx.signal.aborted) return;
    this.renderHead();
    replaceChildren(
      this.summaryMain,
      verdictCard(this.state, this.task),
      aspectsCard(this.state),
      votesCard(this.state),
    );
    replaceChildren(this.usageSlot, usageCard(this.state, this.evaluation));
    this.debate.update(this.state);
    if (this.state.transcriptMerged && this.transcriptSlot.childElementCount === 0)
      replaceChildren(this.transcriptSlot, transcriptSection(this.state));
  }

  /** The title, breadcrumb and facts, built once (the cancel button keeps its focus); only the status changes. */
  private buildHead(): void {
    const ev = this.evaluation;
    const metadata = metadataOf(ev);
    this.cancelButton.addEventListener('click', () => {
      void this.cancel(this.cancelButton);
    });
    replaceChildren(
      this.head,
      breadcrumb(
        [
          ['Evaluations', '#/'],
          ...(ev.metaId ? [[shortId(ev.metaId), `#/meta/${encodeURIComponent(ev.metaId)}`] as const] : []),
        ],
        shortId(ev.id),
      ),
      h(
        'div',
        { class: 'title-row' },
        h('h1', null, ev.preset ?? ev.method),
        this.statusSlot,
        h('span', { class: 'spacer' }),
        this.cancelButton,
      ),
      facts(
        [
          ['Evaluation', idCode(ev.id)],
          ['Method', ev.method],
          ['Task', ev.taskKind],
          ['Created', ago(ev.createdAt)],
          ev.rubric ? ['Rubric', rubricStamp(ev.rubric)] : null,
          ev.source ? ['Trace', sourceLink(ev.source)] : null,
          metadata && Object.keys(metadata).length > 0
            ? [
                'Metadata',
                Object.entries(metadata)
                  .map(([k, v]) => `${k}=${String(v)}`)
                  .join(', '),
              ]
            : null,
        ],
        'facts facts-inline',
      ),
    );
  }

  private renderHead(): void {
    const status = this.state.status ?? this.evaluation.status;
    const live = this.connection === 'live' && !isTerminal(status);
    replaceChildren(
      this.statusSlot,
      statusPill(status),
      live
        ? badge('live', 'info', 'Receiving events as they happen')
        : this.connection === 'reconnecting'
          ? badge('reconnecting', 'warn')
          : null,
    );
    this.cancelButton.hidden = isTerminal(status);
  }
}

/**
 * The task of evaluation `id`: remembered by the tab that submitted it, else `GET /v1/evaluations/{id}/task`;
 * null when neither has it (a deployment without that route, or a task no longer kept).
 */
async function taskOf(id: string, signal: AbortSignal): Promise<Task | null> {
  const remembered = recallTask(id);
  if (remembered) return remembered;
  try {
    return (await getJson<EvaluationTask>(`/v1/evaluations/${encodeURIComponent(id)}/task`, signal)).task;
  } catch (e) {
    if (e instanceof ApiFailure && e.unauthorized) throw e;
    return null;
  }
}

/** The evaluation page. */
export const evaluationView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const [evaluation, task] = await Promise.all([
    getJson<Evaluation>(`/v1/evaluations/${encodeURIComponent(id)}`, ctx.signal),
    taskOf(id, ctx.signal),
  ]);
  setTitle(`${evaluation.preset ?? evaluation.method} ${shortId(id)}`);
  const page = new EvaluationPage(ctx, evaluation, task);
  page.mount();
  page.follow().catch((e: unknown) => {
    ctx.fail(e);
  });
};
