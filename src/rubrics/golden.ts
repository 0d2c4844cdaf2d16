/**
 * @module
 * A rubric version's golden examples: the schema of one (a task and the answer a good judge gives) and the
 * check of a list against the rubric it belongs to, each issue naming `examples.N.…`. The rubric API's
 * schemas (./schemas.ts) take them in a version's body and in a check's request.
 */
import { z } from '@hono/zod-openapi';
import { EngineInputError } from '../engine/errors.js';
import { judgedView } from '../engine/judged.js';
import type { RubricContent } from '../engine/rubric.js';
import { TaskSchema } from '../engine/task.js';
import { WinnerSchema } from '../engine/verdict.js';

/** Most golden examples per version: 500 (a meta-evaluation's limit). */
export const MAX_RUBRIC_EXAMPLES = 500;

/** One golden example: a task of the rubric's kind and the answer a good judge gives. */
export const RubricExampleSchema = z
  .object({
    task: TaskSchema,
    /** Pairwise: `A`, `B` or `tie`. Pointwise: the score, on the rubric's scale (with aspects: the overall scale). */
    expected: z.union([WinnerSchema, z.number()]),
    /** Pointwise with aspects: the expected score per aspect, by name (any of them). Default: none. */
    expectedAspects: z.record(z.string().min(1).max(64), z.number()).optional(),
    /** Why this is the answer, 1-2,000 characters. */
    note: z.string().min(1).max(2_000).optional(),
  })
  .strict();
/** One golden example. */
export type RubricExample = z.infer<typeof RubricExampleSchema>;

/** Checks golden examples against the rubric they belong to; each issue names `examples.N.…`. */
export function checkExamples(
  content: RubricContent,
  examples: readonly RubricExample[] | undefined,
  ctx: z.RefinementCtx,
  path: readonly (string | number)[] = ['examples'],
): void {
  examples?.forEach((ex, i) => {
    const at = (...rest: (string | number)[]) => [...path, i, ...rest];
    if (ex.task.kind !== content.kind) {
      ctx.addIssue({
        code: 'custom',
        path: at('task', 'kind'),
        message: `a ${content.kind} rubric's examples are ${content.kind} tasks`,
      });
      return;
    }
    let view: ReturnType<typeof judgedView>;
    try {
      view = judgedView(ex.task, content);
    } catch (e) {
      if (!(e instanceof EngineInputError)) throw e;
      ctx.addIssue({ code: 'custom', path: at('task'), message: e.message });
      return;
    }
    if (view.kind === 'pairwise') {
      if (typeof ex.expected === 'number')
        ctx.addIssue({ code: 'custom', path: at('expected'), message: 'a pairwise example expects A, B or tie' });
      if (ex.expectedAspects !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: at('expectedAspects'),
          message: 'aspects are pointwise: a pairwise example expects A, B or tie',
        });
      return;
    }
    const { min, max } = view.aspect.scale;
    if (typeof ex.expected !== 'number')
      ctx.addIssue({ code: 'custom', path: at('expected'), message: 'a pointwise example expects a score' });
    else if (ex.expected < min || ex.expected > max)
      ctx.addIssue({
        code: 'custom',
        path: at('expected'),
        message: `score ${ex.expected} is outside the scale ${min}-${max}`,
      });
    for (const [name, score] of Object.entries(ex.expectedAspects ?? {})) {
      const aspect = view.aspects?.find((a) => a.name === name);
      if (!aspect)
        ctx.addIssue({
          code: 'custom',
          path: at('expectedAspects', name),
          message: view.aspects
            ? `the rubric has no aspect "${name}" (it has ${view.aspects.map((a) => a.name).join(', ')})`
            : 'the rubric has no aspects',
        });
      else if (score < aspect.scale.min || score > aspect.scale.max)
        ctx.addIssue({
          code: 'custom',
          path: at('expectedAspects', name),
          message: `score ${score} is outside the aspect's scale ${aspect.scale.min}-${aspect.scale.max}`,
        });
    }
  });
}
