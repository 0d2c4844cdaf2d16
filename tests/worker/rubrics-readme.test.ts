/**
 * The README's rubric walkthrough (`sh example=rubrics-walkthrough`) runs as written, against the Worker in
 * workerd: each `curl` of the block (a line continued with `\`), or `VAR=$(curl … | jq -r .field)`, is read
 * as bash would read its words (quotes, `$VAR`), sent to the API, and checked against the status its
 * `# → <status>` comment promises. Anything else in the block fails the test, so the block stays runnable.
 */
import { describe, expect, it } from 'vitest';
import readme from '../../README.md?raw';
import { api } from './api-fetch.js';

/** The README's block tagged `example=<name>`. */
function readmeExample(name: string): string {
  const m = new RegExp('```sh example=' + name + '\\n([\\s\\S]*?)```').exec(readme);
  if (!m?.[1]) throw new Error(`README.md has no \`sh example=${name}\` block`);
  return m[1];
}

/** Bash's words of `line`: single quotes literal, double quotes and bare words expand `$VAR`. */
function words(line: string, vars: Map<string, string>): string[] {
  const out: string[] = [];
  let word: string | null = null;
  const expand = (s: string) =>
    s.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_m, v: string) => {
      const value = vars.get(v);
      if (value === undefined) throw new Error(`$${v} is not set`);
      return value;
    });
  for (let i = 0; i < line.length;) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
      i += 1;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      word = (word ?? '') + expand(line.slice(i + 1, end));
      i = end + 1;
    } else {
      const m = /^[^\s'"]+/.exec(line.slice(i))![0];
      word = (word ?? '') + expand(m);
      i += m.length;
    }
  }
  if (word !== null) out.push(word);
  return out;
}

/** A curl command's request: method, path (on 127.0.0.1:8787), headers and body. */
function requestOf(args: string[]): { path: string; init: RequestInit } {
  expect(args[0]).toBe('curl');
  let method = 'GET';
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-s') continue;
    if (a === '-X') method = args[++i]!;
    else if (a === '-H') {
      const [k, ...v] = args[++i]!.split(':');
      headers[k!.trim()] = v.join(':').trim();
    } else if (a === '-d') {
      body = args[++i]!;
      if (method === 'GET') method = 'POST';
    } else if (a.startsWith('http://127.0.0.1:8787/')) url = a;
    else throw new Error(`curl argument the test does not read: ${a}`);
  }
  return { path: url.slice('http://127.0.0.1:8787'.length), init: { method, headers, body: body ?? null } };
}

describe("README's rubric walkthrough", () => {
  it('runs as written: every command answers the status its comment gives', async () => {
    const lines = readmeExample('rubrics-walkthrough')
      .replace(/\\\n\s*/g, ' ')
      .split('\n');
    const vars = new Map<string, string>();
    let pending: Response | null = null;
    let ran = 0;
    for (const line of lines) {
      const status = /^# → (\d{3}) /.exec(line);
      if (status) {
        expect(pending, `a status comment follows a command: ${line}`).not.toBeNull();
        const text = await pending!.clone().text();
        expect(pending!.status, `${line}\n${text}`).toBe(Number(status[1]));
        pending = null;
        continue;
      }
      if (line.trim() === '' || line.startsWith('#')) continue;
      const assign = /^([A-Z_]+)=\$\((.*) \| jq -r \.(\w+)\)$/.exec(line);
      const { path, init } = requestOf(words(assign ? assign[2]! : line, vars));
      const r = await api(path, init);
      ran += 1;
      if (assign) vars.set(assign[1]!, String((await r.clone().json<Record<string, unknown>>())[assign[3]!]));
      pending = r;
    }
    expect(ran).toBe(6);
    // The evaluation judged by version 1 (the tag's version then), every aspect scored.
    const ev = await (
      await api(`/v1/evaluations/${vars.get('EV') ?? ''}`)
    ).json<{
      status: string;
      rubric: { id: string; version: number };
      verdict: { aspects: { name: string }[] };
    }>();
    expect(ev.status).toBe('succeeded');
    expect(ev.rubric).toMatchObject({ id: vars.get('RB'), version: 1 });
    expect(ev.verdict.aspects.map((a) => a.name)).toEqual(['policy', 'tone', 'next step']);

    // The golden check's first command, on the walkthrough's rubric: version 2 carries the examples it runs.
    const check = readmeExample('rubrics-golden-check')
      .replace(/\\\n\s*/g, ' ')
      .split('\n');
    const answer = check.findIndex((l) => l.startsWith('# → '));
    const { path, init } = requestOf(words(check[answer - 1] ?? '', vars));
    const started = await api(path, init);
    expect(started.status, await started.clone().text()).toBe(Number(/^# → (\d{3}) /.exec(check[answer] ?? '')?.[1]));
  });
});
