/**
 * @module
 * Finding the JSON object in a judge's reply (fenced or bare), shared by the JSON readers.
 */

/** The JSON object in a reply: the last fenced block that parses, else the outermost braces. */
export function extractJsonObject(text: string): object | undefined {
  const candidates = [...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)].map((m) => m[1] ?? '').reverse();
  candidates.push(text);
  for (const body of candidates) {
    const start = body.indexOf('{');
    const end = body.lastIndexOf('}');
    if (start < 0 || end <= start) continue;
    try {
      const v = JSON.parse(body.slice(start, end + 1)) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
    } catch {
      // not JSON; try the next candidate
    }
  }
  return undefined;
}
