import { validateLwir } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { inputSchema, outputSchema, validTicketLwir } from "../__fixtures__/ticket-workflow.js";
import { bindingFindings } from "./binding-pass.js";
import type { BindingTarget } from "./binding-target.js";

const target: BindingTarget = {
  workflowId: "support.summarize-ticket",
  inputSchema,
  outputSchema,
  modelSlotIds: ["gpt-4o-mini"],
  toolNames: ["lookupCustomer"],
  tools: [{ name: "lookupCustomer", inputSchema: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"], additionalProperties: false } }],
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

  it("accepts schemas that differ from the definition's only by normalization ($schema, additionalProperties: false)", () => {
    const lwir = mutate((l) => {
      l.input.schema = { $schema: "https://json-schema.org/draft/2020-12/schema", ...(inputSchema as object), additionalProperties: false };
    });
    expect(bindingFindings(lwir, target)).toEqual([]);
  });

  it("names the definition's schema when the LWIR's differs", () => {
    const [finding] = bindingFindings(mutate((l) => { l.input.schema = { type: "object" }; }), target);
    expect(finding).toMatchObject({ code: "binding.input_schema_mismatch", message: expect.stringContaining(JSON.stringify(inputSchema)) });
  });
});

describe("bindingFindings: the terminal step's output against the workflow output schema", () => {
  it.each([
    ["a text output", { mode: "text" }, /may produce string, the workflow schema requires object/],
    ["an object without the severity field", { mode: "object", schema: { type: "object", required: ["summary"], properties: { summary: { type: "string" } } } }, /\$\.severity: required by the workflow schema/],
    ["a wider enum", { mode: "object", schema: { ...outputSchema, properties: { ...outputSchema.properties, severity: { type: "string", enum: ["low", "urgent"] } } } }, /may produce "urgent"/],
  ])("%s", (_name, output, problem) => {
    const findings = bindingFindings(mutate((l) => { l.steps[1]!.output = output; }), target);
    expect(findings).toEqual([{ severity: "error", code: "binding.terminal_output_mismatch", path: "$.steps[1].output", message: expect.stringMatching(problem) }]);
  });

  it("checks the last step before a decision ends a loop (no terminal step)", () => {
    const lwir = mutate((l) => {
      l.steps[1]!.maxVisits = 2;
      l.steps[1]!.output = { mode: "text" };
      l.steps.push({ id: "again", uses: "decision", needs: ["summarize"], maxVisits: 2, with: { cases: [{ when: "{{ steps.summarize.lastOutput == '' }}", to: "summarize" }], default: "end" } });
    });
    expect(validateLwir(lwir).valid).toBe(true);
    expect(bindingFindings(lwir, target).map((finding) => [finding.code, finding.path])).toEqual([["binding.terminal_output_mismatch", "$.steps[1].output"]]);
  });
});

describe("bindingFindings: tool.call arguments against the tool's input schema", () => {
  const call = (change: (step: Record<string, any>) => void) =>
    bindingFindings(mutate((l) => change(l.steps[0]! as Record<string, any>)), target).filter((finding) => finding.code === "binding.tool_args_mismatch");

  it.each([
    ["a missing required field", (step: Record<string, any>) => { step.with.args = {}; }, /"ticketId" is required by the tool but not given/],
    ["a field the tool does not take", (step: Record<string, any>) => { step.with.args = { ticketId: "{{ input.ticketId }}", force: true }; }, /the tool does not take "force"/],
    ["a literal the schema rejects", (step: Record<string, any>) => { step.with.args = { ticketId: 42 }; }, /"ticketId" is 42, which the tool's input schema rejects/],
    ["a template of another type", (step: Record<string, any>) => { step.with.args = { ticketId: "{{ len(input.transcript) }}" }; }, null],
    ["the implicit workflow input with fields the tool does not take", (step: Record<string, any>) => { delete step.with.args; }, /passes the workflow input, whose "transcript" the tool does not take/],
  ])("%s", (_name, change, problem) => {
    const findings = call(change);
    if (problem === null) {
      // A function call's type is not known statically: left to the registry's check at call time.
      expect(findings).toEqual([]);
      return;
    }
    expect(findings).toEqual([{ severity: "error", code: "binding.tool_args_mismatch", path: expect.stringMatching(/^\$\.steps\[0\]\.with/), message: expect.stringMatching(problem) }]);
  });

  it("a whole template whose schema type differs from the tool's", () => {
    const findings = bindingFindings(
      mutate((l) => {
        (l.input.schema as Record<string, any>) = { ...inputSchema, properties: { ...inputSchema.properties, ticketId: { type: "integer" } } };
      }),
      { ...target, inputSchema: { ...inputSchema, properties: { ...inputSchema.properties, ticketId: { type: "integer" } } } },
    );
    expect(findings).toEqual([expect.objectContaining({ code: "binding.tool_args_mismatch", message: expect.stringMatching(/"ticketId" resolves to number, but the tool takes string/) })]);
  });

  it("text with templates is a string", () => {
    expect(call((step) => { step.with.args = { ticketId: "T-{{ input.ticketId }}" }; })).toEqual([]);
  });
});

describe("bindingFindings: reads through optional data", () => {
  it("a read through an optional field outside coalesce is binding.unguarded_optional_read; inside coalesce it binds", () => {
    const optionalOutput = { type: "object", properties: { customer: { type: "string" } } };
    const unguarded = mutate((l) => {
      l.steps[0]!.output = { mode: "json", schema: optionalOutput };
      (l.steps[1]!.with as Record<string, unknown>).prompt = "Customer {{ steps.lookup.output.customer }}: {{ input.transcript }}";
    });
    expect(validateLwir(unguarded).valid).toBe(true);
    expect(bindingFindings(unguarded, target)).toEqual([
      { severity: "error", code: "binding.unguarded_optional_read", path: "$.steps[1].with.prompt", message: expect.stringMatching(/steps\.lookup\.output may have no "customer".*coalesce\(steps\.lookup\.output\.customer, 'none'\)/) },
    ]);
    const guarded = mutate((l) => {
      l.steps[0]!.output = { mode: "json", schema: optionalOutput };
      (l.steps[1]!.with as Record<string, unknown>).prompt = "Customer {{ coalesce(steps.lookup.output.customer, 'unknown') }}: {{ input.transcript }}";
    });
    expect(bindingFindings(guarded, target)).toEqual([]);
  });
});

