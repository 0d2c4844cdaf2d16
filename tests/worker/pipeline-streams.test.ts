/**
 * The Durable Object's subscribers (durable-objects/evaluation/streams.ts), run in workerd with a stand-in for the
 * object's state: a broadcast reaches every subscriber that exists, and asks nothing and encodes nothing for
 * subscribers that do not (each call's start and result are broadcast on the way to the next call).
 */
import { describe, expect, it } from 'vitest';
import { Streams } from '../../durable-objects/evaluation/streams.js';
import type { EvaluationEvent } from '../../src/evaluations/live-events.js';

type Ctx = ConstructorParameters<typeof Streams>[0];

/** A stand-in for the object's state that counts `getWebSockets()` and holds the sockets given. */
function stateWith(sockets: { send(frame: string): void }[]): { ctx: Ctx; asked: () => number } {
  let asked = 0;
  const ctx = {
    getWebSockets: () => {
      asked += 1;
      return sockets;
    },
  } as unknown as Ctx;
  return { ctx, asked: () => asked };
}

function started(i: number): EvaluationEvent {
  return {
    type: 'call.started',
    data: { evaluationId: 'ev1', callId: `c${i}`, agent: 'a', label: 'A', stage: 's', at: i },
  };
}

describe('Streams.broadcast', () => {
  it('asks the runtime for WebSockets once per instance while there are none', () => {
    const { ctx, asked } = stateWith([]);
    const streams = new Streams(ctx);
    for (let i = 0; i < 16; i++) streams.broadcast(started(i));
    expect(asked()).toBe(1);
  });

  it('reaches sockets an earlier instance accepted (they outlive hibernation), every event', () => {
    const frames: string[] = [];
    const { ctx } = stateWith([{ send: (f) => frames.push(f) }]);
    const streams = new Streams(ctx);
    for (let i = 0; i < 3; i++) streams.broadcast(started(i));
    expect(frames.map((f) => (JSON.parse(f) as { data: { callId: string } }).data.callId)).toEqual(['c0', 'c1', 'c2']);
  });

  it('reaches an SSE subscriber that joined after broadcasts with no one listening', async () => {
    const { ctx } = stateWith([]);
    const streams = new Streams(ctx);
    streams.broadcast(started(0));
    const response = streams.open(new Request('https://do/events'), [], false);
    streams.broadcast(started(1));
    streams.closeAll();
    const text = await response.text();
    expect(text).toContain('"callId":"c1"');
    expect(text).not.toContain('"callId":"c0"');
  });
});
