import { createHash } from "node:crypto";
import type { WorkflowDefinition } from "@little-stack/workflow";
import type { DefinitionPlayer, PlayerRequest } from "./scripted-model-player.js";

/** Pieces of the reference plans: complete LWIR documents as a careful planner writes them. */

export type Definitions = ReadonlyMap<string, WorkflowDefinition<any, any>>;

export function codeFile(content: string) {
  return { content, sha256: `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}` };
}

function document(workflow: WorkflowDefinition<any, any>, body: { models: string[]; tools: string[]; steps: unknown[] }) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: workflow.id, description: workflow.description },
    input: { schema: workflow.inputSchema },
    output: { schema: workflow.outputSchema },
    permissions: { models: body.models, tools: body.tools },
    steps: body.steps,
  };
}

export const strictObject = (properties: Record<string, unknown>) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });
export const sandbox = { network: "deny", env: "deny", fs: "deny" };


/** A player for one workflow: its plan is `document(workflow, { models, tools, steps })`. */
export function referencePlayer(
  definitions: Definitions,
  options: Omit<DefinitionPlayer, "workflowIds" | "plan"> & {
    readonly workflowId: string;
    readonly models: string[];
    readonly tools: string[];
    steps(workflow: WorkflowDefinition<any, any>, request: PlayerRequest): unknown[];
  },
): DefinitionPlayer {
  const { workflowId, models, tools, steps, ...answers } = options;
  return {
    ...answers,
    workflowIds: [workflowId],
    plan: (_id, request) => {
      const workflow = definitions.get(workflowId)!;
      return document(workflow, { models, tools, steps: steps(workflow, request) });
    },
  };
}
