/**
 * `GET /v1/models` and `GET /v1/models/{model}` with the official OpenAI SDK: every preset of the engine's
 * registry is a model (so presets added later appear without any change here), `@<model>` names resolve,
 * and errors on these paths are in OpenAI's shape whoever raises them.
 */
import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/registry.js';
import { MODELS_CREATED, parseModelId } from '../../src/openai/models.js';
import { ModelListSchema, OpenAIErrorBodySchema } from '../../src/openai/schemas.js';
import { api } from './api-fetch.js';
import { sdk } from './openai-support.js';

describe('judges as models', () => {
  it('lists every preset as tribunal/<preset>, with its method and task kind', async () => {
    const models: OpenAI.Model[] = [];
    for await (const m of sdk().models.list()) models.push(m);
    expect(models.map((m) => m.id)).toEqual(PRESETS.map((p) => `tribunal/${p.id}`));
    for (const m of models) {
      const preset = PRESETS.find((p) => `tribunal/${p.id}` === m.id)!;
      expect(m).toMatchObject({ object: 'model', created: MODELS_CREATED, owned_by: 'tribunal' });
      expect((m as OpenAI.Model & { tribunal: unknown }).tribunal).toEqual({
        preset: preset.id,
        method: preset.config.method,
        taskKind: preset.taskKind,
        description: preset.description,
        paper: preset.paper,
      });
    }
    // The body is exactly the documented schema.
    ModelListSchema.parse(await (await api('/v1/models')).json());
  });

  it('retrieves one judge, with or without @<model>; an unknown one is a NotFoundError', async () => {
    const client = sdk();
    expect((await client.models.retrieve('tribunal/chateval-faireval')).id).toBe('tribunal/chateval-faireval');
    const over = await client.models.retrieve('tribunal/chateval-faireval@gpt-4o-mini');
    expect(over.id).toBe('tribunal/chateval-faireval@gpt-4o-mini');
    expect((over as OpenAI.Model & { tribunal: { preset: string } }).tribunal.preset).toBe('chateval-faireval');
    const err = await client.models.retrieve('tribunal/nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as APIError).code).toBe('not_found');
    expect((err as APIError).param).toBe('model');
  });

  it('reads model names: everything after the first @ is the model, sent as is', () => {
    expect(parseModelId('tribunal/fastchat-pair@vertex/claude-3@2024:x').modelOverride).toBe('vertex/claude-3@2024:x');
    expect(parseModelId('tribunal/fastchat-pair').modelOverride).toBeUndefined();
    expect(() => parseModelId('tribunal/')).toThrow(/names no preset/);
    expect(() => parseModelId(`tribunal/fastchat-pair@${'m'.repeat(201)}`)).toThrow(/1-200 characters/);
  });

  it("answers errors on these paths in OpenAI's shape: 405, 404, 415, a bad query", async () => {
    const cases: { path: string; init?: RequestInit; status: number; code: string }[] = [
      { path: '/v1/models', init: { method: 'DELETE' }, status: 405, code: 'method_not_allowed' },
      { path: '/v1/chat/completions', init: { method: 'GET' }, status: 405, code: 'method_not_allowed' },
      { path: '/v1/chat/other', status: 404, code: 'not_found' },
      { path: '/v1/models?limit=3', status: 400, code: 'invalid_request' },
      {
        path: '/v1/chat/completions',
        init: { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hi' },
        status: 415,
        code: 'unsupported_media_type',
      },
      {
        path: '/v1/chat/completions',
        init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"model":' },
        status: 400,
        code: 'invalid_json',
      },
    ];
    for (const c of cases) {
      const r = await api(c.path, c.init);
      const body = OpenAIErrorBodySchema.parse(await r.json());
      expect([r.status, body.error.code], c.path).toEqual([c.status, c.code]);
      expect(body.error.type).toBe('invalid_request_error');
    }
    // Elsewhere the API keeps its own shape.
    const other = await (await api('/v1/methods?limit=3')).json<{ error: Record<string, unknown> }>();
    expect(other.error).not.toHaveProperty('type');
  });
});
