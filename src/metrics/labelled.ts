/**
 * @module
 * The labelled item: one task with its human label. Runtime-neutral (no Node imports), so the
 * meta-evaluation API in the Worker and the Node dataset loaders share this one schema.
 */
import { z } from 'zod';
import { TaskSchema } from '../engine/task.js';
import { WinnerSchema } from '../engine/verdict.js';

/**
 * One task with its human label: the unit of meta-evaluation, and exactly what the meta-evaluation API
 * accepts for customer data. Pairwise tasks take an A/B/tie label; pointwise tasks a number inside the
 * aspect's scale (means of several annotators are fine). `group` ties items for group-level correlation
 * (SummEval article, Topical-Chat dialogue).
 */
export const LabelledItemSchema = z
  .object({
    id: z.string().min(1).max(256),
    task: TaskSchema,
    human: z.union([WinnerSchema, z.number()]),
    /**
     * Pointwise: human scores per aspect (e.g. SummEval's coherence, consistency, fluency, relevance), by the
     * aspect's name as the rubric (or `task.aspects`) names it; `human` stays the overall score. A judge that
     * scores every aspect then gets an agreement report per aspect. Default: none.
     */
    humanAspects: z.record(z.string().min(1).max(64), z.number()).optional(),
    group: z.string().min(1).max(256).optional(),
  })
  .strict()
  .superRefine((item, ctx) => {
    if (item.humanAspects !== undefined && item.task.kind !== 'pointwise')
      ctx.addIssue({
        code: 'custom',
        path: ['humanAspects'],
        message: 'human scores per aspect need a pointwise task',
      });
    if (item.task.kind === 'pairwise' && typeof item.human === 'number') {
      ctx.addIssue({ code: 'custom', path: ['human'], message: 'a pairwise task needs a human label A, B or tie' });
    }
    if (item.task.kind === 'pointwise') {
      // A task scored by a rubric or on several aspects has no one aspect scale to check against here.
      const { min, max } = item.task.aspect?.scale ?? { min: -Infinity, max: Infinity };
      if (typeof item.human !== 'number') {
        ctx.addIssue({ code: 'custom', path: ['human'], message: 'a pointwise task needs a numeric human score' });
      } else if (item.human < min || item.human > max) {
        ctx.addIssue({
          code: 'custom',
          path: ['human'],
          message: `human score ${item.human} is outside the scale ${min}-${max}`,
        });
      }
    }
  })
  .meta({ id: 'LabelledItem' });
/** A validated {@link LabelledItemSchema} item. */
export type LabelledItem = z.infer<typeof LabelledItemSchema>;
