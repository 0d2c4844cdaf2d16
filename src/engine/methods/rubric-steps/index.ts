/**
 * @module
 * `rubric-steps`: G-Eval's auto-CoT for a rubric without evaluation steps (prompts, protocol).
 */
export * from './prompts.js';
export * from './protocol.js';
