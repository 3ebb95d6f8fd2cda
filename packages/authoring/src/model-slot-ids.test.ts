import { describe, expect, it } from "vitest";
import { fakeModel } from "./__fixtures__/fake-models.js";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";
import { model } from "./model.js";
import { assignModelSlotIds, baseSlotId, slotIdAnimals } from "./model-slot-ids.js";

describe("assignModelSlotIds", () => {
  it("derives slot ids from model names; the first keeps the clean name, later ones get animals in list order", () => {
    const slots = assignModelSlotIds(
      [model(fakeModel("gpt-5")), model(fakeModel("gpt-4o-mini")), model(fakeModel("gpt-5", "other.chat")), fakeModel("gpt-5")],
      { field: "models" },
    );
    expect(slots.map((slot) => slot.id)).toEqual(["gpt-5", "gpt-4o-mini", `gpt-5-${slotIdAnimals[0]}`, `gpt-5-${slotIdAnimals[1]}`]);
    expect(slots[2]).toMatchObject({ providerId: "other.chat", modelId: "gpt-5", description: "" });
  });

  it("reserves explicit ids first, so a derived id never takes one", () => {
    const slots = assignModelSlotIds([model(fakeModel("gpt-5")), model(fakeModel("o3"), { id: "gpt-5", description: "explicit" })], { field: "models" });
    expect(slots.map((slot) => slot.id)).toEqual(["gpt-5-otter", "gpt-5"]);
  });

  it("is deterministic and continues with a counter after the animal list", () => {
    const entries = Array.from({ length: slotIdAnimals.length + 3 }, () => model(fakeModel("m")));
    const first = assignModelSlotIds(entries, { field: "models" }).map((slot) => slot.id);
    const second = assignModelSlotIds(entries, { field: "models" }).map((slot) => slot.id);
    expect(first).toEqual(second);
    expect(new Set(first).size).toBe(first.length);
    expect(first.at(-1)).toBe(`m-${slotIdAnimals[1]}-2`);
  });

  it("refuses two equal explicit ids, naming the entry", () => {
    const attempt = () => assignModelSlotIds([model(fakeModel("a"), { id: "fast" }), model(fakeModel("b"), { id: "fast" })], { field: "models", workflowId: "w" });
    expect(attempt).toThrow(WorkflowDefinitionError);
    expect(attempt).toThrow(/models\[1\] uses the slot id "fast"/);
  });

  it("cleans model names into the slot-id alphabet", () => {
    expect(baseSlotId("accounts/fireworks/models/llama v3")).toBe("accounts/fireworks/models/llama-v3");
    expect(baseSlotId("-weird")).toBe("model--weird");
  });

  it("model() refuses a model id string and a bad explicit id", () => {
    expect(() => model("gpt-4o" as never)).toThrow(/must be an AI SDK V3 language model object, got the string "gpt-4o"/);
    expect(() => model(fakeModel("x"), { id: "bad id!" })).toThrow(WorkflowDefinitionError);
  });

  it("model() given a model of another AI SDK generation names it, the installed and the supported versions", () => {
    const v4 = { specificationVersion: "v4", provider: "openai.responses", modelId: "gpt-5" };
    expect(() => model(v4 as never)).toThrow(/got a v4 language model \(from an AI SDK 7 provider package\), but Little Workflow supports AI SDK 6 only: ai \^6\.0\.326 .* Installed: ai 6\.\d+\.\d+\. Install the supported line: npm i ai@6 @ai-sdk\/openai@3 \(or your provider's 3\.x\)\. Then pass that provider's model/);
  });
});
