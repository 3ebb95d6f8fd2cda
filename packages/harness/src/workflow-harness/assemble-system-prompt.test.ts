import { describe, expect, it } from "vitest";
import { assembleSystemPrompt } from "./assemble-system-prompt.js";
import { describeSchemaShape } from "./describe-schema-shape.js";

describe("assembleSystemPrompt", () => {
  const parts = {
    system: "You orchestrate candidate-evaluation workflows.",
    roleAddendum: "You are the Orchestrator for a Little Workflow run.",
    skills: [
      { name: "zeta", description: "Last skill." },
      { name: "batch-fan-out", description: "Patterns for parallel tool calling when processing many items." },
    ],
    memoryMounts: [
      { mountPath: "/mnt/memory/pipeline", mode: "rw" as const, purpose: "persistent notes for this pipeline" },
      { mountPath: "/mnt/memory/org/", mode: "ro" as const },
    ],
    scratchMounts: [{ mountPath: "/mnt/scratch/own", mode: "rw" as const, purpose: "your working area." }],
    tools: [
      { name: "fetchCandidates", description: "Fetch candidates from ATS by job id", inputSchema: { type: "object", properties: { jobId: { type: "string" } }, required: ["jobId"] } },
      { name: "archive", description: null, inputSchema: { type: "object", properties: {} } },
    ],
  };

  it("orders the sections as seed 003 does: system, role addendum, skills, mounts, tools", () => {
    const prompt = assembleSystemPrompt(parts);
    expect(prompt).toBe(
      [
        "You orchestrate candidate-evaluation workflows.",
        "You are the Orchestrator for a Little Workflow run.",
        "Available skills (read via `cat .agents/skills/<name>/SKILL.md`):\n- batch-fan-out: Patterns for parallel tool calling when processing many items.\n- zeta: Last skill.",
        "Memory mounts (read with bash):\n- /mnt/memory/pipeline/ (rw) — persistent notes for this pipeline.\n- /mnt/memory/org/ (ro).",
        "Scratch mounts (ephemeral, this run only):\n- /mnt/scratch/own/ (rw) — your working area.",
        "Available tools:\n- archive: Input: {}.\n- fetchCandidates: Fetch candidates from ATS by job id. Input: {jobId: string}.",
      ].join("\n\n"),
    );
  });

  it("leaves empty sections out and is pure", () => {
    const minimal = { roleAddendum: "Role.", skills: [], memoryMounts: [], scratchMounts: [], tools: [] };
    expect(assembleSystemPrompt(minimal)).toBe("Role.");
    expect(assembleSystemPrompt({ ...minimal, system: "  " })).toBe("Role.");
    expect(assembleSystemPrompt(parts)).toBe(assembleSystemPrompt(parts));
  });
});

describe("describeSchemaShape", () => {
  it("renders schemas compactly", () => {
    expect(describeSchemaShape({ type: "object", properties: { a: { type: "array", items: { type: "integer" } }, b: { enum: ["x", "y"] } }, required: ["a"] })).toBe(
      '{a: integer[], b?: "x" | "y"}',
    );
    expect(describeSchemaShape({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
    expect(describeSchemaShape(true)).toBe("any");
    expect(describeSchemaShape({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(string | number)[]");
  });
});
