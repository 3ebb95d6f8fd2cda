import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { defineWorkflow, model, skill } from "@little-stack/authoring";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer, type ScriptedUsage } from "@little-stack/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executionModel, inputSchema, lookupTool, outputSchema, submit, tempWorld, ticketInput, validTicketLwir, type TempWorld } from "./__fixtures__/ticket-workflow.js";
import { compileWorkflow } from "./compile-workflow.js";

let temp: TempWorld;
let server: LoopbackOpenAIServer | undefined;
beforeEach(async () => {
  temp = await tempWorld();
});
afterEach(async () => {
  await server?.close();
  await temp.close();
});

// Usage with prompt-cache hits, so the test sees cached tokens go from the wire into the events.
const usage: ScriptedUsage = { inputTokens: 120, outputTokens: 30, cachedInputTokens: 20 };
const codeBody = "export async function run({ input }) {\n  return { length: input.transcript.length };\n}\n";

describe("compileWorkflow over real HTTP", () => {
  it("runs a multi-turn planner through an OpenAI-compatible provider: bash in scratch, reads a skill, submits", async () => {
    const skillDir = join(temp.dataDir, "skill-src", "ticket-triage");
    await mkdir(skillDir, { recursive: true });
    await writeFile(join(skillDir, "SKILL.md"), "---\nname: ticket-triage\ndescription: How to grade ticket severity.\n---\nCrashes on login are high severity.\n");
    server = await startLoopbackOpenAIServer({
      script: [
        { toolCalls: [{ toolName: "bash", args: { cmd: `cat > score.js <<'EOF'\n${codeBody}EOF\ngrep -c "export async function run" score.js && ls` } }], usage },
        { toolCalls: [{ toolName: "bash", args: { cmd: "cat .agents/skills/ticket-triage/SKILL.md" } }], usage },
        { ...submit(validTicketLwir()), usage },
      ],
    });
    const provider = createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "test-key" });
    const workflow = defineWorkflow({
      id: "support.summarize-ticket",
      input: inputSchema,
      output: outputSchema,
      models: [model(executionModel)],
      tools: { lookupCustomer: lookupTool() },
      planner: { model: provider.chatModel("planner-large"), system: "You design support-ticket workflows.", skills: [skill(skillDir)] },
    });
    const compiled = await compileWorkflow(workflow, ticketInput, { world: temp.world, runId: "run_http" });
    expect(compiled.version.lwir).toEqual(validTicketLwir());
    expect(server.requestCount).toBe(3);
    // The compiler's planner asks for whole answers, not streams.
    expect(server.requests.map((request) => request.stream)).toEqual([false, false, false]);

    const system = (server.requests[0]!.body.messages as { role: string; content: string }[])[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain("You design support-ticket workflows.");
    expect(system.content).toContain("ticket-triage: How to grade ticket severity.");
    expect(system.content).toContain("/mnt/scratch/own/ (rw)");
    expect(system.content).toContain("lookupCustomer: Look up a customer by ticket id.");
    // The planner may call bash and its three planning tools; the workflow's own tools are described, not callable.
    const offered = (server.requests[0]!.body.tools as { function: { name: string } }[]).map((entry) => entry.function.name).sort();
    expect(offered).toEqual(["bash", "check_workflow", "submit_workflow", "test_code"]);
    // The built-in LWIR reference is listed beside the workflow's own skills.
    expect(system.content).toContain("- lwir: ");

    const events = await temp.world.listEvents("run_http");
    const toolResults = events.filter((event) => event.type === "harness.tool_call.succeeded").map((event) => event.payload as { toolName: string; result: { stdout?: string; exitCode?: number } });
    expect(toolResults.map((entry) => entry.toolName)).toEqual(["bash", "bash", "submit_workflow"]);
    expect(toolResults[0]!.result).toMatchObject({ exitCode: 0 });
    expect(toolResults[0]!.result.stdout).toContain("score.js");
    expect(toolResults[1]!.result.stdout).toContain("Crashes on login are high severity.");
    const responded = events.filter((event) => event.type === "harness.model.responded").map((event) => event.payload as { model: { modelId: string }; response: { usage: { inputTokens: number; cachedInputTokens?: number } } });
    expect(responded).toHaveLength(3);
    expect(responded[0]!.model.modelId).toBe("planner-large");
    expect(responded[0]!.response.usage).toMatchObject({ inputTokens: 120, cachedInputTokens: 20 });
    const started = events.find((event) => event.type === "harness.session.started")!.payload as { manifest: { skillsHash: string; plannerModelSlotId: string } };
    expect(started.manifest.plannerModelSlotId).toBe("planner-large");
  });
});
