/**
 * @module
 * The rendered prompts of `POST /v1/estimates` with `include: ["prompts"]`: the exact requests one evaluation
 * of a task sends first, without an LLM call. The protocol is driven by the estimate's synthetic LLM
 * (src/budgets/synthetic.ts), and the calls it launches before any of them is answered are kept: their
 * prompts depend on the task, the judge's config, its templates and the rubric only, so they are what the
 * provider will receive. Later calls carry replies (a debate's rebuttals, a summary), which only a real run
 * knows: they are left out, not shown with made-up replies.
 */
import type { AnyMethod } from '../engine/method.js';
import type { EngineState } from '../engine/state.js';
import { createEvaluation } from '../engine/protocol.js';
import { runEvaluation } from '../engine/runner.js';
import type { LlmFunction } from '../engine/call.js';
import type { Task } from '../engine/task.js';
import type { RubricContent } from '../engine/rubric.js';
import type { EstimateDeps } from '../budgets/estimate.js';
import { createSyntheticLlm } from '../budgets/synthetic.js';
import type { RenderedPrompts } from './schemas.js';

/**
 * The first requests one evaluation of `task` sends (see the module note), in the order the protocol
 * launches them, each with the model and provider it goes to.
 */
export async function renderedPrompts(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  deps: EstimateDeps,
  rubric?: RubricContent,
): Promise<RenderedPrompts> {
  const { budget: _budget, ...unbudgeted } = config;
  const synthetic = createSyntheticLlm('agree', 'short', deps.counter, deps.meter);
  const calls: RenderedPrompts['calls'] = [];
  let answered = 0;
  const llm: LlmFunction = async (request) => {
    if (answered === 0) {
      const { model, provider } = deps.meter.target(request);
      calls.push({
        id: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        model,
        provider,
        temperature: request.temperature,
        maxTokens: request.maxTokens,
        ...(request.n !== undefined ? { n: request.n } : {}),
        messages: request.messages.map((m) => ({
          role: m.role,
          content: m.content,
          ...(m.name ? { name: m.name } : {}),
        })),
      });
    }
    // The pool launches a wave's calls before any of them ends: none is answered until all are kept.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    const result = await synthetic.llm(request);
    answered += 1;
    return result;
  };
  await runEvaluation(method, createEvaluation(method, unbudgeted, task, rubric), llm, {
    concurrency: 1000,
    supportsN: (call) => deps.meter.supportsN(call),
  });
  return {
    evaluation: 0,
    calls,
    note: 'The calls one evaluation of the first task sends before any reply: exactly what the provider receives. Later calls carry replies and are not shown.',
  };
}
