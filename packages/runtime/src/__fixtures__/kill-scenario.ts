import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createToolRegistry } from "@little-stack/harness";
import type { LwirStep } from "@little-stack/lwir";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer, type LoopbackRequest } from "@little-stack/testing";
import { tool } from "ai";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { codeFiles, fanInSchema, lwirDocument } from "./workflows.js";

/**
 * The workflow the kill-and-resume tests run in child processes: a seed tool call, a decision
 * loop (bump/check), a parallel group (tool + ai.generate per branch), a code.run step and a
 * final tool call. Every tool call appends `begin <callId> <pid>` when it starts and
 * `tool <callId> <pid>` when it has run to a log file, and every model call is an HTTP request to
 * the parent's loopback server, so the parent can count executions (and calls in flight at a
 * kill) across processes.
 */
export function killScenarioWorkflow(options: { readonly realCode?: boolean } = {}) {
  const object = { mode: "object", schema: { type: "object" } } as const;
  const steps = [
    { id: "seed", uses: "tool.call", with: { tool: "record", args: { label: "seed", value: "{{ input.start }}" } }, output: object },
    {
      id: "bump",
      uses: "tool.call",
      needs: ["seed"],
      maxVisits: 6,
      with: { tool: "bump", args: { n: "{{ coalesce(steps.bump.lastOutput.n, steps.seed.output.value) }}" } },
      output: { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
    },
    { id: "check", uses: "decision", needs: ["bump"], maxVisits: 6, with: { cases: [{ when: "{{ steps.bump.lastOutput.n < input.until }}", to: "bump" }], default: "fan" } },
    describedItems(),
    { id: "compute", uses: "code.run", needs: ["fan"], with: { entrypoint: "main.js", files: codeFiles(options.realCode === true ? realCode : '// OUTPUT: {"computed":true}'), sandbox: { network: "deny" } }, output: object },
    {
      id: "final",
      uses: "tool.call",
      needs: ["compute", "fan", "bump"],
      with: { tool: "record", args: { label: "final", value: { loops: "{{ len(steps.bump.allVisits) }}", fan: "{{ steps.fan.output }}", computed: "{{ steps.compute.output.computed }}" } } },
      output: object,
    },
  ] as LwirStep[];
  return lwirDocument({ steps, tools: ["record", "bump"], models: ["writer"] });
}

/**
 * The second kill scenario: independent work side by side. A decision loop (bump/check, then
 * settle), a step waiting for the loop (tally), two independent branches (a tool then ai.generate;
 * a tool then code.run) and a parallel group (tool + ai.generate per branch) all start at once;
 * `final` joins them. Several steps are in flight at almost any kill.
 */
export function sideBySideWorkflow(options: { readonly realCode?: boolean } = {}) {
  const text = { mode: "text" } as const;
  const object = { mode: "object", schema: { type: "object" } } as const;
  const counter = { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } } as const;
  const steps = [
    { id: "seed", uses: "tool.call", with: { tool: "record", args: { label: "seed", value: "{{ input.start }}" } }, output: object },
    { id: "bump", uses: "tool.call", needs: ["seed"], maxVisits: 6, with: { tool: "bump", args: { n: "{{ coalesce(steps.bump.lastOutput.n, steps.seed.output.value) }}" } }, output: counter },
    { id: "check", uses: "decision", needs: ["bump"], maxVisits: 6, with: { cases: [{ when: "{{ steps.bump.lastOutput.n < input.until }}", to: "bump" }], default: "settle" } },
    { id: "settle", uses: "tool.call", with: { tool: "record", args: { label: "settle", value: "{{ steps.bump.lastOutput.n }}" } }, output: object },
    { id: "tally", uses: "tool.call", needs: ["bump"], with: { tool: "record", args: { label: "tally", value: "{{ len(steps.bump.allVisits) }}" } }, output: object },
    { id: "pick", uses: "tool.call", with: { tool: "record", args: { label: "pick", value: "amber" } }, output: object },
    { id: "describePick", uses: "ai.generate", needs: ["pick"], with: { model: "writer", prompt: "Describe {{ steps.pick.output.value }}" }, output: text },
    { id: "measure", uses: "tool.call", with: { tool: "record", args: { label: "measure", value: 7 } }, output: object },
    { id: "compute", uses: "code.run", needs: ["measure"], with: { entrypoint: "main.js", files: codeFiles(options.realCode === true ? realCode : '// OUTPUT: {"computed":true}'), sandbox: { network: "deny" } }, output: object },
    describedItems(),
    {
      id: "final",
      uses: "tool.call",
      needs: ["settle", "tally", "describePick", "compute", "fan"],
      with: {
        tool: "record",
        args: {
          label: "final",
          value: { settled: "{{ steps.settle.output.value }}", tally: "{{ steps.tally.output.value }}", pick: "{{ steps.describePick.output }}", computed: "{{ steps.compute.output.computed }}", fan: "{{ steps.fan.output }}" },
        },
      },
      output: object,
    },
  ] as LwirStep[];
  return lwirDocument({ steps, tools: ["record", "bump"], models: ["writer"] });
}

/**
 * Each kill scenario: its workflow, its input, how long each tool call takes (long enough in the
 * side-by-side one for kills to land with several calls in flight), and the subject of each
 * `ai.generate` step path (what its prompt describes).
 */
export const killScenarios = {
  loop: {
    workflow: killScenarioWorkflow,
    input: { start: 0, until: 4, items: ["red", "green", "blue"] },
    delayMs: 3,
    subjects: ["red", "green", "blue"],
    subjectOfStep: (stepPath: string): string | undefined => /^fan\[([^\]]+)\]/.exec(stepPath)?.[1],
  },
  "side-by-side": {
    workflow: sideBySideWorkflow,
    input: { start: 0, until: 3, items: ["red", "green", "blue"] },
    delayMs: 20,
    subjects: ["amber", "red", "green", "blue"],
    subjectOfStep: (stepPath: string): string | undefined => (stepPath === "describePick" ? "amber" : /^fan\[([^\]]+)\]/.exec(stepPath)?.[1]),
  },
} as const;

export type KillScenarioName = keyof typeof killScenarios;

/** The scenarios' parallel group `fan`: per item, a tool call, then an ai.generate describing it. */
function describedItems(): LwirStep {
  const object = { mode: "object", schema: { type: "object" } } as const;
  return {
    id: "fan",
    uses: "parallel",
    with: {
      items: "{{ input.items }}",
      itemKey: "{{ item }}",
      cardinality: { kind: "matches_items" },
      maxBranches: 10,
      maxConcurrency: 2,
      failureMode: "fail_fast",
      fanIn: { order: "input", output: "array" },
    },
    steps: [
      { id: "work", uses: "tool.call", with: { tool: "record", args: { label: "work", value: "{{ item }}" } }, output: object },
      { id: "describe", uses: "ai.generate", needs: ["work"], with: { model: "writer", prompt: "Describe {{ steps.work.output.value }}" }, output: { mode: "text" } },
    ],
    output: { mode: "array", schema: fanInSchema },
  } as LwirStep;
}

// For the default workflowHarness: real JavaScript in the sandbox, calling a host tool.
const realCode = [
  "export async function run({ input, tools }) {",
  "  const recorded = await tools.record({ label: 'from-code', value: 1 });",
  "  return { computed: recorded.label === 'from-code' };",
  "}",
].join("\n");

export type ScenarioOptions = {
  readonly logFile: string;
  /** Milliseconds each tool and model call takes (gives kills room to land mid-call). */
  readonly delayMs: number;
  /** When set, `bump` with this n writes `markerFile` and hangs (the parent kills it there). */
  readonly hangAtN?: number;
  readonly markerFile?: string;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function scenarioTools(options: ScenarioOptions) {
  const log = (line: string): void => appendFileSync(options.logFile, `${line} ${process.pid}\n`);
  return createToolRegistry({
    record: tool({
      description: "Records a labelled value.",
      inputSchema: z.object({ label: z.string(), value: z.unknown() }),
      execute: async ({ label, value }, { toolCallId }) => {
        log(`begin ${toolCallId}`);
        await sleep(options.delayMs);
        log(`tool ${toolCallId}`);
        return { label, value: value ?? null };
      },
    }),
    bump: tool({
      description: "Adds one to n.",
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }, { toolCallId }) => {
        log(`begin ${toolCallId}`);
        if (options.hangAtN === n && options.markerFile !== undefined) {
          if (!existsSync(options.markerFile)) {
            writeFileSync(options.markerFile, String(process.pid));
            await sleep(60_000);
          }
        }
        await sleep(options.delayMs);
        log(`tool ${toolCallId}`);
        return { n: n + 1 };
      },
    }),
  });
}

/** The subject of an ai.generate prompt of the scenario (`Describe red` → `red`). */
export function subjectOf(request: LoopbackRequest): string | undefined {
  return /Describe ([a-z]+)/.exec(JSON.stringify(request.body.messages))?.[1];
}

/**
 * The scenario's model, served over HTTP by the test process: answers by the prompt's subject (so a
 * request sent again after a kill gets the same answer), after `delayMs` like a real model.
 */
export function startScenarioModelServer(delayMs: number): Promise<LoopbackOpenAIServer> {
  return startLoopbackOpenAIServer({
    respond: (request) => {
      const subject = subjectOf(request);
      return subject === undefined ? undefined : { text: `about ${subject}`, usage: { inputTokens: 12, outputTokens: 3 } };
    },
    delayMs,
  });
}

/** The model slot of a child process: the real openai-compatible provider, pointed at the loopback server. */
export function scenarioModel(baseURL: string) {
  return createOpenAICompatible({ name: "loopback", baseURL, apiKey: "test-key", includeUsage: true })("writer-1");
}
