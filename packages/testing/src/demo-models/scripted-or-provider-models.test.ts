import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedOrProviderModels, withoutProviderVariables } from "./scripted-or-provider-models.js";

const workDir = mkdtempSync(join(tmpdir(), "little-demo-models-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

let fileCount = 0;
async function modelsFor(env: NodeJS.ProcessEnv) {
  const modelsFile = join(workDir, `models-${++fileCount}.json`);
  const models = await scriptedOrProviderModels({ slots: ["planner", "writer"], script: [{ text: "scripted answer" }], modelsFile, env });
  return { models, written: JSON.parse(readFileSync(modelsFile, "utf8")) as unknown };
}

describe("scriptedOrProviderModels", () => {
  it("offline (no provider variables): starts a loopback server that answers from the script, and maps every slot to it", async () => {
    const { models, written } = await modelsFor({});
    try {
      expect(models.server).toBeDefined();
      const baseURL = models.server!.baseURL;
      expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const entry = { provider: "openai-compatible", model: "gpt-4o-mini", baseURL };
      expect(written).toEqual({ planner: entry, writer: entry });
      expect(models.description).toContain("offline");
      const response = await fetch(`${baseURL}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }) });
      const body = (await response.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]!.message.content).toBe("scripted answer");
      expect(models.server!.requestCount).toBe(1);
    } finally {
      await models.close();
    }
    await expect(fetch(`${models.server!.baseURL}/chat/completions`, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("empty provider variables count as unset (offline)", async () => {
    const { models, written } = await modelsFor({ OPENAI_API_KEY: "", OPENAI_BASE_URL: "", LITTLE_DEMO_MODEL: "" });
    try {
      expect(models.server).toBeDefined();
      expect(written).toMatchObject({ planner: { provider: "openai-compatible", model: "gpt-4o-mini", baseURL: models.server!.baseURL } });
    } finally {
      await models.close();
    }
  });

  it("OPENAI_API_KEY only: OpenAI, no server, and the key itself is never written", async () => {
    const { models, written } = await modelsFor({ OPENAI_API_KEY: "sk-secret-value" });
    expect(models.server).toBeUndefined();
    expect(written).toEqual({ planner: { provider: "openai", model: "gpt-4o-mini" }, writer: { provider: "openai", model: "gpt-4o-mini" } });
    expect(JSON.stringify(written)).not.toContain("sk-secret-value");
    expect(models.description).toBe("OpenAI gpt-4o-mini");
    await models.close();
  });

  it("OPENAI_BASE_URL with a key: that OpenAI-compatible endpoint, naming the key's variable; LITTLE_DEMO_MODEL picks the model", async () => {
    const { models, written } = await modelsFor({ OPENAI_BASE_URL: "http://localhost:11434/v1", OPENAI_API_KEY: "sk-secret-value", LITTLE_DEMO_MODEL: "llama3.2" });
    const entry = { provider: "openai-compatible", model: "llama3.2", baseURL: "http://localhost:11434/v1", apiKeyEnv: "OPENAI_API_KEY" };
    expect(written).toEqual({ planner: entry, writer: entry });
    expect(models.server).toBeUndefined();
    expect(models.description).toBe("llama3.2 at http://localhost:11434/v1");
  });

  it("OPENAI_BASE_URL without a key: the endpoint with no apiKeyEnv", async () => {
    const { written } = await modelsFor({ OPENAI_BASE_URL: "http://localhost:11434/v1" });
    expect(written).toEqual({
      planner: { provider: "openai-compatible", model: "gpt-4o-mini", baseURL: "http://localhost:11434/v1" },
      writer: { provider: "openai-compatible", model: "gpt-4o-mini", baseURL: "http://localhost:11434/v1" },
    });
  });
});

describe("withoutProviderVariables", () => {
  it("copies the environment without the variables that select a provider, leaving the original alone", async () => {
    const env = { PATH: "/usr/bin", OPENAI_API_KEY: "sk-secret-value", OPENAI_BASE_URL: "http://localhost:11434/v1", LITTLE_DEMO_MODEL: "llama3.2", OTHER: "kept" };
    const offline = withoutProviderVariables(env);
    expect(offline).toEqual({ PATH: "/usr/bin", OTHER: "kept" });
    expect(env.OPENAI_API_KEY).toBe("sk-secret-value");
    const { models, written } = await modelsFor(offline);
    try {
      expect(models.server).toBeDefined();
      expect(written).toMatchObject({ planner: { baseURL: models.server!.baseURL } });
    } finally {
      await models.close();
    }
  });
});
