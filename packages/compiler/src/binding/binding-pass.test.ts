import { sha256Digest } from "@little-stack/canonical";
import { validateLwir } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { inputSchema, outputSchema, validTicketLwir } from "../__fixtures__/ticket-workflow.js";
import { bindingFindings, type BindingTarget } from "./binding-pass.js";

const target: BindingTarget = {
  workflowId: "support.summarize-ticket",
  inputSchemaHash: sha256Digest(inputSchema),
  outputSchemaHash: sha256Digest(outputSchema),
  modelSlotIds: ["gpt-4o-mini"],
  toolNames: ["lookupCustomer"],
};

type Mutable = { metadata: { name: string }; input: { schema: unknown }; output: { schema: unknown }; permissions: Record<string, string[]>; steps: Record<string, unknown>[] };

function mutate(change: (lwir: Mutable) => void): unknown {
  const lwir = structuredClone(validTicketLwir()) as unknown as Mutable;
  change(lwir);
  return lwir;
}

describe("bindingFindings", () => {
  it("finds nothing in an LWIR bound to the definition", () => {
    expect(validateLwir(validTicketLwir()).valid).toBe(true);
    expect(bindingFindings(validTicketLwir(), target)).toEqual([]);
  });

  it.each([
    ["binding.workflow_name_mismatch", "$.metadata.name", (l: Mutable) => { l.metadata.name = "other"; }],
    ["binding.input_schema_mismatch", "$.input.schema", (l: Mutable) => { l.input.schema = { type: "object" }; }],
    ["binding.output_schema_mismatch", "$.output.schema", (l: Mutable) => { l.output.schema = { type: "string" }; }],
    ["binding.model_disallowed", "$.permissions.models[1]", (l: Mutable) => { l.permissions.models = ["gpt-4o-mini", "gpt-9"]; }],
    ["binding.model_disallowed", "$.steps[1].with.model", (l: Mutable) => { (l.steps[1]!.with as Record<string, unknown>).model = "gpt-9"; }],
    ["binding.tool_disallowed", "$.permissions.tools[0]", (l: Mutable) => { l.permissions.tools = ["deleteCustomer"]; }],
    ["binding.tool_disallowed", "$.steps[0].with.tool", (l: Mutable) => { (l.steps[0]!.with as Record<string, unknown>).tool = "deleteCustomer"; }],
    ["binding.secret_disallowed", "$.permissions.secrets[0]", (l: Mutable) => { l.permissions.secrets = ["API_KEY"]; }],
    ["binding.network_disallowed", "$.permissions.network[0]", (l: Mutable) => { l.permissions.network = ["https://example.com"]; }],
  ])("%s at %s", (code, path, change) => {
    const findings = bindingFindings(mutate(change), target);
    expect(findings).toContainEqual(expect.objectContaining({ severity: "error", code, path }));
    for (const finding of findings) expect(finding.message.length).toBeGreaterThan(10);
  });

  it("checks steps inside a parallel body and fixer models", () => {
    const lwir = mutate((l) => {
      l.steps.push({
        id: "fan",
        uses: "parallel",
        needs: [],
        with: {},
        steps: [{ id: "inner", uses: "ai.generate", with: { model: "gpt-9", prompt: "x" } }],
      });
      l.steps.push({ id: "code", uses: "code.run", with: {}, onFailure: { fixer: { model: "o9", maxAttempts: 1, system: "fix" } } });
    });
    const paths = bindingFindings(lwir, target).map((finding) => finding.path);
    expect(paths).toEqual(expect.arrayContaining(["$.steps[2].steps[0].with.model", "$.steps[3].onFailure.fixer.model"]));
  });

  it("never throws on junk", () => {
    expect(bindingFindings(null, target)[0]!.code).toBe("binding.workflow_name_mismatch");
    expect(() => bindingFindings({ steps: "x", permissions: 3 }, target)).not.toThrow();
  });
});
