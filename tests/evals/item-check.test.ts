/**
 * The eval item_schema check in Node: valid items at the edges of the subset it follows must pass (a 400 for a
 * valid run is the worse failure), keywords it does not follow accept, and the refusals it makes name the field.
 */
import { describe, expect, it } from 'vitest';
import { itemIssues, MAX_ITEM_ISSUES } from '../../src/evals/item-check.js';

const at = (i: number) => `content.${String(i)}.item`;
const issuesOf = (schema: Record<string, unknown>, ...items: unknown[]) => itemIssues(items, schema, at);

describe('valid items pass', () => {
  it('keys a patternProperties names pass beside additionalProperties: false', () => {
    const schema = {
      type: 'object',
      properties: { question: { type: 'string' } },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: false,
    };
    expect(issuesOf(schema, { question: 'q', 'x-source': 'wiki' })).toEqual([]);
  });

  it('keys an unevaluatedProperties governs pass beside additionalProperties: false', () => {
    const schema = {
      type: 'object',
      properties: { question: { type: 'string' } },
      unevaluatedProperties: true,
      additionalProperties: false,
    };
    expect(issuesOf(schema, { question: 'q', extra: 1 })).toEqual([]);
  });

  it('prefixItems checks by position and items only the rest', () => {
    const schema = {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: { type: 'boolean' } },
      },
    };
    expect(issuesOf(schema, { pair: ['a', 1] }, { pair: ['a', 1, true, false] })).toEqual([]);
  });

  it('enum and const compare objects whatever their key order', () => {
    const schema = {
      type: 'object',
      properties: {
        pick: { enum: [{ a: 1, b: [1, { c: 'x', d: null }] }, 'none'] },
        fixed: { const: { lang: 'en', level: 2 } },
      },
    };
    const item = { pick: { b: [1, { d: null, c: 'x' }], a: 1 }, fixed: { level: 2, lang: 'en' } };
    expect(issuesOf(schema, item)).toEqual([]);
  });

  it('a level with $ref, a combinator or if/then/else is accepted', () => {
    const schema = {
      type: 'object',
      $defs: { text: { type: 'string' } },
      properties: {
        ref: { $ref: '#/$defs/text', type: 'integer' },
        any: { anyOf: [{ type: 'string' }, { type: 'integer' }], type: 'string' },
        all: { allOf: [{ type: 'object' }], type: 'object', additionalProperties: false },
        one: { oneOf: [{ type: 'integer' }, { type: 'string' }], type: 'integer' },
        not: { not: { type: 'string' }, type: 'string' },
        cond: { if: { type: 'integer' }, then: { minimum: 0 }, else: { type: 'string' }, type: 'string' },
      },
    };
    const item = { ref: 'text', any: 3, all: { from_all_of: 1 }, one: 'x', not: 4, cond: 5 };
    expect(issuesOf(schema, item)).toEqual([]);
  });

  it('an unknown or empty type name and nullable: true', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'any' }, b: { type: [] }, c: { type: 'string', nullable: true } },
    };
    expect(issuesOf(schema, { a: 1, b: 'x', c: null })).toEqual([]);
  });
});

describe('valid items the old subset passed too (guards for the rewrite)', () => {
  it('an array items (before 2020-12) checks by position and additionalItems the rest', () => {
    const schema = {
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
      additionalItems: { type: 'null' },
    };
    expect(issuesOf(schema, ['a', 2.5, null, null])).toEqual([]);
  });

  it('the cases the subset always followed still pass', () => {
    const schema = {
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        n: { type: 'number' },
        i: { type: 'integer' },
        nested: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
      },
      additionalProperties: { type: 'string' },
    };
    expect(
      issuesOf(schema, { maybe: null, n: 3, i: JSON.parse('1.0') as unknown, nested: { tags: ['x'] }, note: 'n' }),
    ).toEqual([]);
  });
});

describe('refusals name the field', () => {
  const schema = {
    type: 'object',
    properties: {
      question: { type: 'string' },
      kind: { enum: ['a', 'b'] },
      meta: { const: { v: 1 } },
      pair: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
      tuple: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } },
    },
    required: ['question', 'toString'],
    additionalProperties: false,
  };

  it('a wrong type, an enum or const miss, a missing key, an extra key and a wrong element', () => {
    const item = {
      question: 1,
      kind: 'c',
      meta: { v: 2 },
      pair: ['a', 'b'],
      tuple: [1, 2],
      extra: true,
    };
    expect(issuesOf(schema, item)).toEqual([
      { path: 'content.0.item.toString', message: 'required' },
      { path: 'content.0.item.question', message: 'expected string, got integer' },
      { path: 'content.0.item.kind', message: 'expected one of ["a","b"]' },
      { path: 'content.0.item.meta', message: 'expected {"v":1}' },
      { path: 'content.0.item.pair.1', message: 'expected integer, got string' },
      { path: 'content.0.item.tuple.0', message: 'expected string, got integer' },
      { path: 'content.0.item.extra', message: 'not in the item schema' },
    ]);
  });

  it('an additionalProperties schema checks the other keys; issues stop at the cap', () => {
    const open = { type: 'object', additionalProperties: { type: 'string' } };
    expect(issuesOf(open, { a: 'x', b: 2 })).toEqual([
      { path: 'content.0.item.b', message: 'expected string, got integer' },
    ]);
    const many = Array.from({ length: MAX_ITEM_ISSUES + 5 }, () => ({ b: 2 }));
    expect(itemIssues(many, open, at)).toHaveLength(MAX_ITEM_ISSUES);
  });

  it('null is refused where the type does not admit it and no nullable says so', () => {
    expect(issuesOf({ type: 'object', properties: { c: { type: 'string' } } }, { c: null })).toEqual([
      { path: 'content.0.item.c', message: 'expected string, got null' },
    ]);
  });
});
