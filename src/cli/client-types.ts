/**
 * @module
 * Writes the typed client's types (`src/client/api-types.ts`) from an OpenAPI document with
 * openapi-typescript, under a header that says the file is generated and by what:
 * `node --import tsx src/cli/client-types.ts --document <openapi.json> --output <file>` (`npm run client:types`, which
 * prints the document first with src/print-openapi.ts). tests/client/api-types.test.ts runs the same script
 * and fails when the committed file is stale. Node only.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import { isMain, runCli, UsageError } from './args.js';

/** The first lines of the generated file. */
export const GENERATED_HEADER = `/**
 * GENERATED FILE, do not edit: \`npm run client:types\` writes it from the OpenAPI document
 * (src/print-openapi.ts) with openapi-typescript (src/cli/client-types.ts); tests/client/api-types.test.ts
 * fails when it is stale.
 */

`;

/** Command line of the generator. */
export const CLIENT_TYPES_CLI = {
  usage: `usage: node --import tsx src/cli/client-types.ts --document <openapi.json> --output <file>

Writes the client's TypeScript types for an OpenAPI document, with the generated-file header.`,
  options: { document: { type: 'string' }, output: { type: 'string' } },
} as const satisfies CliSpec<CliOptions>;

async function main(values: CliValues<typeof CLIENT_TYPES_CLI.options>): Promise<number> {
  if (!values.document || !values.output) throw new UsageError('give --document and --output');
  const ast = await openapiTS(pathToFileURL(resolve(values.document)), { defaultNonNullable: false, silent: true });
  writeFileSync(values.output, `${GENERATED_HEADER}${astToString(ast)}`);
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLIENT_TYPES_CLI, main);
