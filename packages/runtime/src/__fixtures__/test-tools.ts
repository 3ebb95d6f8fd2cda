import { createToolRegistry } from "@little-stack/harness";
import { tool } from "ai";
import { z } from "zod";

/** Tools that count their invocations, for asserting that replay never calls twice. */
export function countingTools() {
  const calls: { name: string; args: unknown }[] = [];
  const registry = createToolRegistry({
    increment: tool({
      description: "Adds one to n.",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        calls.push({ name: "increment", args: { n } });
        return { n: n + 1 };
      },
    }),
    echo: tool({
      description: "Returns its input.",
      inputSchema: z.object({}).passthrough(),
      execute: async (input) => {
        calls.push({ name: "echo", args: input });
        return input;
      },
    }),
    explode: tool({
      description: "Always fails.",
      inputSchema: z.object({}).passthrough(),
      execute: async (): Promise<{ ok: boolean }> => {
        calls.push({ name: "explode", args: {} });
        throw new Error("explode: the tool failed on purpose");
      },
    }),
  });
  return { registry, calls };
}

/**
 * Tools that show what runs at the same time, without timing anything:
 * - `work({ name, together? })` waits (up to 5 s) until `together` calls have been in flight at
 *   once and says whether that happened; the gauge keeps the peak and every abort signal seen;
 * - `hang({ name })` waits until its abort signal fires (recording the name in `aborted`);
 * - `fail({ name, whenStarted? })` throws once the call named `whenStarted` has started;
 * - `increment` and `echo` as in `countingTools`, uncounted.
 */
export function concurrencyTools() {
  const gauge = { inFlight: 0, peak: 0, started: [] as string[], aborted: [] as string[], signals: [] as AbortSignal[] };
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const until = (predicate: () => boolean, limitMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(false);
      }, limitMs);
      waiters.add(check);
      check();
    });
  const begin = (name: string, signal: AbortSignal | undefined): void => {
    gauge.inFlight += 1;
    gauge.peak = Math.max(gauge.peak, gauge.inFlight);
    gauge.started.push(name);
    if (signal !== undefined) gauge.signals.push(signal);
    changed();
  };
  const end = (): void => {
    gauge.inFlight -= 1;
    changed();
  };
  const registry = createToolRegistry({
    increment: tool({
      description: "Adds one to n.",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => ({ n: n + 1 }),
    }),
    echo: tool({
      description: "Returns its input.",
      inputSchema: z.object({}).passthrough(),
      execute: async (input) => input,
    }),
    work: tool({
      description: "Works on one item; can wait for others to be in flight.",
      inputSchema: z.object({ name: z.string(), together: z.number().optional() }),
      execute: async ({ name, together }, { abortSignal }) => {
        begin(name, abortSignal);
        try {
          const met = together === undefined ? true : await until(() => gauge.peak >= together, 5_000);
          return { name, together: met };
        } finally {
          end();
        }
      },
    }),
    hang: tool({
      description: "Waits until aborted.",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }, { abortSignal }): Promise<{ name: string }> => {
        begin(name, abortSignal);
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 10_000);
            abortSignal?.addEventListener(
              "abort",
              () => {
                clearTimeout(timer);
                gauge.aborted.push(name);
                reject(new Error(`${name} aborted`));
              },
              { once: true },
            );
          });
          return { name };
        } finally {
          end();
        }
      },
    }),
    fail: tool({
      description: "Fails, once another call has started.",
      inputSchema: z.object({ name: z.string(), whenStarted: z.string().optional() }),
      execute: async ({ name, whenStarted }, { abortSignal }): Promise<{ name: string }> => {
        begin(name, abortSignal);
        try {
          if (whenStarted !== undefined) await until(() => gauge.started.includes(whenStarted), 5_000);
          throw new Error(`${name} failed on purpose`);
        } finally {
          end();
        }
      },
    }),
  });
  return { registry, gauge };
}
