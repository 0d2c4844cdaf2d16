/**
 * @module
 * A label checked against what the queue's rubric judges on its item: the kind (a pairwise rubric takes a
 * `winner`, a pointwise one a `score` and/or `aspects`), the overall scale, and each aspect's name and scale.
 * The item's view (src/engine/judged.ts) is what a judge of that rubric version sees, so a label and a verdict
 * are on the same scale.
 */
import type { JudgedTask } from '../engine/judged.js';
import type { Label } from './schemas.js';

/** One problem with a label, with where it is (under `label`). */
export interface LabelIssue {
  path: string;
  message: string;
}

/** What a label must look like for an item: its kind, and pointwise its scales. */
export interface LabelShape {
  kind: 'pairwise' | 'pointwise';
  scale: { min: number; max: number } | null;
  aspects: { name: string; scale: { min: number; max: number } }[] | null;
}

/** The shape of a label for an item as the rubric judges it. */
export function labelShape(view: JudgedTask): LabelShape {
  if (view.kind === 'pairwise') return { kind: 'pairwise', scale: null, aspects: null };
  const bounds = (s: { min: number; max: number }) => ({ min: s.min, max: s.max });
  return {
    kind: 'pointwise',
    scale: bounds(view.aspect.scale),
    aspects: view.aspects ? view.aspects.map((a) => ({ name: a.name, scale: bounds(a.scale) })) : null,
  };
}

/** Every problem with `label` for an item of shape `shape`; empty when it fits. Paths start at `prefix`. */
export function labelIssues(shape: LabelShape, label: Label, prefix = 'label'): LabelIssue[] {
  const out: LabelIssue[] = [];
  const at = (p: string) => `${prefix}.${p}`;
  if (shape.kind === 'pairwise') {
    if (label.winner === undefined)
      out.push({ path: at('winner'), message: 'a pairwise rubric is labelled with a winner: A, B or tie' });
    if (label.score !== undefined)
      out.push({ path: at('score'), message: 'a pairwise rubric has no score: label the winner' });
    if (label.aspects !== undefined)
      out.push({ path: at('aspects'), message: 'a pairwise rubric has no aspects: label the winner' });
    return out;
  }
  if (label.winner !== undefined)
    out.push({ path: at('winner'), message: 'a pointwise rubric is labelled with a score (or aspects), not a winner' });
  if (label.score === undefined && label.aspects === undefined)
    out.push({ path: at('score'), message: 'a pointwise rubric is labelled with a score and/or aspects' });
  const { scale } = shape;
  if (label.score !== undefined && scale && (label.score < scale.min || label.score > scale.max))
    out.push({ path: at('score'), message: `score ${label.score} is outside the scale ${scale.min}-${scale.max}` });
  for (const [name, score] of Object.entries(label.aspects ?? {})) {
    const aspect = shape.aspects?.find((a) => a.name === name);
    if (!aspect)
      out.push({
        path: at(`aspects.${name}`),
        message: shape.aspects
          ? `the rubric has no aspect "${name}" (it has ${shape.aspects.map((a) => a.name).join(', ')})`
          : 'the rubric has no aspects',
      });
    else if (score < aspect.scale.min || score > aspect.scale.max)
      out.push({
        path: at(`aspects.${name}`),
        message: `score ${score} is outside the aspect's scale ${aspect.scale.min}-${aspect.scale.max}`,
      });
  }
  return out;
}
