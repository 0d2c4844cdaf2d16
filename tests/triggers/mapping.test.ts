/**
 * The mapping language of triggers (src/triggers/mapping.ts): RFC 6901 pointers, templates, constants,
 * filters, and the task it builds (422 naming the field when it cannot).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { applyRule, applyTextRule, MappingError, passesFilter, resolvePointer } from '../../src/triggers/mapping.js';
import { mapRequest } from '../../src/triggers/hook.js';
import type { Mapping } from '../../src/triggers/schemas.js';

// The examples of RFC 6901, section 5.
const RFC = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

describe('JSON Pointer (RFC 6901)', () => {
  it("resolves the RFC's examples", () => {
    const cases: [string, unknown][] = [
      ['', RFC],
      ['/foo', ['bar', 'baz']],
      ['/foo/0', 'bar'],
      ['/', 0],
      ['/a~1b', 1],
      ['/c%d', 2],
      ['/e^f', 3],
      ['/g|h', 4],
      ['/i\\j', 5],
      ['/k"l', 6],
      ['/ ', 7],
      ['/m~0n', 8],
    ];
    for (const [p, v] of cases) expect(resolvePointer(RFC, p), p).toEqual({ found: true, value: v });
  });
  it('missing keys, bad indexes and malformed pointers are not found', () => {
    for (const p of ['/nope', '/foo/2', '/foo/01', '/foo/-', '/foo/bar', 'foo', '/m~2n'])
      expect(resolvePointer(RFC, p).found, p).toBe(false);
    // Own properties only: no prototype walk.
    expect(resolvePointer({}, '/constructor').found).toBe(false);
    expect(resolvePointer({ a: null }, '/a')).toEqual({ found: true, value: null });
  });
});

describe('rules', () => {
  const doc = { n: 3, b: true, s: 'x', o: { k: 1 }, l: [1, 'two'] };
  it('templates insert strings raw, numbers and booleans as text, objects and arrays as JSON', () => {
    expect(applyRule(doc, { template: '{{/s}}-{{/n}}-{{/b}}-{{ /o }}-{{/l}}' }, 'f')).toBe(
      'x-3-true-{"k":1}-[1,"two"]',
    );
  });
  it('a constant is itself; a missing pointer names the field', () => {
    expect(applyRule(doc, { value: { name: 'a' } }, 'f')).toEqual({ name: 'a' });
    expect(() => applyRule(doc, '/missing', 'task.question')).toThrow(
      new MappingError('task.question', '/missing is missing from the payload'),
    );
  });
  it('text rules take strings, numbers and booleans, and refuse the rest', () => {
    expect(applyTextRule(doc, '/n', 'f')).toBe('3');
    expect(() => applyTextRule(doc, '/l', 'f')).toThrow('expected text, got an array');
    expect(() => applyTextRule({ z: null }, '/z', 'f')).toThrow('expected text, got null');
  });
});

describe('filters', () => {
  const doc = { action: 'closed', pr: { merged: true, labels: ['eval'] } };
  it('every condition must hold: equals (deep), in, exists', () => {
    expect(
      passesFilter(doc, [
        { pointer: '/action', equals: 'closed' },
        { pointer: '/pr/labels', equals: ['eval'] },
      ]),
    ).toEqual({ pass: true });
    expect(
      passesFilter(doc, [
        { pointer: '/action', in: ['opened', 'closed'] },
        { pointer: '/pr/merged', exists: true },
      ]),
    ).toEqual({ pass: true });
    expect(passesFilter(doc, [{ pointer: '/action', equals: 'opened' }])).toEqual({
      pass: false,
      reason: '/action is not "opened"',
    });
    expect(passesFilter(doc, [{ pointer: '/draft', exists: true }])).toEqual({
      pass: false,
      reason: '/draft is missing',
    });
    expect(passesFilter(doc, [{ pointer: '/action', exists: false }])).toEqual({
      pass: false,
      reason: '/action is present',
    });
    expect(passesFilter(doc, [{ pointer: '/action', in: [1, 2] }])).toEqual({
      pass: false,
      reason: '/action is none of the listed values',
    });
  });
});

describe('the task a mapping builds', () => {
  const mapping: Mapping = {
    task: { kind: 'pointwise', source: '/article', output: '/summary', aspect: '/aspect' },
    metadata: { commit: '/sha', n: '/n' },
  };
  it('maps every field, metadata included', () => {
    const doc = {
      article: 'A long article.',
      summary: 'Short.',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      sha: 'abc',
      n: 2,
    };
    expect(mapRequest(mapping, doc)).toEqual({
      task: {
        kind: 'pointwise',
        source: 'A long article.',
        output: 'Short.',
        aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      },
      metadata: { commit: 'abc', n: 2 },
    });
  });
  it('422 mapping_failed naming the first field that cannot be filled or fails the task schema', () => {
    const fail = (doc: unknown): ApiError => {
      try {
        mapRequest(mapping, doc);
      } catch (e) {
        if (e instanceof ApiError) return e;
        throw e;
      }
      throw new Error('mapped');
    };
    const base = {
      article: 'A',
      summary: 'S',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      sha: 'abc',
      n: 2,
    };
    const { summary: _summary, ...withoutSummary } = base;
    const missing = fail(withoutSummary);
    expect(missing.status).toBe(422);
    expect(missing.code).toBe('mapping_failed');
    expect(missing.issues).toEqual([{ path: 'task.output', message: '/summary is missing from the payload' }]);
    expect(fail({ ...base, aspect: { name: 'x', scale: { min: 5, max: 1 } } }).issues?.[0]?.path).toBe(
      'task.aspect.scale',
    );
    expect(fail({ ...base, sha: { no: 1 } }).issues?.[0]?.path).toBe('metadata.commit');
  });
});
