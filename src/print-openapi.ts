/**
 * @module
 * Prints the OpenAPI document generated from the app as JSON on stdout, without starting a server:
 * `tsx src/print-openapi.ts > openapi.json` (used by `npm run lint:openapi`). Runs under Node: the app's
 * modules import nothing Worker-only at load time.
 */
import { app } from './app.js';
import { openApiDocument } from './http/openapi.js';

console.log(JSON.stringify(openApiDocument(app), null, 2));
