/**
 * @module
 * Single-judge baselines: prompts (`prompts.ts`, `geval-prompts.ts`, `aspects.ts`, `fastchat.ts`), protocol, presets.
 */
export * from './aspects.js';
export * from './fastchat.js';
export * from './geval-prompts.js';
export * from './prompts.js';
export * from './protocol.js';
export * from './presets.js';
export * from './config.js';
export * from './slots.js';
