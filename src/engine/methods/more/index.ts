/**
 * @module
 * MORE: protocol and presets (prompts in `../bandi/`).
 */
export * from './protocol.js';
export * from './presets.js';
