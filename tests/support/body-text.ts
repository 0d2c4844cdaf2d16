/**
 * A body's text, decoded as UTF-8 from its bytes. For NDJSON, octet-stream and the like: workerd warns on
 * `.text()` of a body whose type it does not know as text (`Called .text() on an HTTP body which does not appear
 * to be text`), once per read, on every run's terminal.
 */
export async function bodyText(body: { arrayBuffer(): Promise<ArrayBuffer> }): Promise<string> {
  return new TextDecoder().decode(await body.arrayBuffer());
}
