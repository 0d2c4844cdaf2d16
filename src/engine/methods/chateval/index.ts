/**
 * @module
 * ChatEval: prompts (`prompts.ts`, `topical-chat.ts`), roles (`roles.ts`), the protocol (`protocol.ts`,
 * `shared.ts`) and presets (`presets.ts`).
 */
export * from './prompts.js';
export * from './topical-chat.js';
export * from './roles.js';
export * from './shared.js';
export * from './protocol.js';
export * from './presets.js';
