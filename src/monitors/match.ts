/**
 * @module
 * What a monitor does with spans, pure: whether a span matches its filter, whether a match is sampled (a hash of
 * the ids, so a re-export samples the same), and the task it judges: a span's input and output as a pointwise
 * task (scope `span`), a stored trace as a `trajectory` task (scope `trace`).
 */
import { fnv1a } from '../config/d1-buckets.js';
import type { PointwiseTask, Task, TrajectoryStep, TrajectoryTask } from '../engine/task.js';
import { MAX_TEXT_CHARS, MAX_TRAJECTORY_STEPS } from '../engine/task.js';
import type { NormalizedSpan, SpanMessage } from '../traces/span-schema.js';
import type { MonitorDefinition, MonitorFilter } from './schemas.js';

/** Whether `span` holds every condition of `filter` (`{}` matches any span). */
export function matchesFilter(filter: MonitorFilter, span: NormalizedSpan): boolean {
  if (filter.spanName !== undefined && span.name !== filter.spanName) return false;
  if (filter.service !== undefined && span.service !== filter.service) return false;
  if (filter.model !== undefined && (span.genAi.requestModel ?? span.genAi.responseModel) !== filter.model)
    return false;
  for (const [key, want] of Object.entries(filter.attributes ?? {})) {
    const got = key in span.attributes ? span.attributes[key] : span.resource[key];
    if (got !== want) return false;
  }
  return true;
}

/**
 * Whether a match is in the monitor's sample: the hash of (monitor, trace, span) as a fraction of 2³² below
 * `rate`. Deterministic, so a re-export (or a repeat of the same decision) samples the same; 0 never, 1 always.
 */
export function sampled(rate: number, monitorId: string, traceId: string, spanId: string | null): boolean {
  return fnv1a(`${monitorId}|${traceId}|${spanId ?? ''}`) / 2 ** 32 < rate;
}

/** A span a `span`-scope monitor can judge: it ended and carries GenAI input and output. */
export function judgeableSpan(span: NormalizedSpan): boolean {
  return span.endTimeUnixNano !== null && inputText(span) !== null && span.genAi.output !== null;
}

/** Text cut to the task's limit (the judge sees where it was cut). */
function fit(text: string): string {
  return text.length <= MAX_TEXT_CHARS ? text : `${text.slice(0, MAX_TEXT_CHARS - 20)}\n…[truncated]`;
}

function rendered(messages: readonly SpanMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.content}`).join('\n\n');
}

/** What went into a span's model call: its input messages as a transcript, else its input text. */
function inputText(span: NormalizedSpan): string | null {
  const ms = span.genAi.inputMessages?.filter((m) => m.content.trim() !== '');
  if (ms && ms.length > 0) return ms.length === 1 && ms[0] ? ms[0].content : rendered(ms);
  return nonBlank(span.genAi.input);
}

function nonBlank(s: string | null | undefined): string | null {
  return s === null || s === undefined || s.trim() === '' ? null : s;
}

/** A span's model call as a pointwise task: its input (messages rendered) → its output, on the monitor's aspect. */
export function spanTask(span: NormalizedSpan, def: MonitorDefinition): PointwiseTask {
  return {
    kind: 'pointwise',
    source: fit(inputText(span) ?? ''),
    output: fit(span.genAi.output ?? ''),
    ...(def.judge.aspect ? { aspect: def.judge.aspect } : {}),
  };
}

/** A step of the run a span stands for, or null for a span that is only structure (an agent, a chain). */
function stepOf(span: NormalizedSpan): TrajectoryStep | null {
  const g = span.genAi;
  const error = span.status.code === 'error' ? (nonBlank(span.status.message) ?? 'error') : null;
  const base = { spanId: span.spanId, ...(error !== null ? { error: fit(error) } : {}) };
  const opt = (k: 'input' | 'output', v: string | null) => (v === null ? {} : { [k]: fit(v) });
  if (g.type === 'tool' || g.tool !== null) {
    const name = g.tool?.name ?? span.name;
    return {
      type: 'tool',
      ...base,
      name: name.slice(0, 200),
      ...opt('input', nonBlank(g.tool?.arguments)),
      ...opt('output', nonBlank(g.tool?.result ?? g.output)),
    };
  }
  if (g.type === 'llm') {
    const name = g.requestModel ?? g.responseModel ?? span.name;
    const last = g.inputMessages?.at(-1)?.content ?? g.input;
    return {
      type: 'llm',
      ...base,
      name: name.slice(0, 200),
      ...opt('input', nonBlank(last)),
      ...opt('output', nonBlank(g.output)),
    };
  }
  return error !== null ? { type: 'error', ...base, name: span.name.slice(0, 200) } : null;
}

/**
 * A stored trace (spans in tree order) as a `trajectory` task: the user's request (the root's input, else the first
 * model call's last user message), each model call, tool call and failed span as a step with its span id (the
 * first {@link MAX_TRAJECTORY_STEPS}), the final answer (the root's output, else the last model call's). Null when
 * the trace has no step or no request to judge.
 */
export function trajectoryTask(spans: readonly NormalizedSpan[], def: MonitorDefinition): TrajectoryTask | null {
  const root = spans.find((s) => s.parentSpanId === null) ?? spans[0];
  const steps = spans
    .filter((s) => s !== root || root.genAi.type === 'llm' || root.genAi.type === 'tool')
    .map(stepOf)
    .filter((s): s is TrajectoryStep => s !== null)
    .slice(0, MAX_TRAJECTORY_STEPS);
  const llm = spans.filter((s) => s.genAi.type === 'llm');
  const firstUser = llm[0]?.genAi.inputMessages?.filter((m) => m.role === 'user').at(-1)?.content;
  const request = nonBlank(root?.genAi.input) ?? nonBlank(firstUser) ?? nonBlank(llm[0]?.genAi.input);
  const answer = nonBlank(root?.genAi.output) ?? nonBlank(llm.at(-1)?.genAi.output);
  if (steps.length === 0 || request === null) return null;
  const aspects = def.judge.aspect ? { aspects: [def.judge.aspect] } : {};
  return {
    kind: 'trajectory',
    request: fit(request),
    steps,
    ...(answer !== null ? { finalAnswer: fit(answer) } : {}),
    ...aspects,
  };
}

/**
 * Why {@link trajectoryTask} builds no task of the trace, or null when it does: `no_step` (nothing but structure:
 * no model call, tool call or failed span beside the root) or `no_request` (no input on the root and no user
 * message or input in the first model call).
 */
export function unjudgeable(spans: readonly NormalizedSpan[], def: MonitorDefinition): 'no_step' | 'no_request' | null {
  if (trajectoryTask(spans, def) !== null) return null;
  const root = spans.find((s) => s.parentSpanId === null) ?? spans[0];
  const steps = spans.filter((s) => s !== root || root.genAi.type === 'llm' || root.genAi.type === 'tool').map(stepOf);
  return steps.some((s) => s !== null) ? 'no_request' : 'no_step';
}

/** A sample task of the scope's kind, to check at creation that the judge takes it. */
export function sampleTask(def: MonitorDefinition): Task {
  if (def.scope === 'trace')
    return {
      kind: 'trajectory',
      request: 'What is the weather in Paris?',
      steps: [
        { type: 'tool', spanId: '0000000000000001', name: 'get_weather', input: '{"city":"Paris"}', output: '20 °C' },
      ],
      finalAnswer: 'It is 20 °C in Paris.',
      ...(def.judge.aspect ? { aspects: [def.judge.aspect] } : {}),
    };
  return {
    kind: 'pointwise',
    source: 'What is the weather in Paris?',
    output: 'It is 20 °C in Paris.',
    ...(def.judge.aspect ? { aspect: def.judge.aspect } : {}),
  };
}
