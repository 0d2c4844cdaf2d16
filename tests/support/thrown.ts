/**
 * The error of a class a call throws synchronously, for tests that check what a refusal says: anything else it
 * throws is rethrown, and a call that returns fails the test.
 */
export function thrownBy<E extends Error>(kind: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof kind) return e;
    throw e;
  }
  throw new Error(`expected a ${kind.name}`);
}
