import { createSchemaValidator } from "@little-stack/lwir";
import { generateText, jsonSchema, Output, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createSchemaAnsweringModel, defaultTextAnswer } from "./create-schema-answering-model.js";

const review = {
  type: "object",
  properties: { approved: { type: "boolean" }, notes: { type: "string" }, score: { type: "integer", minimum: 1, maximum: 10 } },
  required: ["approved", "notes", "score"],
  additionalProperties: false,
} as const;

describe("createSchemaAnsweringModel", () => {
  it("answers a JSON response format with a sample of its schema, through generate and stream", async () => {
    const model = createSchemaAnsweringModel({ modelId: "gpt-4o-mini" });
    const generated = await generateText({ model, prompt: "Review the draft.", output: Output.object({ schema: jsonSchema(review) }) });
    expect(generated.output).toEqual({ approved: true, notes: "sample notes", score: 10 });
    expect(createSchemaValidator(review)(generated.output).valid).toBe(true);
    const streamed = streamText({ model, prompt: "Review it again.", output: Output.object({ schema: jsonSchema(review) }) });
    expect(await streamed.output).toEqual({ approved: true, notes: "sample notes", score: 10 });
    expect(model.callCount).toBe(2);
    expect(model.callOptions[0]?.responseFormat).toMatchObject({ type: "json", schema: review });
    expect(model.answers).toEqual([JSON.stringify(generated.output), JSON.stringify(generated.output)]);
    expect(model.modelId).toBe("gpt-4o-mini");
  });

  it("answers text calls with a short text that depends only on the call", async () => {
    const model = createSchemaAnsweringModel();
    const first = await generateText({ model, prompt: "Summarize {ticket} T-1 in two sentences, please!" });
    const again = await generateText({ model, prompt: "Summarize {ticket} T-1 in two sentences, please!" });
    const other = await generateText({ model, prompt: "Write a haiku" });
    expect(first.text).toBe("answer: Summarize ticket T-1 in two sentences, please");
    expect(again.text).toBe(first.text);
    expect(other.text).toBe("answer: Write a haiku");
    expect(defaultTextAnswer(model.callOptions[2]!)).toBe(other.text);
  });

  it("answers JSON without a schema with {} and takes a custom text answer", async () => {
    const model = createSchemaAnsweringModel({ text: () => "fixed" });
    const json = await generateText({ model, prompt: "Any JSON", output: Output.json() });
    expect(json.output).toEqual({});
    expect((await generateText({ model, prompt: "hi" })).text).toBe("fixed");
  });

  it("fails the call when the schema admits no value", async () => {
    const model = createSchemaAnsweringModel();
    const error = await generateText({ model, prompt: "x", maxRetries: 0, output: Output.object({ schema: jsonSchema({ type: "object", required: ["a"], properties: { a: false } }) }) }).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toMatch(/no value found at \$\.a/);
    expect(model.callCount).toBe(1);
  });
});
