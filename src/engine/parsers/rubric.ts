/**
 * @module
 * Readers of the replies rubrics ask for: several aspects' scores in one JSON object (the single judge's
 * one-call form) and G-Eval's generated evaluation steps (the `rubric-steps` method's auto-CoT).
 */
import { extractJsonObject } from './json.js';
import type { ParseResult } from './spec.js';

/** A score as the JSON gives it: a finite number, or a string holding only one. */
function scoreOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?\d+(?:\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/**
 * One JSON object with a key per aspect, each `{"rationale": "…", "score": n}` (or the bare score), read
 * strictly: every aspect present, no other key, no other field, each score within its aspect's scale. A reply
 * that misses any of it fails with the reason, so the judge is asked again naming the format.
 */
export function parseAspectScores(
  aspects: readonly { name: string; min: number; max: number }[],
  text: string,
  steps?: number,
): ParseResult {
  const obj = extractJsonObject(text) as Record<string, unknown> | undefined;
  if (!obj) return { ok: false, reason: 'the reply is not a JSON object' };
  const names = new Set(aspects.map((a) => a.name));
  let firstFailingStep: number | null | undefined;
  if (steps !== undefined) {
    const named = firstFailing(obj[FIRST_FAILING_STEP], steps);
    if (typeof named === 'string') return { ok: false, reason: named };
    firstFailingStep = named;
    names.add(FIRST_FAILING_STEP);
  }
  const extra = Object.keys(obj).filter((k) => !names.has(k));
  if (extra.length > 0)
    return { ok: false, reason: `unknown aspect key(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}` };
  const scores: { name: string; score: number; rationale?: string }[] = [];
  for (const a of aspects) {
    const v = obj[a.name];
    if (v === undefined) return { ok: false, reason: `no score for aspect ${JSON.stringify(a.name)}` };
    const entry = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    if (entry) {
      const fields = Object.keys(entry).filter((k) => k !== 'score' && k !== 'rationale');
      if (fields.length > 0)
        return { ok: false, reason: `aspect ${JSON.stringify(a.name)} has unknown field(s) ${fields.join(', ')}` };
      if (entry.rationale !== undefined && typeof entry.rationale !== 'string')
        return { ok: false, reason: `aspect ${JSON.stringify(a.name)}: "rationale" must be text` };
    }
    const score = scoreOf(entry ? entry.score : v);
    if (score === undefined) return { ok: false, reason: `aspect ${JSON.stringify(a.name)} has no numeric "score"` };
    if (score < a.min || score > a.max)
      return {
        ok: false,
        reason: `aspect ${JSON.stringify(a.name)}: score ${score} is outside the scale ${a.min}-${a.max}`,
      };
    const rationale = typeof entry?.rationale === 'string' ? entry.rationale : undefined;
    scores.push({ name: a.name, score, ...(rationale !== undefined ? { rationale } : {}) });
  }
  return {
    ok: true,
    value: { kind: 'aspect-scores', scores, ...(firstFailingStep !== undefined ? { firstFailingStep } : {}) },
  };
}

/** The key a trajectory's one-call reply names its first failing step under. */
export const FIRST_FAILING_STEP = 'first_failing_step';

/** A step number 1-`steps` or null (nothing failed), else why not. */
function firstFailing(v: unknown, steps: number): number | null | string {
  if (v === null) return null;
  if (v === undefined) return `no "${FIRST_FAILING_STEP}" (a step number, or null when no step failed)`;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > steps)
    return `"${FIRST_FAILING_STEP}" must be a step number from 1 to ${steps}, or null when no step failed`;
  return n;
}

/** A numbered step line: `1. …`, `2) …`, markdown emphasis around the number tolerated. */
const STEP = /^\s*[*_]*(\d{1,2})[.)][*_]*\s+(\S.*)$/;

/**
 * The numbered steps of a reply (G-Eval's auto-CoT continues the prompt after "Evaluation Steps:"): from the
 * line numbered 1, each next line numbered one more; a line right under a step (no blank line between)
 * continues it. The list ends where the numbering breaks or a paragraph follows a blank line. Returned as
 * `1. …` lines; fails without a step 1.
 */
export function parseSteps(text: string): ParseResult {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => STEP.exec(l)?.[1] === '1');
  if (start < 0) return { ok: false, reason: 'no numbered step "1. ..." found' };
  const steps: string[] = [];
  let afterBlank = false;
  for (const line of lines.slice(start)) {
    const m = STEP.exec(line);
    if (m) {
      if (Number(m[1]) !== steps.length + 1) break;
      steps.push(`${steps.length + 1}. ${(m[2] ?? '').trim()}`);
      afterBlank = false;
    } else if (line.trim() === '') {
      afterBlank = true;
    } else if (afterBlank) {
      break;
    } else {
      steps[steps.length - 1] = `${steps.at(-1) ?? ''} ${line.trim()}`;
    }
  }
  return { ok: true, value: { kind: 'steps', steps: steps.join('\n') } };
}
