/**
 * How long tests wait for an event, and how long a test may take. A wait ends as soon as its event happens,
 * so these only matter when something is wrong or the machine is busy: CI may share this 2-core machine with
 * other work, and at a load of 15-25 a step that takes 2 s on a quiet machine took 20-40 s. Tests therefore
 * wait on events with one wide margin (never a tight wall-clock bound), and the runner's timeout stays above
 * every wait, so a wait that expires fails with its own message (the last value it saw), not a bare timeout.
 *
 * Runs in Node and in workerd (no `process`): plain constants.
 */

/** The longest a test waits for one event (an evaluation ending, a webhook arriving), in ms: 90 s. */
export const WAIT_MS = 90_000;

/** The runner's timeout for a test or hook in the worker project (a test in the node project), in ms: 150 s, above {@link WAIT_MS}. */
export const TEST_MS = 150_000;
