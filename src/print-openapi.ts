/**
 * @module
 * Prints the OpenAPI document generated from the app as JSON on stdout, without starting a server:
 * `tsx src/print-openapi.ts > openapi.json` (used by `npm run lint:openapi`). Runs under Node: the app's
 * modules import nothing Worker-only at load time.
 */
import { apiDocument } from './app.js';

console.log(JSON.stringify(apiDocument(), null, 2));
