/**
 * @module
 * Bandi et al. (MORE, SAMRE, the baseline judge): the paper's prompts and data (`prompts.ts`), the code's
 * prompts (`code-prompts.ts`) and the helpers both methods share (`shared.ts`).
 */
export * from './prompts.js';
export * from './code-prompts.js';
export * from './shared.js';
export * from './slots.js';
