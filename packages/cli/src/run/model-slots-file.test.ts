import { describe, expect, it } from "vitest";
import { parseModelSlots, resolveModelSlots } from "./model-slots-file.js";

const parse = (value: unknown) => parseModelSlots({ value, displayName: "models.json" });

describe("parseModelSlots", () => {
  it("accepts both providers with optional baseURL and apiKeyEnv", () => {
    const slots = parse({ a: { provider: "openai", model: "gpt-4o-mini" }, b: { provider: "openai-compatible", model: "llama", baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: "B_KEY" } });
    expect(slots).toEqual({ a: { provider: "openai", model: "gpt-4o-mini" }, b: { provider: "openai-compatible", model: "llama", baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: "B_KEY" } });
  });

  it("names the file, the slot and the field of every mistake", () => {
    expect(() => parse([])).toThrow(/^models\.json: the document is not a JSON object/);
    expect(() => parse({ a: "gpt" })).toThrow(/slot "a" is not an object/);
    expect(() => parse({ a: { provider: "openai", model: "m", temperature: 1 } })).toThrow(/slot "a" has an unknown field "temperature"/);
    expect(() => parse({ a: { model: "m" } })).toThrow(/slot "a"\.provider is missing/);
    expect(() => parse({ a: { provider: "openai", model: "" } })).toThrow(/slot "a"\.model must be a non-empty string/);
    expect(() => parse({ a: { provider: "openai-compatible", model: "m" } })).toThrow(/slot "a"\.baseURL is required for provider "openai-compatible"/);
    expect(() => parse({ a: { provider: "openai", model: "m", baseURL: "not a url" } })).toThrow(/slot "a"\.baseURL must be a URL/);
    for (const baseURL of ["file:///etc/passwd", "data:text/plain,x", "ftp://127.0.0.1/v1", "javascript:alert(1)"]) {
      expect(() => parse({ a: { provider: "openai-compatible", model: "m", baseURL } })).toThrow(/slot "a"\.baseURL is ".*", which is not an http:\/\/ or https:\/\/ URL/);
    }
    expect(parse({ a: { provider: "openai-compatible", model: "m", baseURL: "https://example.test/v1" } }).a!.baseURL).toBe("https://example.test/v1");
  });
});

describe("resolveModelSlots", () => {
  const slots = parse({ a: { provider: "openai", model: "gpt-4o-mini" }, b: { provider: "openai-compatible", model: "llama", baseURL: "http://127.0.0.1:1/v1" }, unused: { provider: "openai", model: "x", apiKeyEnv: "NOPE" } });

  it("builds only the needed slots, pinned as provider and model id", () => {
    const resolved = resolveModelSlots({ slots, needed: ["a", "b"], env: { OPENAI_API_KEY: "sk-test" }, displayName: "models.json" });
    expect(Object.keys(resolved)).toEqual(["a", "b"]);
    expect(resolved["a"]).toMatchObject({ slotId: "a", provider: "openai", modelId: "gpt-4o-mini" });
    expect(resolved["b"]).toMatchObject({ slotId: "b", provider: "openai-compatible", modelId: "llama" });
    expect(resolved["b"]!.model.modelId).toBe("llama");
  });

  it("refuses an unset key variable instead of sending an anonymous request", () => {
    expect(() => resolveModelSlots({ slots, needed: ["a"], env: {}, displayName: "models.json" })).toThrow(/slot "a" reads its API key from \$OPENAI_API_KEY, which is not set/);
  });
});
