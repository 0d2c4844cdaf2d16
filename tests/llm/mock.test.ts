/**
 * The mock server: judge-mode replies parse for every parser, determinism, scripted mode, control
 * endpoint, prompt-cache accounting, latency and model-name syntax.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFormat, parseReply, repairInstruction } from '../../src/engine/parsers/parse.js';
import type { ParserSpec } from '../../src/engine/parsers/spec.js';
import { labelledMatches } from '../../src/mock-llm/detect-format.js';
import { handleMockRequest } from '../../src/mock-llm/handler.js';
import { mockModel, parseMockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { createMockState, setScript } from '../../src/mock-llm/state.js';
import type { MockState } from '../../src/mock-llm/state.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

interface Completion {
  model: string;
  choices: { message: { content: string }; finish_reason: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
}

async function complete(
  messages: { role: string; content: string }[],
  model = 'mock-judge',
  state: MockState = createMockState(),
  extra: Record<string, unknown> = {},
): Promise<{ status: number; body: Completion; headers: Headers }> {
  const res = await handleMockRequest(
    new Request('http://mock/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model, messages, ...extra }),
    }),
    { state },
  );
  return { status: res.status, body: (await res.json()) as Completion, headers: res.headers };
}

async function reply(prompt: string, model = 'mock-judge', system?: string): Promise<string> {
  const messages = [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: prompt }];
  const r = await complete(messages, model);
  expect(r.status).toBe(200);
  return r.body.choices[0]?.message.content ?? '';
}

const SPECS: ParserSpec[] = [
  { type: 'text' },
  { type: 'critique' },
  { type: 'chateval-scores', min: 1, max: 10 },
  { type: 'chateval-scores', min: 0, max: 3 },
  { type: 'score-tuple', min: 1, max: 20 },
  { type: 'score-tuple', min: 0, max: 1 },
  { type: 'score-tuple', min: 0, max: 1, line: 'Vote' },
  { type: 'score-tuple', min: 1, max: 20, line: 'Final' },
  { type: 'fastchat-verdict' },
  { type: 'assistant-choice' },
  { type: 'leading-number', min: 1, max: 5 },
  { type: 'leading-number', min: 1, max: 3 },
  { type: 'labelled-score', label: 'Coherence', min: 1, max: 5 },
  { type: 'labelled-score', label: 'Score', min: 0, max: 1 },
  { type: 'json', shape: 'pair-scores', min: 1, max: 10 },
  { type: 'json', shape: 'winner' },
  { type: 'json', shape: 'score', min: 1, max: 5 },
  {
    type: 'json',
    shape: 'score',
    min: 1,
    max: 5,
    fallback: { type: 'labelled-score', label: 'Score', min: 1, max: 5 },
  },
];

describe('judge mode', () => {
  it.each(SPECS.map((s) => [JSON.stringify(s), s] as const))(
    'replies parse for %s (prompt = describeFormat)',
    async (_n, spec) => {
      const values = new Set<string>();
      for (let item = 0; item < 12; item++) {
        const prompt = `Item ${item}: compare the answers about topic ${item * 7}.\nReply with ${describeFormat(spec)}.`;
        const text = await reply(prompt);
        const parsed = parseReply(spec, text);
        expect(parsed, text).toMatchObject({ ok: true });
        if (parsed.ok) values.add(JSON.stringify(parsed.value));
      }
      // Verdicts vary across items (free-text and critique replies vary by construction).
      expect(values.size).toBeGreaterThan(1);
    },
  );

  it.each(SPECS.filter((s) => s.type !== 'text' && s.type !== 'critique').map((s) => [s.type, s] as const))(
    'repair prompts for %s get a parseable reply',
    async (_t, spec) => {
      const messages = [
        { role: 'user', content: 'Compare the two answers.' },
        { role: 'assistant', content: 'I think both are fine.' },
        { role: 'user', content: repairInstruction(spec, 'no verdict found') },
      ];
      const r = await complete(messages);
      expect(parseReply(spec, r.body.choices[0]?.message.content ?? '')).toMatchObject({ ok: true });
    },
  );

  it('recognises the papers’ own instructions', async () => {
    const chateval = await reply(
      'Each assistant receives an overall score on a scale of 1 to 10.\nOutput with the following format strictly:\nEvaluation evidence: [your explanation here]\nThe score of Assistant 1: [score only]\nThe score of Assistant 2: [score only]',
    );
    expect(parseReply({ type: 'chateval-scores', min: 1, max: 10 }, chateval)).toMatchObject({ ok: true });

    const geval = await reply(
      'Coherence (1-5) - the collective quality of all sentences.\n\nSource Text:\nabc\n\nSummary:\nxyz\n\nEvaluation Form (scores ONLY):\n\n- Coherence:',
    );
    expect(parseReply({ type: 'leading-number', min: 1, max: 5 }, geval)).toMatchObject({ ok: true });
    expect(parseReply({ type: 'labelled-score', label: 'Coherence', min: 1, max: 5 }, geval)).toMatchObject({
      ok: true,
    });

    const juror = await reply('Which debater won? Output (1, 0) if debater 1 won or (0, 1) if debater 2 won.');
    expect(juror).toMatch(/\((1, 0|0, 1)\)$/);

    const bandi = await reply('Score each debater from 1 to 20 and give your final answer as a tuple (s1, s2).');
    const t = parseReply({ type: 'score-tuple', min: 1, max: 20 }, bandi);
    expect(t).toMatchObject({ ok: true });

    const choice = await reply(
      'Which assistant is better? End with "Answer: Assistant 1", "Answer: Assistant 2" or "Answer: Same".',
    );
    expect(parseReply({ type: 'assistant-choice' }, choice)).toMatchObject({ ok: true });

    const debate = await reply('Evaluate the summary on a scale of 1 to 5. Finish with "Score: <score>".');
    expect(parseReply({ type: 'labelled-score', label: 'Score', min: 1, max: 5 }, debate)).toMatchObject({ ok: true });
  });

  it('the critic agrees (NO_ISSUE) on roughly half the items and criticises otherwise', async () => {
    let agree = 0;
    for (let i = 0; i < 40; i++) {
      const text = await reply(
        `Item ${i}: the scorer gave 4. Criticise the score, or say NO_ISSUE if you have no objection.`,
      );
      const parsed = parseReply({ type: 'critique' }, text);
      if (parsed.ok && parsed.value.kind === 'critique' && parsed.value.noIssue) agree++;
    }
    expect(agree).toBeGreaterThan(10);
    expect(agree).toBeLessThan(30);
  });

  it('answers json_schema requests with JSON inside the schema bounds', async () => {
    const schema = {
      type: 'object',
      properties: { rationale: { type: 'string' }, score: { type: 'number', minimum: 2, maximum: 4 } },
    };
    for (let i = 0; i < 6; i++) {
      const r = await complete([{ role: 'user', content: `Rate item ${i}.` }], 'mock-judge', createMockState(), {
        response_format: { type: 'json_schema', json_schema: { name: 's', schema, strict: true } },
      });
      const obj = JSON.parse(r.body.choices[0]?.message.content ?? '') as { score: number };
      expect(obj.score).toBeGreaterThanOrEqual(2);
      expect(obj.score).toBeLessThanOrEqual(4);
    }
  });

  it('is deterministic: same input, same reply; another seed may differ', async () => {
    const prompt = `Judge this. ${describeFormat({ type: 'chateval-scores', min: 1, max: 10 })}`;
    const first = await reply(prompt);
    expect(await reply(prompt)).toBe(first);
    expect(await reply(prompt, 'mock-judge?fail=500:0')).toBe(first);
    const seeded = new Set<string>();
    for (let s = 0; s < 8; s++) seeded.add(await reply(prompt, mockModel({ seed: `s${s}` })));
    expect(seeded.size).toBeGreaterThan(1);
  });
});

describe("judge mode's label search", () => {
  // The pattern as it was run over the whole text; labelledMatches tries it only where a match can start.
  const EVERYWHERE = /([A-Za-z][A-Za-z ]{0,40}?)\s*:\s*[<[{]\s*(?:score|number|rating|\d)[^>\]}]*[>\]}]/g;
  const found = (ms: Iterable<RegExpMatchArray>) => [...ms].map((m) => [m.index, m[0], m[1]]);

  it('finds what the pattern run everywhere finds, on texts dense in labels, colons, brackets and white space', () => {
    // Pieces that make labels of up to 41 characters and past, white space before colons, colons inside
    // another's tail, and near misses; a fixed generator, so a failure names its text every run.
    const pieces = [
      'a',
      'Score',
      ' ',
      '\n',
      ' '.repeat(42),
      'b'.repeat(39),
      ':',
      ': ',
      '<',
      '>',
      '[',
      ']',
      '{',
      '}',
      'score',
      'rating',
      '4',
      '-',
      '\u00a0',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let withMatches = 0;
    const differing: { text: string; expected: unknown; got: unknown }[] = [];
    for (let i = 0; i < 3_000; i++) {
      let text = '';
      for (let j = 1 + next(60); j > 0; j--) text += pieces[next(pieces.length)] ?? '';
      const expected = found(text.matchAll(EVERYWHERE));
      const got = found(labelledMatches(text));
      if (expected.length > 0) withMatches++;
      if (JSON.stringify(got) !== JSON.stringify(expected)) differing.push({ text, expected, got });
    }
    // A colon inside another's tail, the first without a label before it, the second with one.
    for (const text of ['-: <score a: <score>', '1: [score Score: [4]]', '"x": {rating Rating: {9}}'])
      if (JSON.stringify(found(labelledMatches(text))) !== JSON.stringify(found(text.matchAll(EVERYWHERE))))
        differing.push({ text, expected: found(text.matchAll(EVERYWHERE)), got: found(labelledMatches(text)) });
    expect(differing.slice(0, 3)).toEqual([]);
    expect(withMatches).toBeGreaterThan(50);
  });
});

describe('faults through the model name', () => {
  it('fail=<fault>:<n> counts attempts per prompt', async () => {
    const state = createMockState();
    const msgs = [{ role: 'user', content: 'hello' }];
    const model = mockModel({
      fail: [
        [429, 1],
        ['truncated', 1],
        ['wrong-format', 1],
      ],
      retryAfter: 2,
    });
    const r1 = await complete(msgs, model, state);
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('2');
    const r2 = await complete(msgs, model, state);
    expect(r2.body.choices[0]?.finish_reason).toBe('length');
    const r3 = await complete(msgs, model, state);
    expect(r3.body.choices[0]?.message.content).toMatch(/^I would rather not/);
    const r4 = await complete(msgs, model, state);
    expect(r4.status).toBe(200);
    expect(r4.body.choices[0]?.finish_reason).toBe('stop');
    // Another prompt counts from zero.
    expect((await complete([{ role: 'user', content: 'other' }], model, state)).status).toBe(429);
  });

  it('rate=<p> injects faults deterministically', async () => {
    const statuses = async () => {
      const state = createMockState();
      const out: number[] = [];
      for (let i = 0; i < 30; i++)
        out.push(
          (await complete([{ role: 'user', content: `p${i}` }], mockModel({ rate: 0.5, fault: 503 }), state)).status,
        );
      return out;
    };
    const a = await statuses();
    expect(a).toEqual(await statuses());
    const failed = a.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(25);
  });

  it('latency delays the reply', async () => {
    const t0 = Date.now();
    await complete([{ role: 'user', content: 'slow' }], mockModel({ latency: 120 }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
  });

  it("latency counts from the request's arrival: the mock's own work before the reply is inside it, not added", async () => {
    // The body arrives `slowBody` ms after the request (the mock's work before it can judge); the reply is due
    // `latency` ms after arrival, not `slowBody + latency`. A second each: the bound below leaves 900 ms for a
    // loaded machine and still fails the old wait (at least 2 s).
    const latency = 1000;
    const slowBody = 1000;
    const text = JSON.stringify({ model: mockModel({ latency }), messages: [{ role: 'user', content: 'arrival' }] });
    let bodySent!: number;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        await new Promise((r) => setTimeout(r, slowBody));
        bodySent = Date.now();
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    const t0 = Date.now();
    const res = await handleMockRequest(
      new Request('http://mock/v1/chat/completions', { method: 'POST', body, duplex: 'half' }),
      { state: createMockState() },
    );
    const elapsed = Date.now() - t0;
    expect(res.status).toBe(200);
    expect(bodySent - t0).toBeGreaterThanOrEqual(slowBody - 10);
    expect(elapsed).toBeGreaterThanOrEqual(latency - 10);
    // Before, the wait began once the body was read: at least slowBody + latency (2,000 ms).
    expect(elapsed).toBeLessThan(slowBody + latency - 100);
  });

  it('over HTTP too, the latency counts from when the headers came, not from when the body was read', async () => {
    // Node's server reads the body after the request event; on a busy mock the other requests' work lands in
    // between. The body here comes a second after the headers: the reply is due a second after the headers.
    const latency = 1000;
    const slowBody = 1000;
    const text = JSON.stringify({ model: mockModel({ latency }), messages: [{ role: 'user', content: 'arrival' }] });
    const { hostname, port } = new URL(server.url);
    const t0 = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          hostname,
          port,
          method: 'POST',
          path: '/v1/chat/completions',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            resolve(res.statusCode ?? 0);
          });
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => {
        req.end(text);
      }, slowBody);
    });
    const elapsed = Date.now() - t0;
    expect(status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(slowBody - 10);
    // Counted from the body's arrival it is at least slowBody + latency (2,000 ms).
    expect(elapsed).toBeLessThan(slowBody + latency - 100);
  });

  it('mockModel and parseMockModel round-trip; bad names are a 400', async () => {
    const name = mockModel({
      latency: [10, 20],
      fail: [
        [500, 2],
        ['timeout', 1],
      ],
      seed: 'x y',
      ns: 'n1',
      mode: 'scripted',
    });
    expect(name).toBe('mock-scripted?latency=10-20&fail=500:2,timeout:1&seed=x+y&ns=n1');
    const d = parseMockModel(name);
    expect(d).toMatchObject({ mode: 'scripted', latency: [10, 20], seed: 'x y', namespace: 'n1' });
    expect(d.failSequence.map((f) => (f.kind === 'status' ? f.status : f.kind))).toEqual([500, 500, 'timeout']);
    const bad = await complete([{ role: 'user', content: 'x' }], 'mock-judge?nope=1');
    expect(bad.status).toBe(400);
  });

  it('echoKey: error bodies quote the key the request carried; replies do not change', async () => {
    expect(mockModel({ permanent: 503, echoKey: true })).toBe('mock-judge?permanent=503&echoKey=1');
    expect(parseMockModel('mock-judge?echoKey=1').echoKey).toBe(true);
    expect(parseMockModel('mock-judge').echoKey).toBe(false);
    expect(() => parseMockModel('mock-judge?echoKey=yes')).toThrow(/echoKey/);
    const send = (model: string, headers: Record<string, string>) =>
      handleMockRequest(
        new Request('http://mock/v1/chat/completions', {
          method: 'POST',
          headers,
          body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
        }),
        { state: createMockState() },
      );
    const bearer = (await (
      await send(mockModel({ permanent: 503, echoKey: true }), { authorization: 'Bearer k-123456' })
    ).json()) as { error: { message: string } };
    expect(bearer.error.message).toContain(
      'Incorrect API key provided: k-123456. Request header: "Authorization: Bearer k-123456".',
    );
    const azure = (await (
      await send(mockModel({ permanent: 401, echoKey: true }), { 'api-key': 'az-987654' })
    ).json()) as { error: { message: string } };
    expect(azure.error.message).toContain('Incorrect API key provided: az-987654.');
    const quiet = (await (await send(mockModel({ permanent: 401 }), { authorization: 'Bearer k-123456' })).json()) as {
      error: { message: string };
    };
    expect(quiet.error.message).not.toContain('k-123456');
    expect((await send(mockModel({ echoKey: true }), { authorization: 'Bearer k-123456' })).status).toBe(200);
  });
});

describe('function calling', () => {
  // autoevals' Battle classifies through a forced `select_choice` call (bench/peers.ts runs it on the mock).
  const tools = [
    {
      type: 'function',
      function: {
        name: 'select_choice',
        parameters: {
          type: 'object',
          properties: { reasons: { type: 'string' }, choice: { type: 'string', enum: ['Yes', 'No'] } },
          required: ['reasons', 'choice'],
        },
      },
    },
  ];
  const messages = [{ role: 'user', content: 'Is the second answer better than the first?' }];

  it('answers a forced call with arguments that fit the function schema, deterministically', async () => {
    const extra = { tools, tool_choice: { type: 'function', function: { name: 'select_choice' } } };
    const a = await complete(messages, 'mock-judge', createMockState(), extra);
    const b = await complete(messages, 'mock-judge', createMockState(), extra);
    expect(a.status).toBe(200);
    const choice = a.body.choices[0] as unknown as {
      message: { content: null; tool_calls: { type: string; function: { name: string; arguments: string } }[] };
      finish_reason: string;
    };
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls[0];
    expect(call?.function.name).toBe('select_choice');
    const args = JSON.parse(call?.function.arguments ?? '{}') as { reasons: unknown; choice: unknown };
    expect(typeof args.reasons).toBe('string');
    expect(['Yes', 'No']).toContain(args.choice);
    expect(b.body.choices).toEqual(a.body.choices);
  });

  it('answers with text when no call is forced', async () => {
    const r = await complete(messages, 'mock-judge', createMockState(), { tools, tool_choice: 'auto' });
    expect(r.body.choices[0]?.finish_reason).toBe('stop');
    expect(typeof r.body.choices[0]?.message.content).toBe('string');
  });
});

describe('scripted mode', () => {
  it('answers by pattern, set in code', async () => {
    const state = createMockState();
    setScript(state, 'code', [
      { pattern: /capital of france/i, reply: 'Paris.' },
      { pattern: 'verdict', reply: '[[B]]' },
    ]);
    const model = mockModel({ mode: 'scripted', ns: 'code' });
    expect(
      (await complete([{ role: 'user', content: 'What is the capital of France?' }], model, state)).body.choices[0]
        ?.message.content,
    ).toBe('Paris.');
    expect(
      (await complete([{ role: 'user', content: 'Give a verdict' }], model, state)).body.choices[0]?.message.content,
    ).toBe('[[B]]');
  });

  it('answers by pattern, set through the control endpoint per namespace', async () => {
    const put = (ns: string, reply: string) =>
      fetch(`${server.url}/_mock/scripts/${ns}`, {
        method: 'PUT',
        body: JSON.stringify({ rules: [{ pattern: 'ping', flags: 'i', reply }] }),
      });
    expect((await put('t1', 'pong one')).status).toBe(204);
    expect((await put('t2', 'pong two')).status).toBe(204);
    const ask = async (ns: string) => {
      const res = await fetch(`${server.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: mockModel({ mode: 'scripted', ns }),
          messages: [{ role: 'user', content: 'PING' }],
        }),
      });
      return ((await res.json()) as Completion).choices[0]?.message.content;
    };
    expect(await ask('t1')).toBe('pong one');
    expect(await ask('t2')).toBe('pong two');
    expect((await fetch(`${server.url}/_mock/scripts/t1`, { method: 'DELETE' })).status).toBe(204);
    // No rule left: judge-mode fallback (free text).
    expect(await ask('t1')).not.toBe('pong one');
  });
});

describe('server', () => {
  it('lists models', async () => {
    const res = await fetch(`${server.baseUrl}/models`);
    const body = (await res.json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toContain('mock-judge');
  });

  it('accounts cached tokens for a repeated prefix of 1,024+ tokens in 128-token steps', async () => {
    const state = createMockState();
    const system = 'Judge the two answers with care and explain the reasons for your verdict. '.repeat(100);
    const short = await complete([{ role: 'user', content: 'short prompt' }], 'mock-judge', state);
    expect(short.body.usage?.prompt_tokens_details.cached_tokens).toBe(0);
    const first = await complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: 'Question A' },
      ],
      'mock-judge',
      state,
    );
    const second = await complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: 'Question B is here' },
      ],
      'mock-judge',
      state,
    );
    const other = await complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: 'Question C' },
      ],
      'mock-other',
      state,
    );
    expect(first.body.usage?.prompt_tokens).toBeGreaterThan(1024);
    expect(first.body.usage?.prompt_tokens_details.cached_tokens).toBe(0);
    const cached = second.body.usage?.prompt_tokens_details.cached_tokens ?? 0;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(second.body.usage?.prompt_tokens ?? 0);
    // Different model, different cache.
    expect(other.body.usage?.prompt_tokens_details.cached_tokens).toBe(0);
  });
});
