/**
 * A V8 CPU profile over the inspector's WebSocket (workerd's `--inspector-addr`), shared by `bench:profile`
 * (single-call verdicts) and `bench:debates` (debates in flight): a minimal DevTools-protocol session and the
 * self / inclusive time per function of the profile it returns.
 */
import WebSocket from 'ws';

/** The parts of a V8 `Profiler.Profile` read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * A minimal DevTools-protocol session over the inspector's WebSocket. A command unanswered after `timeoutMs`
 * (default 60 s), or when the socket closes, rejects: workerd's inspector never answers a command it cannot
 * parse (it only logs an uncaught exception, e.g. capnp's "Expected integer value"), and a bench would hang.
 */
export async function session(
  url: string,
  timeoutMs = 60_000,
): Promise<{ send: (method: string, params?: object) => Promise<unknown>; close: () => void }> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      resolve();
    });
    ws.once('error', reject);
  });
  let next = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (e: Error) => void }>();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.resolve(m.result);
  });
  ws.on('close', () => {
    for (const p of pending.values()) p.reject(new Error('the inspector closed the session'));
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        next += 1;
        const id = next;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the inspector did not answer ${method} in ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          pending.delete(id);
        };
        pending.set(id, {
          resolve: (r) => {
            done();
            resolve(r);
          },
          reject: (e) => {
            done();
            reject(e);
          },
        });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => {
      ws.close();
    },
  };
}

/**
 * The sampler's achieved period in a profile, µs. workerd locks an isolate only while it runs it, and V8 drops
 * a tick that finds the isolate unlocked, so a gap between two samples is either one period (the isolate
 * stayed locked) or several, most of them another isolate's or no one's. The period is the median of the gaps
 * under twice the asked `intervalUs` (`intervalUs` itself when there are fewer than 20).
 */
export function achievedPeriodUs(profile: CpuProfile, intervalUs: number): number {
  const close = profile.timeDeltas.filter((d) => d > 0 && d < 2 * intervalUs).sort((a, b) => a - b);
  return close.length >= 20 ? (close[Math.floor(close.length / 2)] ?? intervalUs) : intervalUs;
}

/**
 * Self and inclusive time per function (name, file tail, line), ms per item: each sample counts one achieved
 * period ({@link achievedPeriodUs} of `intervalUs`, the interval asked), so `total` is the time the isolate
 * held the thread. (A sample's gap to the next one would also count the time the isolate was not locked,
 * and give it to whatever ran last before each wait.)
 */
export function tables(
  p: CpuProfile,
  items: number,
  intervalUs: number,
): { total: number; periodUs: number; self: [string, number][]; inclusive: [string, number][] } {
  const periodUs = achievedPeriodUs(p, intervalUs);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const spent = new Map<number, number>();
  for (const id of p.samples) spent.set(id, (spent.get(id) ?? 0) + periodUs);
  const keyOf = (id: number) => {
    const f = byId.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1) ?? ''}:${f.lineNumber + 1}` : '?';
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, us] of spent) {
    total += us;
    self.set(keyOf(id), (self.get(keyOf(id)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(at);
      if (!seen.has(k)) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
      seen.add(k);
    }
  }
  const perItem = (m: Map<string, number>): [string, number][] =>
    [...m].map(([k, us]): [string, number] => [k, us / 1000 / items]).sort((a, b) => b[1] - a[1]);
  return { total: total / 1000 / items, periodUs, self: perItem(self), inclusive: perItem(inclusive) };
}
