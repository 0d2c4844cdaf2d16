/**
 * @module
 * `#/new`: submit a task with any preset of `GET /v1/methods`, at a service tier, with the verdict cache's
 * mode. The fields follow the preset's task kind;
 * config overrides, metadata and an inline rubric are optional JSON. A stored rubric is picked from the
 * tenant's list or typed as rb_…, and its page opens from the field (`#/new?rubric=rb_…@n` fills it in).
 * The API validates everything; its field issues (`task.answerA`, `config.turns`) are shown next to the
 * fields they name. A resubmission of the same body (double click, retry after a network error) reuses
 * its `Idempotency-Key`, so it never creates a second evaluation.
 */
import { ApiFailure, describeError, getJson, postJson } from '../api.js';
import { promptPreview } from './prompt-preview.js';
import { h, replaceChildren } from '../dom.js';
import { rememberTask } from '../tasks.js';
import type { RubricList, CreateEvaluationRequest, EvaluationAccepted, MethodsResponse, Task } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import { rubricPicker } from './rubric-picker.js';
import type { Field, FieldName } from './submit-fields.js';
import {
  area,
  CACHE_MODES,
  EXAMPLES,
  field,
  jsonObject,
  JUDGE_ERROR_FIELDS,
  presetOptions,
  TIERS,
  fieldOfIssue,
} from './submit-fields.js';

/** The submit form. */
export const submitView: View = async (ctx) => {
  setTitle('New evaluation');
  const { presets } = await getJson<MethodsResponse>('/v1/methods', ctx.signal);
  // The tenant's rubrics to pick from (a deployment or key without the list still takes a typed reference).
  const rubrics = await getJson<RubricList>('/v1/rubrics?limit=100', ctx.signal).catch(() => ({ data: [] }));
  const select = h(
    'select',
    { required: true },
    presetOptions(presets, 'pairwise'),
    presetOptions(presets, 'pointwise'),
  );
  const wanted = ctx.query.get('preset');
  select.value = presets.some((p) => p.id === wanted)
    ? (wanted ?? '')
    : presets.some((p) => p.id === 'chateval-faireval')
      ? 'chateval-faireval'
      : (presets[0]?.id ?? '');

  const f = {
    preset: field('preset', 'Preset', select),
    question: field('question', 'Question', area(3, true), 'The user question both answers respond to.'),
    answerA: field('answerA', 'Answer A', area(6, true)),
    answerB: field('answerB', 'Answer B', area(6, true)),
    reference: field('reference', 'Reference answer (optional)', area(3), 'For reference-guided judges (maths, code).'),
    aspect: field(
      'aspect',
      'Aspect',
      h('input', { type: 'text', required: true, value: 'coherence' }),
      'e.g. coherence, fluency, naturalness, groundedness.',
    ),
    scaleMin: field(
      'scaleMin',
      'Scale from',
      h('input', { type: 'number', required: true, value: '1', step: '1', inputmode: 'numeric' }),
    ),
    scaleMax: field(
      'scaleMax',
      'to',
      h('input', { type: 'number', required: true, value: '5', step: '1', inputmode: 'numeric' }),
    ),
    aspectDescription: field(
      'aspectDescription',
      'Aspect description (optional)',
      area(2),
      "Presets fill it in for the papers' aspects.",
    ),
    source: field(
      'source',
      'Source',
      area(6, true),
      'The input the output was produced from: an article, a dialogue, a question.',
    ),
    context: field(
      'context',
      'Context (optional)',
      area(2),
      'Extra facts some aspects need (Topical-Chat groundedness).',
    ),
    output: field('output', 'Output', area(4, true), 'The text being scored.'),
    config: field(
      'config',
      'Config overrides (JSON, optional)',
      area(4),
      'Deep-merged over the preset, e.g. {"turns": 1} or {"defaults": {"model": "gpt-4o-mini"}}.',
    ),
    rubric: field(
      'rubric',
      'Rubric (optional)',
      h('input', { type: 'text', list: 'rubric-options', autocomplete: 'off', spellcheck: 'false' }),
      'Your own criteria: rb_… (latest), rb_…@2, rb_…#prod, or an inline rubric as JSON.',
    ),
    tier: field(
      'tier',
      'Service tier',
      h(
        'select',
        null,
        TIERS.map(([v, l]) => h('option', { value: v }, l)),
      ),
      'Flex and batch cost less and take longer, where the providers offer them.',
    ),
    cache: field(
      'cache',
      'Verdict cache',
      h(
        'select',
        null,
        CACHE_MODES.map(([v, l]) => h('option', { value: v }, l)),
      ),
      'The same task to the same judge again is answered from the cache: 0 LLM calls, $0.',
    ),
    metadata: field(
      'metadata',
      'Metadata (JSON, optional)',
      area(2),
      'Your key-value annotations, echoed back, e.g. {"run": "nightly-42"}.',
    ),
  } satisfies Record<FieldName, Field>;
  for (const x of [f.config, f.metadata, f.rubric]) x.input.classList.add('mono');
  const wantedRubric = ctx.query.get('rubric');
  const picker = rubricPicker(f.rubric.input, rubrics.data, wantedRubric);
  f.rubric.wrap.insertBefore(picker.open, f.rubric.error);

  const about = h('div', { class: 'preset-about', 'aria-live': 'polite' });
  const pairwise = h(
    'fieldset',
    { class: 'fieldset' },
    h('legend', null, 'Task'),
    f.question.wrap,
    h('div', { class: 'two-col' }, f.answerA.wrap, f.answerB.wrap),
    f.reference.wrap,
  );
  // A rubric says what a pointwise task is scored on (its scale, its aspects): the task then names no aspect.
  const byRubric = () => f.rubric.input.value.trim() !== '';
  const rubricNote = h(
    'p',
    { class: 'hint', hidden: true },
    "Scored by the rubric: its scale and aspects take these fields' place.",
  );
  const pointwise = h(
    'fieldset',
    { class: 'fieldset' },
    h('legend', null, 'Task'),
    h('div', { class: 'three-col' }, f.aspect.wrap, f.scaleMin.wrap, f.scaleMax.wrap),
    f.aspectDescription.wrap,
    rubricNote,
    f.source.wrap,
    f.context.wrap,
    f.output.wrap,
  );
  const formError = h('div', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Start evaluation');
  const example = h('button', { type: 'button', class: 'btn' }, 'Fill in an example');

  // The form writes pairwise and pointwise tasks; a trajectory preset is listed under neither.
  const kind = (): 'pairwise' | 'pointwise' =>
    presets.find((p) => p.id === select.value)?.taskKind === 'pointwise' ? 'pointwise' : 'pairwise';
  const showAspect = () => {
    const off = kind() !== 'pointwise' || byRubric();
    for (const x of [f.aspect, f.scaleMin, f.scaleMax, f.aspectDescription]) x.input.disabled = off;
    rubricNote.hidden = kind() !== 'pointwise' || !byRubric();
  };
  f.rubric.input.addEventListener('input', showAspect);
  const showPreset = () => {
    const p = presets.find((x) => x.id === select.value);
    pairwise.hidden = kind() !== 'pairwise';
    pointwise.hidden = kind() !== 'pointwise';
    // Hidden fields must not block submission.
    for (const x of [f.question, f.answerA, f.answerB]) x.input.disabled = kind() !== 'pairwise';
    for (const x of [f.source, f.output]) x.input.disabled = kind() !== 'pointwise';
    showAspect();
    replaceChildren(
      about,
      p
        ? [
            h('p', null, p.description),
            h(
              'p',
              { class: 'muted small' },
              `${p.paper} · method ${p.method} · `,
              h('a', { href: `#/presets?preset=${encodeURIComponent(p.id)}` }, 'full config'),
            ),
          ]
        : null,
    );
  };
  select.addEventListener('change', showPreset);
  example.addEventListener('click', () => {
    if (kind() === 'pairwise') {
      f.question.input.value = EXAMPLES.pairwise.question;
      f.answerA.input.value = EXAMPLES.pairwise.answerA;
      f.answerB.input.value = EXAMPLES.pairwise.answerB;
    } else {
      f.source.input.value = EXAMPLES.pointwise.source;
      f.output.input.value = EXAMPLES.pointwise.output;
      f.aspect.input.value = EXAMPLES.pointwise.aspect;
    }
  });

  const clearErrors = () => {
    replaceChildren(formError);
    for (const x of Object.values(f)) {
      x.error.textContent = '';
      x.input.removeAttribute('aria-invalid');
    }
  };
  const fieldError = (name: FieldName, message: string) => {
    const x = f[name];
    x.error.textContent = x.error.textContent ? `${x.error.textContent} ${message}` : message;
    x.input.setAttribute('aria-invalid', 'true');
  };

  const value = (x: Field) => x.input.value;
  const optional = (x: Field) => (value(x).trim() === '' ? undefined : value(x));
  const taskOf = (): Task =>
    kind() === 'pairwise'
      ? {
          kind: 'pairwise',
          question: value(f.question),
          answerA: value(f.answerA),
          answerB: value(f.answerB),
          ...(optional(f.reference) !== undefined ? { reference: value(f.reference) } : {}),
        }
      : {
          kind: 'pointwise',
          source: value(f.source),
          output: value(f.output),
          ...(optional(f.context) !== undefined ? { context: value(f.context) } : {}),
          ...(byRubric()
            ? {}
            : {
                aspect: {
                  name: value(f.aspect),
                  scale: { min: Number(value(f.scaleMin)), max: Number(value(f.scaleMax)) },
                  ...(optional(f.aspectDescription) !== undefined ? { description: value(f.aspectDescription) } : {}),
                },
              }),
        };

  // The form's body, read only on a click (readBody is declared below, with the form it reads).
  const preview = promptPreview(() => readBody(), ctx.fail);
  let last: { body: string; key: string } | null = null;
  const form = h(
    'form',
    { class: 'submit-form stack', novalidate: true, 'aria-labelledby': 'new-title' },
    h(
      'fieldset',
      { class: 'fieldset' },
      h('legend', null, 'Judge'),
      f.preset.wrap,
      about,
      h('div', { class: 'two-col' }, f.tier.wrap, f.cache.wrap),
    ),
    pairwise,
    pointwise,
    h(
      'details',
      // Open when a rubric came with the link (a version page's "Judge with this version").
      { class: 'fieldset advanced', open: wantedRubric !== null },
      h('summary', null, 'Advanced: config overrides, rubric and metadata'),
      f.config.wrap,
      f.rubric.wrap,
      picker.datalist,
      f.metadata.wrap,
    ),
    formError,
    h('div', { class: 'row' }, submit, example, preview.button),
  );

  /** The form as a request body; null (the fields marked, the first focused) when something must be fixed. */
  const readBody = (): CreateEvaluationRequest | null => {
    clearErrors();
    const missing = Object.entries(f).filter(
      ([, x]) => x.input.required && !x.input.disabled && x.input.value.trim() === '',
    );
    for (const [name] of missing) fieldError(name as FieldName, 'Required.');
    let body: CreateEvaluationRequest;
    try {
      const config = jsonObject(value(f.config), 'Config overrides');
      const metadata = jsonObject(value(f.metadata), 'Metadata') as CreateEvaluationRequest['metadata'];
      const rubricText = value(f.rubric).trim();
      const rubric = (
        rubricText.startsWith('{') ? jsonObject(rubricText, 'Rubric') : rubricText || undefined
      ) as CreateEvaluationRequest['rubric'];
      body = {
        preset: select.value,
        task: taskOf(),
        ...(config ? { config } : {}),
        ...(metadata ? { metadata } : {}),
        ...(rubric !== undefined ? { rubric } : {}),
        ...(value(f.tier) !== '' ? { tier: value(f.tier) as NonNullable<CreateEvaluationRequest['tier']> } : {}),
        ...(value(f.cache) !== '' ? { cache: value(f.cache) as NonNullable<CreateEvaluationRequest['cache']> } : {}),
      };
    } catch (e) {
      const message = describeError(e);
      fieldError(/^Metadata/.test(message) ? 'metadata' : /^Rubric/.test(message) ? 'rubric' : 'config', message);
      body = { preset: select.value, task: taskOf() };
      missing.push(['config', f.config]);
    }
    if (missing.length > 0) {
      replaceChildren(formError, h('p', { class: 'notice notice-error' }, 'Please fix the highlighted fields.'));
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return null;
    }
    return body;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = readBody();
    if (!body) return;
    const json = JSON.stringify(body);
    if (last?.body !== json) last = { body: json, key: crypto.randomUUID() };
    submit.disabled = true;
    submit.textContent = 'Starting…';
    postJson<EvaluationAccepted>('/v1/evaluations', body, { 'Idempotency-Key': last.key }).then(
      (accepted) => {
        rememberTask(accepted.id, body.task);
        ctx.navigate(`#/evaluations/${encodeURIComponent(accepted.id)}`);
      },
      (e: unknown) => {
        submit.disabled = false;
        submit.textContent = 'Start evaluation';
        if (e instanceof ApiFailure && e.unauthorized) {
          ctx.fail(e);
          return;
        }
        const issues = e instanceof ApiFailure ? e.issues : [];
        // Judge errors come without field issues: the code says which field they are about.
        const judgeField = e instanceof ApiFailure && issues.length === 0 ? JUDGE_ERROR_FIELDS[e.code] : undefined;
        if (judgeField) fieldError(judgeField, e instanceof ApiFailure ? e.message : '');
        const unplaced = issues.filter((i) => {
          const name = fieldOfIssue(i.path);
          if (name) fieldError(name, i.message);
          return name === null;
        });
        replaceChildren(
          formError,
          h(
            'div',
            { class: 'notice notice-error' },
            h('p', null, describeError(e)),
            unplaced.length > 0
              ? h(
                  'ul',
                  null,
                  unplaced.map((i) => h('li', null, `${i.path}: ${i.message}`)),
                )
              : null,
          ),
        );
        (form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? formError).focus();
      },
    );
  });

  showPreset();
  replaceChildren(
    ctx.root,
    h(
      'div',
      { class: 'page page-narrow' },
      h(
        'div',
        { class: 'page-head' },
        h('h1', { id: 'new-title' }, 'New evaluation'),
        h('p', { class: 'muted' }, 'Pick a judge, enter the task, and watch the agents debate it live.'),
      ),
      form,
      preview.panel,
    ),
  );
};
