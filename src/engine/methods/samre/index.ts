/**
 * @module
 * SAMRE: protocol, round flows and presets (prompts in `../bandi/`).
 */
export * from './config.js';
export * from './flows.js';
export * from './protocol.js';
export * from './presets.js';
