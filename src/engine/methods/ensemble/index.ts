/**
 * @module
 * The ensemble baseline: prompts, protocol, presets.
 */
export * from './prompts.js';
export * from './protocol.js';
export * from './presets.js';
