/**
 * @module
 * The cascade: escalation rules (`rules.ts`), the protocol over nested stages (`protocol.ts`, bound to the
 * registry's presets by `createCascade`) and presets. It has no prompts of its own: its stages are presets.
 */
export * from './rules.js';
export * from './protocol.js';
export * from './presets.js';
