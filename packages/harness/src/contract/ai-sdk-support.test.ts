import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installedAiSdkVersion, supportedAiSdk, unsupportedAiSdkModel } from "./ai-sdk-support.js";

const installed = (createRequire(import.meta.url)("ai/package.json") as { version: string }).version;

describe("AI SDK support", () => {
  it("reads the installed ai version", () => {
    expect(installedAiSdkVersion()).toBe(installed);
  });

  it("names the model's generation, the installed and the supported versions for a model of another generation", () => {
    const v4Model = { specificationVersion: "v4", provider: "openai.responses", modelId: "gpt-5" };
    const message = unsupportedAiSdkModel(v4Model);
    expect(message).toContain("got a v4 language model (from an AI SDK 7 provider package)");
    expect(message).toContain(`Installed: ai ${installed}.`);
    expect(message).toContain(`ai ${supportedAiSdk.ai}`);
    expect(message).toContain(`@ai-sdk/provider ${supportedAiSdk.provider}`);
    expect(message).toContain("npm i ai@6 @ai-sdk/openai@3");
    expect(unsupportedAiSdkModel({ specificationVersion: "v2", provider: "p", modelId: "m" })).toContain("AI SDK 5");
  });

  it("says nothing about a supported model or a value that is no model", () => {
    expect(unsupportedAiSdkModel({ specificationVersion: "v3", provider: "p", modelId: "m" })).toBeUndefined();
    expect(unsupportedAiSdkModel("gpt-5")).toBeUndefined();
    expect(unsupportedAiSdkModel(null)).toBeUndefined();
  });
});
