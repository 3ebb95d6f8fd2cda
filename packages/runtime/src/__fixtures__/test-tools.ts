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
