/**
 * Every `openai` SDK client the docs construct works against a local stack as pasted: it reads the key from
 * `TRIBUNAL_API_KEY` (the name the CLI and the rest of the docs use) with a fallback, since the SDK refuses to
 * start with no key at all (`Missing credentials`) and a local stack has none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Each `OpenAI(…)` construction of a doc (TypeScript or Python), up to its closing parenthesis. */
function clientsOf(text: string): string[] {
  return [...text.matchAll(/\bOpenAI\((?:[^()]|\([^()]*\))*\)/g)].map((m) => m[0]);
}

describe('the docs construct the openai SDK client', () => {
  const clients = DOCS.flatMap((doc) => clientsOf(readFileSync(join(ROOT, doc), 'utf8')).map((c) => [doc, c]));

  it('in more than one doc', () => {
    expect(new Set(clients.map(([doc]) => doc)).size).toBeGreaterThan(1);
  });

  it.each(clients)('%s: with TRIBUNAL_API_KEY and a fallback for a stack with no key', (_doc, client) => {
    expect(client).toMatch(
      /process\.env\.TRIBUNAL_API_KEY \?\? '[^']+'|os\.environ\.get\("TRIBUNAL_API_KEY", "[^"]+"\)/,
    );
  });
});
