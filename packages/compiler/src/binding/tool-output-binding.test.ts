import { describe, expect, it } from "vitest";
import type { BindingTarget } from "./binding-target.js";
import { toolOutputFindings } from "./tool-output-binding.js";

const weather = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" }, conditions: { type: "string", enum: ["sunny", "rain"] } },
  required: ["city", "celsius", "conditions"],
  additionalProperties: false,
};
const target: BindingTarget = {
  workflowId: "w",
  inputSchema: true,
  outputSchema: true,
  modelSlotIds: [],
  toolNames: ["getWeather", "ping"],
  tools: [
    { name: "getWeather", inputSchema: { type: "object" }, outputSchema: weather },
    { name: "ping", inputSchema: { type: "object" } },
  ],
};
const call = (output: unknown, tool = "getWeather") => ({ id: "forecast", uses: "tool.call", with: { tool, args: { city: "Oslo" } }, output });
const findings = (steps: unknown[]) => toolOutputFindings({ steps }, target);

describe("toolOutputFindings: a tool.call's output mode against the tool's output schema", () => {
  it("accepts the tool's schema copied (annotations and additionalProperties aside), a wider object, and json", () => {
    expect(findings([call({ mode: "object", schema: { ...weather, additionalProperties: undefined, description: "today" } })])).toEqual([]);
    expect(findings([call({ mode: "object", schema: { type: "object", required: ["city"], properties: { city: { type: "string" } } } })])).toEqual([]);
    expect(findings([call({ mode: "json", schema: true }), call({ mode: "json" })])).toEqual([]);
  });

  it("reports a closed object without a field the tool returns, a required field the tool does not promise, and text", () => {
    const narrow = findings([call({ mode: "object", schema: { type: "object", required: ["city", "celsius"], properties: { city: { type: "string" }, celsius: { type: "number" } }, additionalProperties: false } })]);
    expect(narrow).toEqual([
      {
        severity: "error",
        code: "binding.tool_output_mismatch",
        path: "$.steps[0].output",
        message: expect.stringMatching(/tool "getWeather", whose results its output mode does not all accept \(at \$\.conditions: the step's output accepts no value here\).*Copy the tool's output schema/),
      },
    ]);
    const extra = findings([call({ mode: "object", schema: { type: "object", required: ["city", "humidity"], properties: { city: { type: "string" }, humidity: { type: "number" } } } })]);
    expect(extra[0]?.message).toMatch(/at \$\.humidity: required by the step's output, optional in the tool's output schema/);
    expect(findings([call({ mode: "text" })])[0]?.message).toMatch(/the tool's output schema may produce object, the step's output requires string/);
  });

  it("checks tool calls in a parallel body and leaves tools without an output schema alone", () => {
    const body = [{ id: "fan", uses: "parallel", with: {}, steps: [call({ mode: "text" })] }];
    expect(findings(body).map((finding) => finding.path)).toEqual(["$.steps[0].steps[0].output"]);
    expect(findings([call({ mode: "text" }, "ping")])).toEqual([]);
  });
});
