import type { LwirStep } from "@little-stack/lwir";

const counterOutput = { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } } as const;

/**
 * `bump` adds one per visit; `check` loops back to `bump` while n < `until`, then routes to
 * `finish`. Every step on the cycle has maxVisits `maxVisits`.
 */
export function counterLoop(options: { readonly until: number; readonly maxVisits: number; readonly tool?: string }): LwirStep[] {
  return [
    {
      id: "bump",
      uses: "tool.call",
      maxVisits: options.maxVisits,
      with: { tool: options.tool ?? "increment", args: { n: "{{ coalesce(steps.bump.lastOutput.n, input.n) }}" } },
      output: counterOutput,
    },
    {
      id: "check",
      uses: "decision",
      needs: ["bump"],
      maxVisits: options.maxVisits,
      with: { cases: [{ when: `{{ steps.bump.lastOutput.n < ${options.until} }}`, to: "bump" }], default: "finish" },
    },
    {
      id: "finish",
      uses: "tool.call",
      with: { tool: "echo", args: { final: "{{ steps.bump.lastOutput.n }}", visits: "{{ len(steps.bump.allVisits) }}" } },
      output: { mode: "object", schema: { type: "object" } },
    },
  ] as LwirStep[];
}
