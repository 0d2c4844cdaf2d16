/**
 * @module
 * The brief's architecture at its barest, for `bench:peers --tools bare`: the `forward` Worker
 * (./forward-worker.ts) plus the persistence every verdict must have, and nothing of Tribunal's. Per item: one D1
 * insert of the evaluation's row, one new Durable Object (SQLite-backed) that stores the task, makes the LLM call,
 * stores its result before anything else, then one D1 write of the row's end. No validation, auth, rate limit,
 * provider gate, engine, verdict cache, webhook outbox, usage roll-up or log line. The gap between Tribunal's row
 * and this one is what Tribunal's code and its extra statements and round trips cost; the gap between this row and
 * `forward` is what the local runtime charges for the minimum the architecture asks (a D1 row at accept, an object
 * per evaluation storing each result, the final D1 write).
 */
import type { MiniflareOptions } from '../src/cli/worker-options.js';

/** The bare Worker and its object (an ES module): the mock's base URL comes in as the `TARGET` binding. */
export const BARE_SCRIPT = `import { DurableObject } from 'cloudflare:workers';
export class Evaluation extends DurableObject {
  async run(id, body, target) {
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS evaluation (id TEXT PRIMARY KEY, task TEXT NOT NULL, result TEXT)');
    sql.exec('INSERT INTO evaluation (id, task) VALUES (?, ?)', id, body);
    const answer = await fetch(target + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
      body,
    });
    const text = await answer.text();
    sql.exec('UPDATE evaluation SET result = ? WHERE id = ?', text, id);
    return text;
  }
}
let made = false;
export default {
  async fetch(request, env) {
    const body = await request.text();
    if (!made) {
      await env.DB.exec('CREATE TABLE IF NOT EXISTS evaluations (id TEXT PRIMARY KEY, status TEXT NOT NULL, verdict TEXT)');
      made = true;
    }
    const id = crypto.randomUUID();
    await env.DB.prepare('INSERT INTO evaluations (id, status) VALUES (?, ?)').bind(id, 'running').run();
    const text = await env.EVALUATION.get(env.EVALUATION.idFromName(id)).run(id, body, env.TARGET);
    await env.DB.prepare('UPDATE evaluations SET status = ?, verdict = ? WHERE id = ?').bind('done', text.slice(0, 200), id).run();
    return new Response(text, { headers: { 'content-type': 'application/json', 'content-encoding': 'identity' } });
  },
};`;

/** The bindings {@link BARE_SCRIPT} needs, its D1 and object files kept under `stateDir`. */
export function bareOptions(stateDir: string): MiniflareOptions {
  return {
    d1Databases: { DB: 'bare' },
    durableObjects: { EVALUATION: { className: 'Evaluation', useSQLite: true } },
    d1Persist: stateDir,
    durableObjectsPersist: stateDir,
  };
}
