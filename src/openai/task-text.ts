/**
 * @module
 * The task of a chat completion, read from its one user message. Two conventions:
 *
 * 1. **JSON**: the message is a Task object exactly as `POST /v1/evaluations` takes it (optionally inside
 *    one ```json fence), e.g. `{"kind":"pairwise","question":"…","answerA":"…","answerB":"…"}`; or, to judge by
 *    your own criteria, `{"rubric": "rb_…#prod" | {inline rubric}, "task": {…}}` (the `rubric` field exactly as
 *    `POST /v1/evaluations` takes it).
 * 2. **Plain text with markers**: each marker on a line of its own (text may follow it on the same line),
 *    its section running to the next marker. Markers are case-insensitive.
 *    - pairwise: `[QUESTION]`, `[ANSWER A]`, `[ANSWER B]` (required), `[REFERENCE]` (optional);
 *    - pointwise: `[SOURCE]`, `[OUTPUT]`, `[ASPECT]` (required), `[CONTEXT]` (optional). The `[ASPECT]`
 *      section's first line is the name and scale, `coherence (1-5)`; further lines are its description.
 *
 * Anything that would be ignored is refused instead (400 `invalid_request` naming it): text before the
 * first marker, a marker given twice, pairwise and pointwise markers mixed, a missing required marker.
 */
import type { Issue } from '../http/errors.js';
import { invalidRequest, toIssues } from '../http/errors.js';
import type { Task } from '../engine/task.js';
import { renderConversation } from '../engine/judged.js';
import { TaskSchema } from '../engine/task.js';
import { z } from 'zod';
import type { RubricFieldValue } from '../rubrics/schemas.js';
import { RubricField } from '../rubrics/schemas.js';

/** Which convention a task came in. */
export type TaskForm = 'json' | 'markers';

/** A marker's canonical spelling and the Task field it fills. */
interface MarkerSpec {
  marker: string;
  field: string;
  kind: Task['kind'];
  required: boolean;
}

/** Every marker, in the order the docs list them. */
export const MARKERS: readonly MarkerSpec[] = [
  { marker: '[QUESTION]', field: 'question', kind: 'pairwise', required: true },
  { marker: '[ANSWER A]', field: 'answerA', kind: 'pairwise', required: true },
  { marker: '[ANSWER B]', field: 'answerB', kind: 'pairwise', required: true },
  { marker: '[REFERENCE]', field: 'reference', kind: 'pairwise', required: false },
  { marker: '[SOURCE]', field: 'source', kind: 'pointwise', required: true },
  { marker: '[CONTEXT]', field: 'context', kind: 'pointwise', required: false },
  { marker: '[OUTPUT]', field: 'output', kind: 'pointwise', required: true },
  { marker: '[ASPECT]', field: 'aspect', kind: 'pointwise', required: true },
];

/** A marker line: `[NAME]` at the start (inner spaces, `_` or `-` between words allowed), then optional text. */
const MARKER_LINE =
  /^\s*\[\s*(question|answer[\s_-]*a|answer[\s_-]*b|reference|source|context|output|aspect)\s*\][ \t]*(.*)$/i;

/** The `[ASPECT]` head line: `name (min-max)`; `–`, `to` and `..` also separate the bounds. */
const ASPECT_HEAD = /^(.*?)\s*\(\s*(-?\d+)\s*(?:-|–|to|\.\.)\s*(-?\d+)\s*\)\s*$/i;

/** A whole message that is one fenced block: ```json … ``` (the language tag is optional). */
const FENCED = /^```(?:json)?[ \t]*\n([\s\S]*?)\n```$/i;

function specOf(name: string): MarkerSpec {
  const canonical = `[${name
    .toUpperCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/^ANSWER ?([AB])$/, 'ANSWER $1')}]`;
  const spec = MARKERS.find((m) => m.marker === canonical);
  // Unreachable: MARKER_LINE only matches the names listed in MARKERS.
  if (!spec) throw new Error(`unknown marker ${canonical}`);
  return spec;
}

/**
 * The task in a message's text.
 * @param text the user message's content (text parts already joined)
 * @param at the field path errors name, e.g. `messages.0.content`
 * @throws ApiError 400 `invalid_request` naming what is wrong or missing
 */
export function taskFromText(text: string, at: string): { task: Task; form: TaskForm; rubric?: RubricFieldValue } {
  const trimmed = text.trim();
  const unfenced = FENCED.exec(trimmed)?.[1]?.trim() ?? trimmed;
  if (unfenced.startsWith('{')) return { ...fromJson(unfenced, at), form: 'json' };
  return { task: fromMarkers(text, at), form: 'markers' };
}

/** The JSON form with a rubric: `{"rubric": …, "task": {…}}`. */
const WithRubricSchema = z.object({ rubric: RubricField, task: TaskSchema }).strict();

function fromJson(text: string, at: string): { task: Task; rubric?: RubricFieldValue } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidRequest(
      [{ path: at, message: `the task is not valid JSON: ${err instanceof Error ? err.message : String(err)}` }],
      'task',
    );
  }
  if (typeof value === 'object' && value !== null && ('rubric' in value || 'task' in value)) {
    const withRubric = WithRubricSchema.safeParse(value);
    if (!withRubric.success) throw invalidRequest(toIssues(withRubric.error, at), 'task');
    return withRubric.data;
  }
  const parsed = TaskSchema.safeParse(value);
  if (!parsed.success) throw invalidRequest(toIssues(parsed.error, at), 'task');
  return { task: parsed.data };
}

function fromMarkers(text: string, at: string): Task {
  const sections = new Map<MarkerSpec, string[]>();
  const issues: Issue[] = [];
  const preamble: string[] = [];
  let current: string[] | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = MARKER_LINE.exec(line);
    if (!m) {
      (current ?? preamble).push(line);
      continue;
    }
    const spec = specOf(m[1] ?? '');
    if (sections.has(spec)) issues.push({ path: at, message: `${spec.marker} appears more than once` });
    current = [m[2] ?? ''];
    sections.set(spec, current);
  }
  if (sections.size === 0) {
    throw invalidRequest(
      [
        {
          path: at,
          message:
            'no task found: send a JSON task ({"kind":"pairwise",…} as in POST /v1/evaluations) or plain text with markers: ' +
            '[QUESTION] [ANSWER A] [ANSWER B] (pairwise) or [SOURCE] [OUTPUT] [ASPECT] (pointwise)',
        },
      ],
      'task',
    );
  }
  if (preamble.join('\n').trim() !== '')
    issues.push({
      path: at,
      message: `text before the first marker would be ignored: start the message with a marker`,
    });
  const kinds = new Set([...sections.keys()].map((s) => s.kind));
  if (kinds.size > 1) {
    const list = (k: Task['kind']) =>
      [...sections.keys()]
        .filter((s) => s.kind === k)
        .map((s) => s.marker)
        .join(' ');
    issues.push({
      path: at,
      message: `pairwise markers (${list('pairwise')}) and pointwise markers (${list('pointwise')}) are mixed: a task is one or the other`,
    });
    throw invalidRequest(issues, 'task');
  }
  const kind = [...kinds][0] ?? 'pairwise';
  const missing = MARKERS.filter((m) => m.kind === kind && m.required && !sections.has(m)).map((m) => m.marker);
  if (missing.length > 0) issues.push({ path: at, message: `the ${kind} task is missing ${missing.join(', ')}` });
  if (issues.length > 0) throw invalidRequest(issues, 'task');

  const task: Record<string, unknown> = { kind };
  for (const [spec, lines] of sections) {
    const body = lines.join('\n').trim();
    task[spec.field] = spec.field === 'aspect' ? aspectOf(body, at) : body;
  }
  const parsed = TaskSchema.safeParse(task);
  if (!parsed.success) {
    // Name the marker rather than the JSON field the user never wrote.
    throw invalidRequest(
      toIssues(parsed.error).map((i) => {
        const spec = MARKERS.find((m) => i.path === m.field || i.path.startsWith(`${m.field}.`));
        return { path: at, message: spec ? `${spec.marker}: ${i.message}` : `${i.path}: ${i.message}` };
      }),
      'task',
    );
  }
  return parsed.data;
}

/** The `[ASPECT]` section: `name (min-max)` on its first line, the description after it. */
function aspectOf(body: string, at: string): unknown {
  const [head = '', ...rest] = body.split('\n');
  const m = ASPECT_HEAD.exec(head.trim());
  if (!m) {
    throw invalidRequest(
      [
        {
          path: at,
          message: `[ASPECT] needs its name and scale on its first line, e.g. "coherence (1-5)"; got "${head.trim()}"`,
        },
      ],
      'task',
    );
  }
  const description = rest.join('\n').trim();
  return { name: m[1] ?? '', scale: { min: Number(m[2]), max: Number(m[3]) }, ...(description ? { description } : {}) };
}

/**
 * Renders a task in the plain-text convention (the inverse of {@link taskFromText} for marker tasks):
 * used by the docs, the clients and tests to write what the endpoint reads.
 */
export function taskToText(task: Exclude<Task, { kind: 'trajectory' }>): string {
  // A conversation is written as the engine shows it where the question or source stands.
  const asked = task.kind === 'pairwise' ? task.question : task.source;
  const text = asked ?? renderConversation(task.messages ?? []);
  if (task.kind === 'pairwise') {
    const parts = [`[QUESTION]\n${text}`, `[ANSWER A]\n${task.answerA}`, `[ANSWER B]\n${task.answerB}`];
    if (task.reference !== undefined) parts.push(`[REFERENCE]\n${task.reference}`);
    return parts.join('\n');
  }
  const parts = [`[SOURCE]\n${text}`];
  if (task.context !== undefined) parts.push(`[CONTEXT]\n${task.context}`);
  parts.push(`[OUTPUT]\n${task.output}`);
  const a = task.aspect;
  if (a) parts.push(`[ASPECT]\n${a.name} (${a.scale.min}-${a.scale.max})${a.description ? `\n${a.description}` : ''}`);
  return parts.join('\n');
}
