/**
 * Setup file of the worker project (before ./fresh-storage.ts): works around workers-sdk#15092 in
 * `@cloudflare/vitest-pool-workers` 0.15.1, fixed upstream by workers-sdk#15106 in a later release than
 * the one this project pins. The pool wraps the Worker entrypoint and each Durable Object class in a class
 * whose constructor sets `Class.prototype = new Proxy(Class.prototype, { get })`: every construction (each
 * request to the Worker, each object) adds one more layer around the previous one, so after n of them any
 * property read on a wrapper runs n nested `get` traps. Within one test file's workerd the chains stayed
 * short; with many files in one workerd (tests/vitest.worker.config.ts) they reach thousands and a request
 * to the Worker took 600 ms instead of 5.
 *
 * As the upstream fix does, the proxy is installed once: while this isolate runs, `new Proxy(target, h)`
 * returns `target` itself when `target` is a proxy this constructor made with a `get`-only handler of the
 * same source, i.e. exactly the pool's re-wrap, whose layers all answer alike. Every other proxy is made
 * as usual. Remove this file when the pinned pool has the fix.
 */

export {};

const INSTALLED = Symbol.for('tribunal.poolProxyFix');

if (!Reflect.has(globalThis, INSTALLED)) {
  Reflect.set(globalThis, INSTALLED, true);
  const NativeProxy = Proxy;
  // Proxies made with a get-only handler → the source of their `get` trap.
  const getOnly = new WeakMap<object, string>();
  const getSource = (handler: ProxyHandler<object>): string | undefined => {
    const keys = Reflect.ownKeys(handler);
    const get: unknown = Reflect.get(handler, 'get');
    return keys.length === 1 && keys[0] === 'get' && typeof get === 'function'
      ? Function.prototype.toString.call(get)
      : undefined;
  };
  globalThis.Proxy = new NativeProxy(NativeProxy, {
    construct(native, args: [object, ProxyHandler<object>], newTarget) {
      const [target, handler] = args;
      const source = getSource(handler);
      if (source !== undefined && getOnly.get(target) === source) return target;
      const proxy = Reflect.construct(native, args, newTarget) as object;
      if (source !== undefined) getOnly.set(proxy, source);
      return proxy;
    },
  });
}
