import { canonicalJson } from "@little-stack/canonical";
import type { PlanTask } from "../contract/harness.js";

type BriefTool = { readonly name: string; readonly description?: string | null; readonly inputSchema?: unknown; readonly outputSchema?: unknown };

function json(value: unknown): string {
  return canonicalJson(value ?? null);
}

/**
 * The first user message of a plan session: the workflow definition as a model reads it — id,
 * description, input and output schemas, model slots with descriptions, tools with input and
 * output schemas — and the run input. No hashes (they mean nothing to a model). The schemas come
 * from the snapshot when it carries them (the compiler's does); a snapshot without them gets a
 * note that the harness fills them in.
 */
export function plannerBrief(task: PlanTask): string {
  const snapshot = task.workflowSnapshot;
  const tools = (snapshot.tools ?? []) as readonly BriefTool[];
  const toolLines =
    tools.length === 0
      ? snapshot.globalTools.length === 0
        ? ["(none)"]
        : snapshot.globalTools.map((name) => `- ${name}`)
      : tools.map((entry) => `- ${entry.name}: ${(entry.description ?? "").trim() || "(no description)"}\n  input schema: ${json(entry.inputSchema ?? {})}${entry.outputSchema === undefined ? "\n  output: not declared (type the step's output yourself)" : `\n  output schema: ${json(entry.outputSchema)}`}`);
  const slots = snapshot.modelSlots.map((slot) => `- ${slot.id} (${slot.providerId} ${slot.modelId})${slot.description.length > 0 ? `: ${slot.description}` : ""}`);
  return [
    `Design the workflow "${snapshot.id}".`,
    `Description: ${snapshot.description.length > 0 ? snapshot.description : "(none)"}`,
    `Input schema (input.schema; filled in when you leave it out): ${snapshot.inputSchema === undefined ? "(given to the harness)" : json(snapshot.inputSchema)}`,
    `Output schema (output.schema; the run's output must satisfy it; filled in when you leave it out): ${snapshot.outputSchema === undefined ? "(given to the harness)" : json(snapshot.outputSchema)}`,
    ["Model slots (with.model of ai.generate steps and fixers):", ...(slots.length === 0 ? ["(none)"] : slots)].join("\n"),
    ["Tools (with.tool of tool.call steps; tools.<name>(args) from code.run code — you cannot call them while planning):", ...toolLines].join("\n"),
    `Run input: ${json(task.input)}`,
    ...(task.outerLoopContext === undefined ? [] : [`Outer loop context: ${json(task.outerLoopContext)}`]),
    "Check drafts with check_workflow (free), test code bodies with test_code (free), then submit the LWIR once with submit_workflow.",
  ].join("\n\n");
}
