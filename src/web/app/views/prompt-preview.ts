/**
 * @module
 * The submit form's "Show the prompts": the exact requests an evaluation of the form's task would send first,
 * rendered by `POST /v1/estimates` with `include: ["prompts"]` (no LLM call), each with its agent, stage, model
 * and chat messages. A debate shows its first round: later calls carry replies only a real run has.
 */
import { ApiFailure, describeError, postJson } from '../api.js';
import { card, facts } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import type { CreateEvaluationRequest, Estimate, EstimateRequest, RenderedCall } from '../types.js';

function callView(c: RenderedCall, i: number): HTMLElement {
  return h(
    'section',
    { class: 'rendered-call', 'aria-labelledby': `rendered-call-${i}` },
    h('h3', { id: `rendered-call-${i}` }, `${i + 1}. ${c.label} · ${c.stage}`),
    facts([
      ['Call', h('code', null, c.id)],
      ['Model', `${c.model} (${c.provider}), temperature ${c.temperature}, up to ${c.maxTokens} tokens`],
    ]),
    c.messages.map((m) =>
      h(
        'div',
        { class: 'task-text' },
        h('h4', null, m.name ? `${m.role} (${m.name})` : m.role),
        h('p', null, m.content),
      ),
    ),
  );
}

/**
 * A "Show the prompts" button and the panel it fills. `body` reads the form (null: the form shows what to fix);
 * the estimate takes no `cache` or `idempotency`, so only what shapes the prompts is sent.
 */
export function promptPreview(
  body: () => CreateEvaluationRequest | null,
  fail: (e: unknown) => void,
): {
  button: HTMLButtonElement;
  panel: HTMLElement;
} {
  const button = h('button', { type: 'button', class: 'btn' }, 'Show the prompts');
  const panel = h('div', { class: 'prompt-preview', 'aria-live': 'polite' });
  button.addEventListener('click', () => {
    const b = body();
    if (!b) return;
    const request: EstimateRequest = {
      task: b.task,
      ...(b.preset !== undefined ? { preset: b.preset } : {}),
      ...(b.config !== undefined ? { config: b.config } : {}),
      ...(b.rubric !== undefined ? { rubric: b.rubric } : {}),
      ...(b.tier !== undefined ? { tier: b.tier } : {}),
      include: ['prompts'],
    };
    button.disabled = true;
    postJson<Estimate>('/v1/estimates', request).then(
      (e) => {
        button.disabled = false;
        const p = e.prompts;
        replaceChildren(
          panel,
          card(
            'Rendered prompts',
            h('p', { class: 'muted small' }, p ? p.note : 'This deployment did not render the prompts.'),
            p ? p.calls.map(callView) : null,
          ),
        );
      },
      (e: unknown) => {
        button.disabled = false;
        if (e instanceof ApiFailure && e.unauthorized) {
          fail(e);
          return;
        }
        const issues = e instanceof ApiFailure ? e.issues : [];
        replaceChildren(
          panel,
          h(
            'div',
            { class: 'notice notice-error', role: 'alert' },
            h('p', null, `The prompts could not be rendered: ${describeError(e)}`),
            issues.length > 0
              ? h(
                  'ul',
                  null,
                  issues.map((i) => h('li', null, `${i.path}: ${i.message}`)),
                )
              : null,
          ),
        );
      },
    );
  });
  return { button, panel };
}
