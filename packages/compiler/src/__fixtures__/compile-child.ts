// Compiles the ticket workflow in its own process. Usage: compile-child.ts <dataDir> <runId> <mode>
//   mode "plan": a scripted planner submits the valid LWIR; prints { workflowVersionId, workflowDefinitionHash } as JSON.
//   mode "kill-after-plan": the planner session completes, then the process SIGKILLs itself before the version is registered.
import { workflowHarness, type Harness } from "@little-stack/harness";
import { localWorld } from "@little-stack/local-world";
import { createScriptedModel } from "@little-stack/testing";
import { compileWorkflow } from "../compile-workflow.js";
import { submit, ticketInput, ticketWorkflow, validTicketLwir } from "./ticket-workflow.js";

const [dataDir, runId, mode] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined || mode === undefined) throw new Error("usage: compile-child.ts <dataDir> <runId> <mode>");

// The default harness plus a kill: same id, so the resumed compile (default harness) sees no drift.
const killer: Harness & { readonly id: string } = {
  id: workflowHarness.id,
  async run(task, ctx) {
    const result = await workflowHarness.run(task, ctx);
    process.kill(process.pid, "SIGKILL");
    return result;
  },
};

const world = localWorld({ dataDir });
const planner = createScriptedModel({ script: [{ toolCalls: [{ toolName: "bash", args: { cmd: "echo drafting > draft.txt" } }] }, submit(validTicketLwir())] });
const workflow = ticketWorkflow({ plannerModel: planner, ...(mode === "kill-after-plan" ? { harness: killer } : {}) });
const compiled = await compileWorkflow(workflow, ticketInput, { world, runId });
await world.close();
process.stdout.write(`${JSON.stringify({ workflowVersionId: compiled.workflowVersionId, workflowDefinitionHash: compiled.workflowDefinitionHash, modelCalls: planner.callCount })}\n`);
