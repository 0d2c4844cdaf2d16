/**
 * @module
 * What a single judge sends for a task: which templates (the config's, its reference-guided or multi-turn
 * pair, or the one-call form for several aspects), the values of their placeholders, a rubric's criteria in
 * the templates' slot (`slots.ts`), and the reader of the reply. Checked once, at `init`.
 */
import type { ChatMessage } from '../../call.js';
import type { JudgedTask } from '../../judged.js';
import type { ParserSpec } from '../../parsers/spec.js';
import { EngineInputError } from '../../errors.js';
import { criteriaText, renderWithCriteria, requireSlots } from '../../slots.js';
import { capitalise, renderTemplate, unknownPlaceholders } from '../../template.js';
import { ASPECT_DESCRIPTIONS, GENERIC_STEPS } from './aspects.js';
import type { SingleAgentConfig } from './config.js';
import {
  ASPECTS_PLACEHOLDERS,
  MULTI_TURN_PLACEHOLDERS,
  PAIRWISE_PLACEHOLDERS,
  POINTWISE_PLACEHOLDERS,
  yields,
} from './config.js';
import { fastChatTurnsOf, multiTurnVars } from './fastchat.js';
import { GEVAL_RUBRIC_STEPS } from './geval-prompts.js';
import { ASPECTS_JSON_TEMPLATE } from './prompts.js';
import { SINGLE_SLOT_PLACEHOLDERS, SINGLE_SLOTS } from './slots.js';

/** Which of the config's forms judges the task. */
export type Form = 'plain' | 'reference' | 'multi-turn' | 'multi-turn-reference' | 'aspects';

/** The (system, user) templates for a task, the config fields they come from and the form. */
export interface Templates {
  system: string;
  user: string;
  fields: { system: string; user: string };
  form: Form;
}

/** The templates for this task (see the module notes). */
export function templatesFor(config: SingleAgentConfig, task: JudgedTask): Templates {
  if (task.kind === 'pairwise') {
    const mt = config.multiTurn;
    if (mt && fastChatTurnsOf(task)) {
      return task.reference !== undefined && mt.referenceTemplate !== ''
        ? {
            system: mt.referenceSystemPrompt,
            user: mt.referenceTemplate,
            fields: { system: 'config.multiTurn.referenceSystemPrompt', user: 'config.multiTurn.referenceTemplate' },
            form: 'multi-turn-reference',
          }
        : {
            system: mt.systemPrompt,
            user: mt.template,
            fields: { system: 'config.multiTurn.systemPrompt', user: 'config.multiTurn.template' },
            form: 'multi-turn',
          };
    }
    if (task.reference !== undefined && config.referenceTemplate !== '')
      return {
        system: config.referenceSystemPrompt,
        user: config.referenceTemplate,
        fields: { system: 'config.referenceSystemPrompt', user: 'config.referenceTemplate' },
        form: 'reference',
      };
    return {
      system: config.systemPrompt,
      user: config.template,
      fields: { system: 'config.systemPrompt', user: 'config.template' },
      form: 'plain',
    };
  }
  if (task.aspects !== undefined && config.aspectsInOneCall)
    return {
      system: config.systemPrompt,
      user: config.aspectsTemplate ?? ASPECTS_JSON_TEMPLATE,
      fields: { system: 'config.systemPrompt', user: 'config.aspectsTemplate' },
      form: 'aspects',
    };
  const name = task.aspect.name.toLowerCase();
  const byAspect = config.templatesByAspect[name];
  return {
    system: config.systemPrompt,
    user: byAspect ?? config.template,
    fields: { system: 'config.systemPrompt', user: byAspect ? `config.templatesByAspect.${name}` : 'config.template' },
    form: 'plain',
  };
}

/** The placeholders the form's templates may use. */
function allowedIn(form: Form, kind: JudgedTask['kind']): readonly string[] {
  if (form === 'aspects') return ASPECTS_PLACEHOLDERS;
  if (form === 'multi-turn' || form === 'multi-turn-reference') return MULTI_TURN_PLACEHOLDERS;
  return kind === 'pairwise' ? PAIRWISE_PLACEHOLDERS : POINTWISE_PLACEHOLDERS;
}

/** Whether the templates use only placeholders a `kind` task provides (and at least one of its own). */
function fitsKind(t: Templates, kind: JudgedTask['kind']): boolean {
  const allowed = allowedIn('plain', kind);
  return unknownPlaceholders(t.system, allowed).length === 0 && unknownPlaceholders(t.user, allowed).length === 0;
}

const uses = (t: Templates, name: string): boolean => new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`).test(t.system + t.user);

/** The one-call form's answer object: one key per aspect, its reason and its score on its scale. */
function jsonFormat(task: Extract<JudgedTask, { kind: 'pointwise' }>): string {
  const lines = (task.aspects ?? []).map(
    (a) =>
      `  ${JSON.stringify(a.name)}: {"rationale": "<your reason>", "score": <a number from ${a.scale.min} to ${a.scale.max}>}`,
  );
  // A trajectory's reply also names the first step that went wrong, so the verdict can point at its span.
  if (task.steps !== undefined)
    lines.push(`  "first_failing_step": <the number of the first step that went wrong, or null if none did>`);
  return `{\n${lines.join(',\n')}\n}`;
}

/** The one-call form's aspect list: each aspect with its scale and what it judges. */
function aspectList(task: Extract<JudgedTask, { kind: 'pointwise' }>): string {
  return (task.aspects ?? [])
    .map((a) => {
      const says = a.criteria ? criteriaText(a.criteria, true) : (a.description ?? '');
      return `- ${a.name} (${a.scale.min}-${a.scale.max})${says !== '' ? `: ${says}` : ''}`;
    })
    .join('\n\n');
}

/** Template values for the task; missing optional task fields render as `(none)`. */
export function varsFor(config: SingleAgentConfig, task: JudgedTask, t: Templates): Record<string, string | number> {
  const c = task.criteria;
  if (task.kind === 'pairwise') {
    const criteria: Record<string, string> = c ? { criteria: criteriaText(c, true) } : {};
    const turns = t.form === 'multi-turn' || t.form === 'multi-turn-reference' ? fastChatTurnsOf(task) : undefined;
    if (turns) return { ...multiTurnVars(...turns), ...criteria };
    return {
      question: task.question,
      answer_a: task.answerA,
      answer_b: task.answerB,
      reference: task.reference ?? '(none)',
      ...criteria,
    };
  }
  const inputs = {
    source: task.source,
    context: task.context ?? '(none)',
    output: task.output,
    reference: task.reference ?? '(none)',
  };
  if (t.form === 'aspects')
    return {
      ...inputs,
      criteria: c ? criteriaText(c, true) : 'Each aspect below says what it judges.',
      aspects: aspectList(task),
      json_format: jsonFormat(task),
    };
  const { name, scale } = task.aspect;
  const known = ASPECT_DESCRIPTIONS[config.aspectSet][name.toLowerCase()];
  const scaleVars = { aspect: capitalise(name), min: scale.min, max: scale.max };
  // A rubric's criteria stand where the aspect's description does; its steps where the aspect's steps do (or,
  // in a template without a steps slot, after its criteria).
  const description = c
    ? criteriaText(c, !uses(t, 'evaluation_steps'))
    : (task.aspect.description ?? known?.description ?? '');
  const steps = c
    ? (c.steps ?? renderTemplate(GEVAL_RUBRIC_STEPS, { aspect: name, min: scale.min, max: scale.max }))
    : renderTemplate(known?.steps ?? GENERIC_STEPS, scaleVars);
  return {
    ...scaleVars,
    ...inputs,
    Document: task.source,
    Summary: task.output,
    aspect_description: description,
    criteria: description,
    evaluation_steps: steps,
  };
}

/** The parser for this task: the one-call form's own; pointwise scoring parsers with bounds take the aspect's scale. */
export function parserFor(config: SingleAgentConfig, task: JudgedTask, t: Templates): ParserSpec {
  if (t.form === 'aspects' && task.kind === 'pointwise')
    return {
      type: 'aspect-scores',
      aspects: (task.aspects ?? []).map((a) => ({ name: a.name, min: a.scale.min, max: a.scale.max })),
      ...(task.steps !== undefined ? { steps: task.steps.length } : {}),
    };
  const spec = config.parser;
  if (task.kind !== 'pointwise' || !('min' in spec)) return spec;
  return { ...spec, min: task.aspect.scale.min, max: task.aspect.scale.max };
}

/** The messages of one sample: the system message (if any) and the prompt, or the prompt as the system message. */
export function messagesFor(config: SingleAgentConfig, task: JudgedTask): ChatMessage[] {
  const t = templatesFor(config, task);
  const vars = varsFor(config, task, t);
  const options = task.kind === 'pointwise' ? { aspect: task.aspect, fallbackSteps: GEVAL_RUBRIC_STEPS } : {};
  const render = (template: string) => renderWithCriteria(template, vars, task.criteria, SINGLE_SLOTS, options);
  const prompt = render(t.user);
  if (config.templateRole === 'system') return [{ role: 'system', content: prompt }];
  return [
    ...(t.system !== '' ? [{ role: 'system' as const, content: render(t.system) }] : []),
    { role: 'user', content: prompt },
  ];
}

/** Checks the config fits the task (and the rubric, if any). @throws EngineInputError when it does not. */
export function checkFits(config: SingleAgentConfig, task: JudgedTask): void {
  const t = templatesFor(config, task);
  const allowed = allowedIn(t.form, task.kind);
  const bad = [...new Set([...unknownPlaceholders(t.system, allowed), ...unknownPlaceholders(t.user, allowed)])];
  const other = task.kind === 'pairwise' ? 'pointwise' : 'pairwise';
  // Templates written for the other kind (a pairwise preset sent a pointwise task): the judge does not take
  // this kind at all, which is what `task_kind_unsupported` says, not a fault in a template of the caller's.
  if (bad.length > 0 && t.form === 'plain' && fitsKind(t, other))
    throw new EngineInputError(
      `task.kind: this judge's prompts are written for ${other} tasks, not ${task.kind} ones; use a ${task.kind} preset or template`,
      'task_kind_unsupported',
    );
  if (bad.length > 0) {
    throw new EngineInputError(
      `the template uses ${bad.map((b) => `{{${b}}}`).join(', ')}, which a ${task.kind} task does not provide; use a ${task.kind} preset or template`,
      'template_task_mismatch',
    );
  }
  // A preset's prompts have no slot for it: the authors' text stays as it is, and the field is refused, not ignored.
  if (task.kind === 'pointwise' && task.reference !== undefined && !uses(t, 'reference'))
    throw new EngineInputError(
      `task.reference: this judge's template (${t.fields.user}) has no {{reference}} slot for the expected output; use a template with {{reference}}, or leave it out`,
      'invalid_task',
    );
  const want = task.kind === 'pairwise' ? 'pair' : 'score';
  if (t.form !== 'aspects' && yields(config.parser) !== want)
    throw new EngineInputError(
      `parser "${config.parser.type}" does not fit a ${task.kind} task`,
      'parser_task_mismatch',
    );
  if (task.kind === 'pairwise' && !task.criteria && uses(t, 'criteria'))
    throw new EngineInputError(
      `rubric: the template in ${t.fields.user} uses {{criteria}}, which a rubric fills: give a rubric`,
      'template_task_mismatch',
    );
  if (
    task.kind === 'pointwise' &&
    t.form === 'plain' &&
    !task.criteria &&
    (uses(t, 'aspect_description') || uses(t, 'criteria'))
  ) {
    const known = ASPECT_DESCRIPTIONS[config.aspectSet][task.aspect.name.toLowerCase()];
    if (task.aspect.description === undefined && !known) {
      throw new EngineInputError(
        `aspect "${task.aspect.name}" is not in the ${config.aspectSet} set (${Object.keys(ASPECT_DESCRIPTIONS[config.aspectSet]).join(', ')}); give aspect.description`,
        'aspect_description_required',
      );
    }
  }
  if (t.form !== 'aspects')
    requireSlots(
      task.criteria,
      [
        { field: t.fields.system, template: t.system },
        { field: t.fields.user, template: t.user },
      ],
      SINGLE_SLOTS,
      SINGLE_SLOT_PLACEHOLDERS,
    );
}

/** Whether the judged task went through the reference-guided or the multi-turn form (verdict details). */
export function formDetails(t: Templates): { usedReference: boolean; multiTurn?: true } {
  return {
    usedReference: t.form === 'reference' || t.form === 'multi-turn-reference',
    ...(t.form === 'multi-turn' || t.form === 'multi-turn-reference' ? { multiTurn: true as const } : {}),
  };
}
