/**
 * @module
 * OTLP attributes as plain JSON: an AnyValue becomes a string, number, boolean, array or object; a 64-bit
 * integer past 2^53 stays a decimal string; bytes become base64. Long strings are cut at
 * {@link MAX_ATTRIBUTE_CHARS} (counted, so the export's answer can say so).
 */
import type { OtlpAnyValue, OtlpKeyValue } from './otlp-request.js';

/** Longest string value kept, in characters: 32,000 (a longer one is cut and counted). */
export const MAX_ATTRIBUTE_CHARS = 32_000;

/** Counts what reading attributes changed (strings cut). */
export interface ReadNotes {
  truncated: number;
}

function cut(s: string, notes: ReadNotes): string {
  if (s.length <= MAX_ATTRIBUTE_CHARS) return s;
  notes.truncated += 1;
  return s.slice(0, MAX_ATTRIBUTE_CHARS);
}

/** An AnyValue as JSON (null for an empty one). */
export function valueOf(v: OtlpAnyValue | null | undefined, notes: ReadNotes): unknown {
  if (!v) return null;
  if (typeof v.stringValue === 'string') return cut(v.stringValue, notes);
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== null && v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (v.doubleValue !== null && v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.arrayValue) return (v.arrayValue.values ?? []).map((x) => valueOf(x, notes));
  if (v.kvlistValue) return attributesOf(v.kvlistValue.values, notes);
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  return null;
}

/** Key-values as an object (a repeated key: the last wins, as OTLP leaves it undefined). */
export function attributesOf(
  list: readonly OtlpKeyValue[] | null | undefined,
  notes: ReadNotes,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) {
    if (kv.key === '__proto__' || kv.key === 'constructor' || kv.key === 'prototype') continue;
    out[kv.key] = valueOf(kv.value, notes);
  }
  return out;
}

/** An attribute as text: strings as they are, numbers and booleans printed, arrays and objects as JSON. */
export function textOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** An attribute as a number, or null. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** The first of `keys` that `attrs` holds as text. */
export function firstText(attrs: Record<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) {
    const t = textOf(attrs[k]);
    if (t !== null && t !== '') return t;
  }
  return null;
}
