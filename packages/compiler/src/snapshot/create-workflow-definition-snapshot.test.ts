import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineWorkflow, model, skill, type DefineWorkflowOptions } from "@little-stack/authoring";
import { canonicalJson } from "@little-stack/canonical";
import type { Harness } from "@little-stack/harness";
import { createScriptedModel } from "@little-stack/testing";
import { tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createWorkflowDefinitionSnapshot, workflowDefinitionHash } from "./create-workflow-definition-snapshot.js";
import { resolveWorkflowTools } from "./resolve-workflow-tools.js";

let dataDir: string;
let skillA: string;
let skillB: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "snapshot-test-"));
  for (const [name, description] of [["ticket-triage", "How to triage tickets."], ["ticket-tone", "Tone rules."]] as const) {
    await mkdir(join(dataDir, "skills", name), { recursive: true });
    await writeFile(join(dataDir, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`);
  }
  skillA = join(dataDir, "skills", "ticket-triage");
  skillB = join(dataDir, "skills", "ticket-tone");
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const fast = createScriptedModel({ script: [], modelId: "gpt-4o-mini", provider: "openai.chat" });
const strong = createScriptedModel({ script: [], modelId: "gpt-5", provider: "openai.chat" });
const plannerModel = createScriptedModel({ script: [], modelId: "gpt-5", provider: "openai.responses" });
const customHarness: Harness & { id: string } = { id: "custom@1", run: async () => ({ kind: "delegate_to_default" }) };

function lookup(description = "Look up a customer.") {
  return tool({ description, inputSchema: z.object({ id: z.string() }) });
}

function base(): DefineWorkflowOptions {
  return {
    id: "support.ticket",
    description: "Summarize tickets.",
    input: { type: "object", required: ["id"], properties: { id: { type: "string" }, note: { type: "string" } } },
    output: { kind: "text" },
    models: [model(fast, { description: "Fast." })],
    tools: { lookup: lookup() },
    planner: { model: plannerModel, system: "Design ticket workflows." },
    memory: { workflow: "rw", org: "ro" },
  };
}

async function hashOf(options: DefineWorkflowOptions): Promise<string> {
  const definition = defineWorkflow(options);
  const tools = resolveWorkflowTools(definition, undefined);
  return workflowDefinitionHash(await createWorkflowDefinitionSnapshot({ definition, tools, dataDir }));
}

describe("WorkflowDefinitionHash", () => {
  it("is the same for equal definitions, whatever the key order of their schemas", async () => {
    const reordered = { ...base(), input: { properties: { note: { type: "string" }, id: { type: "string" } }, required: ["id"], type: "object" } };
    expect(await hashOf(reordered)).toBe(await hashOf(base()));
    expect(await hashOf(base())).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("is sha256 of the canonical snapshot, and the snapshot carries the seed's fields", async () => {
    const definition = defineWorkflow(base());
    const snapshot = await createWorkflowDefinitionSnapshot({ definition, tools: resolveWorkflowTools(definition, undefined), dataDir });
    expect(Object.keys(snapshot)).toEqual(expect.arrayContaining(["id", "description", "inputSchemaHash", "outputSchemaHash", "modelSlots", "plannerConfig", "workerConfig", "globalTools", "memoryConfig"]));
    expect(snapshot.plannerConfig).toMatchObject({ modelSlotId: "gpt-5", harnessId: "workflowHarness@0.2.0" });
    expect(snapshot.modelSlots).toEqual([{ id: "gpt-4o-mini", providerId: "openai.chat", modelId: "gpt-4o-mini", description: "Fast." }]);
    expect(canonicalJson(snapshot)).toContain('"globalTools":["lookup"]');
  });

  const changes: [string, (options: DefineWorkflowOptions) => DefineWorkflowOptions][] = [
    ["id", (o) => ({ ...o, id: "support.ticket2" })],
    ["description", (o) => ({ ...o, description: "Summarize tickets briefly." })],
    ["input schema", (o) => ({ ...o, input: { type: "object", required: ["id"], properties: { id: { type: "string" } } } })],
    ["output mode", (o) => ({ ...o, output: { kind: "json" } })],
    ["model slot added", (o) => ({ ...o, models: [model(fast, { description: "Fast." }), model(strong)] })],
    ["model slot description", (o) => ({ ...o, models: [model(fast, { description: "Quick." })] })],
    ["model slot id", (o) => ({ ...o, models: [model(fast, { description: "Fast.", id: "fast" })] })],
    ["planner system", (o) => ({ ...o, planner: { ...o.planner, system: "Design careful ticket workflows." } })],
    ["planner model", (o) => ({ ...o, planner: { ...o.planner, model: strong } })],
    ["planner harness", (o) => ({ ...o, planner: { ...o.planner, harness: customHarness } })],
    ["planner skills", (o) => ({ ...o, planner: { ...o.planner, skills: [skill(skillA)] } })],
    ["planner revision cap", (o) => ({ ...o, planner: { ...o.planner, maxWorkflowRevisions: 2 } })],
    ["worker harness", (o) => ({ ...o, worker: { harness: customHarness } })],
    ["worker skills", (o) => ({ ...o, worker: { skills: [skill(skillB)] } })],
    ["tool added", (o) => ({ ...o, tools: { lookup: lookup(), other: lookup() } })],
    ["tool description", (o) => ({ ...o, tools: { lookup: lookup("Look up a customer record.") } })],
    ["tool input schema", (o) => ({ ...o, tools: { lookup: tool({ description: "Look up a customer.", inputSchema: z.object({ id: z.number() }) }) } })],
    ["memory workflow access", (o) => ({ ...o, memory: { workflow: "ro", org: "ro" } })],
    ["memory org access", (o) => ({ ...o, memory: { workflow: "rw", org: "none" } })],
    ["memory attach", (o) => ({ ...o, memory: { workflow: "rw", org: "ro", attach: ["support.other"] } })],
  ];

  it.each(changes)("changes when the %s changes", async (_name, change) => {
    expect(await hashOf(change(base()))).not.toBe(await hashOf(base()));
  });

  it("changes when a declared skill's files change", async () => {
    const withSkill = { ...base(), planner: { ...base().planner, skills: [skill(skillA)] } };
    const before = await hashOf(withSkill);
    await writeFile(join(skillA, "SKILL.md"), "---\nname: ticket-triage\ndescription: How to triage tickets.\n---\nA new body.\n");
    expect(await hashOf(withSkill)).not.toBe(before);
  });
});
