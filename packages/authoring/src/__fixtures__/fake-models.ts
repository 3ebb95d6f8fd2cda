import { MockLanguageModelV3 } from "ai/test";

/** A V3 model that fails any call: definition tests never call a model. */
export function fakeModel(modelId: string, provider = "fake.chat"): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: async () => {
      throw new Error(`fake model ${modelId} must not be called`);
    },
  });
}
