import { writeFileSync } from "node:fs";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer, type ScriptedTurn } from "@little-stack/testing";

/** Where the demo's model calls go: a loopback server with scripted answers, or a real provider. */
export type DemoModels = {
  /** Human-readable: "scripted (offline)" or the provider and model. */
  readonly description: string;
  /** The loopback server when offline (its requestCount proves what was called). */
  readonly server: LoopbackOpenAIServer | undefined;
  close(): Promise<void>;
};

/**
 * Writes the `--models` file mapping `slots` to a provider. With OPENAI_BASE_URL set: that
 * OpenAI-compatible endpoint (key from OPENAI_API_KEY when set). With only OPENAI_API_KEY: OpenAI.
 * Otherwise offline: a loopback OpenAI-compatible server on 127.0.0.1 answering from `script`.
 * LITTLE_DEMO_MODEL overrides the model id (default gpt-4o-mini).
 */
export async function demoModels(options: { slots: readonly string[]; script: readonly ScriptedTurn[]; modelsFile: string; env?: NodeJS.ProcessEnv }): Promise<DemoModels> {
  const env = options.env ?? process.env;
  const model = env["LITTLE_DEMO_MODEL"] ?? "gpt-4o-mini";
  const entries = (entry: Record<string, string>): Record<string, Record<string, string>> => Object.fromEntries(options.slots.map((slot) => [slot, entry]));
  const baseURL = env["OPENAI_BASE_URL"];
  if (baseURL !== undefined && baseURL !== "") {
    const key = env["OPENAI_API_KEY"] ? { apiKeyEnv: "OPENAI_API_KEY" } : {};
    writeFileSync(options.modelsFile, JSON.stringify(entries({ provider: "openai-compatible", model, baseURL, ...key }), null, 2));
    return { description: `${model} at ${baseURL}`, server: undefined, close: async () => undefined };
  }
  if (env["OPENAI_API_KEY"]) {
    writeFileSync(options.modelsFile, JSON.stringify(entries({ provider: "openai", model }), null, 2));
    return { description: `OpenAI ${model}`, server: undefined, close: async () => undefined };
  }
  const server = await startLoopbackOpenAIServer({ script: options.script });
  writeFileSync(options.modelsFile, JSON.stringify(entries({ provider: "openai-compatible", model, baseURL: server.baseURL }), null, 2));
  return { description: `scripted ${model} on a loopback server (offline; set OPENAI_API_KEY for a real model)`, server, close: () => server.close() };
}
