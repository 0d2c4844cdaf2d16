/**
 * @module
 * The jury (PoLL): protocol and presets. The jurors' prompts are the single judge's (`../single/prompts.ts`).
 */
export * from './protocol.js';
export * from './presets.js';
