import { CanonicalJsonError, canonicalJson, LittleWorkflowError, sha256Hex } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { registerWorkflowVersion, WORKFLOW_VERSION_CANONICALIZER } from "./register-workflow-version.js";

const lwir = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "support.ticket" },
  input: { schema: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] } },
  output: { schema: { type: "string" } },
  permissions: { models: ["gpt-4o-mini"], tools: [] },
  steps: [
    {
      id: "summarize",
      uses: "ai.generate",
      needs: [],
      with: { model: "gpt-4o-mini", prompt: "Summarize {{ input.ticketId }}" },
      output: { mode: "text" },
    },
  ],
};

/** The same document with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, entry]) => [key, reverseKeys(entry)]));
}

describe("registerWorkflowVersion", () => {
  it("derives id, hash and canonical JSON per lwir.md §9", () => {
    const version = registerWorkflowVersion(lwir);
    const text = canonicalJson(lwir);
    expect(version.canonicalJson).toBe(text);
    expect(version.hash).toBe(`sha256:${sha256Hex(text)}`);
    expect(version.id).toBe(`wfver_${sha256Hex(text).slice(0, 16)}`);
    expect(version.id).toMatch(/^wfver_[0-9a-f]{16}$/);
    expect(version.canonicalizer).toBe(WORKFLOW_VERSION_CANONICALIZER);
    expect(version.canonicalizer).toBe("little-workflow-canonical-json@alpha");
    expect(version.lwir).toEqual(lwir);
  });

  it("key order and whitespace never change the id", () => {
    const reordered = reverseKeys(lwir);
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(lwir));
    const reparsed = JSON.parse(JSON.stringify(lwir, null, 7)) as unknown;
    const first = registerWorkflowVersion(lwir);
    expect(registerWorkflowVersion(reordered).id).toBe(first.id);
    expect(registerWorkflowVersion(reparsed).id).toBe(first.id);
    expect(registerWorkflowVersion(reordered).hash).toBe(first.hash);
  });

  it("any content change changes the id", () => {
    const changed = { ...lwir, metadata: { name: "support.ticket2" } };
    expect(registerWorkflowVersion(changed).id).not.toBe(registerWorkflowVersion(lwir).id);
  });

  it("returns a deep-frozen copy and leaves the caller's object untouched", () => {
    const document = structuredClone(lwir);
    const version = registerWorkflowVersion(document);
    expect(version.lwir).not.toBe(document);
    expect(Object.isFrozen(version)).toBe(true);
    expect(Object.isFrozen(version.lwir)).toBe(true);
    expect(Object.isFrozen(version.lwir.steps[0]!.with)).toBe(true);
    expect(Object.isFrozen(document)).toBe(false);
    expect(Object.isFrozen(document.steps[0])).toBe(false);
    document.steps[0]!.with.prompt = "changed later";
    expect(version.lwir.steps[0]!.with.prompt).toBe("Summarize {{ input.ticketId }}");
    expect(() => {
      (version.lwir.steps as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it("does not validate: any plain JSON gets an id", () => {
    expect(registerWorkflowVersion({ not: "lwir" }).id).toMatch(/^wfver_/);
  });

  it("rejects documents that are not plain JSON, with the JSONPath", () => {
    const cases: unknown[] = [
      { steps: [{ id: undefined }] },
      { n: Number.NaN },
      { when: new Date(0) },
      { run: () => 1 },
    ];
    for (const document of cases) {
      let caught: unknown;
      try {
        registerWorkflowVersion(document);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CanonicalJsonError);
      expect(LittleWorkflowError.is(caught, "canonical.not_json")).toBe(true);
      expect((caught as CanonicalJsonError).path).toMatch(/^\$\./);
    }
  });

  it("gives the same version object for the same document registered again (a fixed plan, run after run)", () => {
    const first = registerWorkflowVersion(structuredClone(lwir));
    const again = registerWorkflowVersion(structuredClone(lwir));
    expect(again).toBe(first);
    expect(registerWorkflowVersion(reverseKeys(lwir))).toBe(first);
    expect(registerWorkflowVersion(first.lwir)).toBe(first);
    const changed = registerWorkflowVersion({ ...lwir, metadata: { name: "support.other" } });
    expect(changed).not.toBe(first);
    expect(changed.id).not.toBe(first.id);
  });

  it("its frozen LWIR hashes and serializes as the document does, alone or inside an event payload", () => {
    const version = registerWorkflowVersion(structuredClone(lwir));
    expect(canonicalJson(version.lwir)).toBe(canonicalJson(lwir));
    expect(canonicalJson({ lwir: version.lwir, hash: version.hash })).toBe(canonicalJson({ lwir, hash: version.hash }));
  });
});
