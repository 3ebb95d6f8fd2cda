import { performance } from "node:perf_hooks";

/**
 * How long a run may keep the event loop to itself. Steps whose tools and world answer without
 * I/O (a trivial tool, a memory or SQLite world — better-sqlite3 is synchronous) are one unbroken chain of promise callbacks: without a turn, no timer, socket or
 * signal handler runs until the run ends — an `AbortSignal.timeout`, a run `timeout`, a SIGINT handler in
 * `little worker`, an HTTP server or a live-event stream in the same process all wait seconds.
 * 10 ms keeps the cost near nothing (one `setImmediate` round trip per 10 ms of steps) and a
 * timer's or socket's wait short.
 */
const maxTurnMs = 10;

/** Process-wide: the event loop is. */
let lastTurnAt = performance.now();

/**
 * A promise that settles after the event loop has run once (timers, I/O, signals), when the run
 * has held it for `maxTurnMs`; `undefined` otherwise, so the common case costs one clock read and
 * no allocation. The scheduler awaits it between steps — never inside one, so a step's attempt
 * and its commit stay as they were.
 */
export function eventLoopTurnIfDue(): Promise<void> | undefined {
  if (performance.now() - lastTurnAt < maxTurnMs) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      lastTurnAt = performance.now();
      resolve();
    }),
  );
}
