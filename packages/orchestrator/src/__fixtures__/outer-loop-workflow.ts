import type { SuperviseDecision, SuperviseRequest } from "@little-stack/authoring";
import type { World } from "@little-stack/local-world";
import { candidateReviewPlan, candidateReviewSetup } from "./candidate-review.js";
import { createFakePlanner } from "./fake-model.js";

export const outerLoopInput = { requirement: "Staff TypeScript engineer", resumeUrl: "https://example.test/grace.pdf" };

/** The cycle number the planner's task carries (from the "Outer loop context" section of its prompt). */
export function cycleNumberIn(prompt: string): number {
  const match = /"cycleNumber":(\d+)/.exec(prompt);
  return match === null ? 0 : Number(match[1]);
}

/** Supervise: continue until `doneAfter` cycles, then done. */
export function superviseUntil(doneAfter: number, calls: number[] = []) {
  return (request: SuperviseRequest): SuperviseDecision => {
    const cycle = request.cycles.at(-1)!.cycleNumber;
    calls.push(cycle);
    if (request.cycles.length < doneAfter) return { kind: "continue", promptNote: `be stricter than cycle ${cycle}` };
    // The final output must match the workflow's output schema: the last review, scored by cycles used.
    const last = request.cycles.at(-1)!.output as { verdict: string };
    return { kind: "done", finalOutput: { verdict: last.verdict, score: request.cycles.length } };
  };
}

export function outerLoopSetup(options: { readonly doneAfter: number; readonly maxOuterCycles: number; readonly superviseCalls?: number[]; readonly parseCalls?: string[] }) {
  const planner = createFakePlanner((prompt) => candidateReviewPlan({ note: `cycle ${cycleNumberIn(prompt)}` }));
  const setup = candidateReviewSetup({ planner, maxOuterCycles: options.maxOuterCycles, supervise: superviseUntil(options.doneAfter, options.superviseCalls), ...(options.parseCalls === undefined ? {} : { parseCalls: options.parseCalls }) });
  return { planner, ...setup };
}

/** A World that SIGKILLs its own process right after an append matching `when` is durable. */
export function killingWorld(world: World, when: (runId: string, types: readonly string[], payloads: readonly unknown[]) => boolean): World {
  return new Proxy(world, {
    get(target, property, receiver) {
      if (property === "appendEvents") {
        return async (runId: string, events: { type: string; payload: unknown } | readonly { type: string; payload: unknown }[]) => {
          const list = Array.isArray(events) ? events : [events];
          const stored = await target.appendEvents(runId, list);
          if (when(runId, list.map((event) => event.type), list.map((event) => event.payload))) process.kill(process.pid, "SIGKILL");
          return stored;
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
