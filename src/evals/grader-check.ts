/**
 * @module
 * The checks on graders that their schemas cannot make, each a 400 naming the field: templates that read
 * a field the item schema does not have (or the sample where there is none), thresholds outside the score's
 * range, passing labels that are not labels, a `calculate_output` that does not parse or names an unknown
 * grader, image or audio content (model graders take text here), a Tribunal judge name that names no
 * preset or a judge given other messages than one user message. `python` is refused with
 * `unsupported_grader`, naming the graders that cover it.
 */
import { ApiError, invalidRequest } from '../http/errors.js';
import type { Issue } from '../http/errors.js';
import { ExpressionError, parseExpression } from './expression.js';
import type { Grader, GraderMessage, RunnableGrader, SingleGrader } from './grader-schemas.js';
import { RUNNABLE_TYPES } from './grader-schemas.js';
import { rangeOf } from './graders.js';
import { isJudgeModel, judgeModelIssues } from './judge-grader.js';
import { referencesOf } from './templates.js';

/** What the graders of one place may read. */
export interface GraderScope {
  /** The item's JSON Schema, whose `properties` templates must name; null: any item field. */
  itemSchema: Record<string, unknown> | null;
  /** Whether `{{sample.*}}` has a value (a sample is generated or given). */
  sample: boolean;
  /** Whether `text_similarity` needs `pass_threshold` (in an eval's criteria, as OpenAI's; never inside `multi`). */
  requireThreshold: boolean;
}

/** The 400 of a `python` grader at `path`. */
export function unsupportedGrader(path: string): ApiError {
  const message =
    `${path}: python graders are not run by Tribunal (no sandbox in the Worker); use ${RUNNABLE_TYPES.join(', ')}, ` +
    'or a model grader whose model is a Tribunal judge';
  return new ApiError(400, 'unsupported_grader', message, [{ path: `${path}.type`, message }]);
}

/** A JSON Schema level's `properties`, or null when it lists none (any field). */
export function propertiesOf(schema: unknown): Record<string, unknown> | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const props = (schema as { properties?: unknown }).properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : null;
}

function checkTemplate(template: string, path: string, scope: GraderScope, issues: Issue[]): void {
  for (const ref of referencesOf(template)) {
    if (ref.namespace === 'item') {
      let schema: unknown = scope.itemSchema;
      for (const key of ref.path) {
        const props = propertiesOf(schema);
        if (!props) break;
        if (!(key in props)) {
          issues.push({ path, message: `{{${ref.raw}}} names "${key}", which the item schema does not have` });
          break;
        }
        schema = props[key];
      }
    } else if (ref.namespace === 'sample') {
      const [field, ...rest] = ref.path;
      if (!scope.sample) {
        issues.push({
          path,
          message: `{{${ref.raw}}} reads the sample, and there is none (set data_source_config.include_sample_schema)`,
        });
      } else if (!(field === 'output_json' || (field === 'output_text' && rest.length === 0))) {
        issues.push({ path, message: `{{${ref.raw}}}: the sample has output_text and output_json` });
      }
    } else {
      issues.push({ path, message: `{{${ref.raw}}}: templates read item.<field> or sample.output_text / output_json` });
    }
  }
}

function checkMessages(input: readonly GraderMessage[], path: string, scope: GraderScope, issues: Issue[]): void {
  for (const [i, m] of input.entries()) {
    const parts = Array.isArray(m.content) ? m.content : [m.content];
    for (const part of parts) {
      const at = `${path}.${String(i)}.content`;
      if (typeof part === 'string') checkTemplate(part, at, scope, issues);
      else if (part.type === 'input_text' || part.type === 'output_text') checkTemplate(part.text, at, scope, issues);
      else issues.push({ path: at, message: `${part.type} is not supported: model graders take text` });
    }
  }
}

/** A model grader's model: a Tribunal judge takes one user message; a rubric goes in the task, not the model. */
function checkModel(grader: { model: string; input: readonly GraderMessage[] }, path: string, issues: Issue[]): void {
  if (isJudgeModel(grader.model)) {
    issues.push(...judgeModelIssues(grader.model, grader.input, { model: `${path}.model`, input: `${path}.input` }));
  } else if (grader.model.startsWith('rb_')) {
    issues.push({
      path: `${path}.model`,
      message:
        'a rubric is not a model: name a judge as "tribunal/<preset>" (GET /v1/models lists them) and give the rubric in the task JSON\'s "rubric" field',
    });
  }
}

function checkOne(grader: Grader | SingleGrader, path: string, scope: GraderScope, issues: Issue[]): void {
  switch (grader.type) {
    case 'python':
      throw unsupportedGrader(path);
    case 'string_check':
      checkTemplate(grader.input, `${path}.input`, scope, issues);
      checkTemplate(grader.reference, `${path}.reference`, scope, issues);
      return;
    case 'text_similarity': {
      checkTemplate(grader.input, `${path}.input`, scope, issues);
      checkTemplate(grader.reference, `${path}.reference`, scope, issues);
      const t = grader.pass_threshold;
      if (t === undefined && scope.requireThreshold) {
        issues.push({
          path: `${path}.pass_threshold`,
          message: 'required: the score in [0, 1] at which an item passes',
        });
      } else if (t !== undefined && (t < 0 || t > 1)) {
        issues.push({ path: `${path}.pass_threshold`, message: `${String(t)} is outside the score's range [0, 1]` });
      }
      return;
    }
    case 'label_model': {
      checkModel(grader, path, issues);
      checkMessages(grader.input, `${path}.input`, scope, issues);
      if (new Set(grader.labels).size !== grader.labels.length) {
        issues.push({ path: `${path}.labels`, message: 'labels must be distinct' });
      }
      for (const [i, l] of grader.passing_labels.entries()) {
        if (!grader.labels.includes(l)) {
          issues.push({ path: `${path}.passing_labels.${String(i)}`, message: `"${l}" is not one of labels` });
        }
      }
      return;
    }
    case 'score_model': {
      checkModel(grader, path, issues);
      checkMessages(grader.input, `${path}.input`, scope, issues);
      const [min, max] = rangeOf(grader);
      if (!(min < max)) issues.push({ path: `${path}.range`, message: 'range is [min, max] with min < max' });
      const t = grader.pass_threshold;
      if (t !== undefined && (t < min || t > max)) {
        issues.push({
          path: `${path}.pass_threshold`,
          message: `${String(t)} is outside the score's range [${String(min)}, ${String(max)}]`,
        });
      }
      return;
    }
    case 'multi': {
      const names = Object.keys(grader.graders);
      if (names.length === 0) issues.push({ path: `${path}.graders`, message: 'name at least one grader' });
      // A sub-grader gives a score to `calculate_output`, never a pass of its own: no threshold is needed (the
      // SDK's `TextSimilarityGrader` type, the one a multi grader's graders take, has none).
      const inner = { ...scope, requireThreshold: false };
      for (const [key, g] of Object.entries(grader.graders)) checkOne(g, `${path}.graders.${key}`, inner, issues);
      try {
        parseExpression(grader.calculate_output, names);
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        issues.push({ path: `${path}.calculate_output`, message: e.message });
      }
      return;
    }
  }
}

/**
 * The graders, checked (see the module note); `prefix` is where they stand (`testing_criteria`).
 * @throws ApiError 400 `unsupported_grader` (python), else `invalid_request` naming every field.
 */
export function checkGraders(graders: readonly Grader[], prefix: string, scope: GraderScope): RunnableGrader[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const [i, g] of graders.entries()) {
    const path = `${prefix}.${String(i)}`;
    checkOne(g, path, scope, issues);
    if (seen.has(g.name)) issues.push({ path: `${path}.name`, message: `"${g.name}" names another grader too` });
    seen.add(g.name);
  }
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
  return graders as RunnableGrader[];
}

/** One grader (graders run / validate), checked as {@link checkGraders}; `path` is `grader`. */
export function checkGrader(grader: Grader, path: string, scope: GraderScope): RunnableGrader {
  const issues: Issue[] = [];
  checkOne(grader, path, scope, issues);
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
  return grader as RunnableGrader;
}

/**
 * A `completions` run's `input_messages` template, checked as a model grader's input (item fields only:
 * the sample does not exist yet). @throws ApiError 400 naming the field.
 */
export function checkSamplerMessages(
  input: readonly GraderMessage[],
  path: string,
  itemSchema: Record<string, unknown> | null,
): void {
  const issues: Issue[] = [];
  checkMessages(input, path, { itemSchema, sample: false, requireThreshold: false }, issues);
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
}
