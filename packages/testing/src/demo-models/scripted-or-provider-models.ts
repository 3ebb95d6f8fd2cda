import { writeFileSync } from "node:fs";
import { type LoopbackOpenAIServer, startLoopbackOpenAIServer } from "../loopback-server/start-loopback-openai-server.js";
import type { ScriptedTurn } from "../scripted-model/scripted-turn.js";

/** Where a demo's model calls go: a loopback server answering from a script, or a real provider. */
export type ScriptedOrProviderModels = {
  /** Human-readable: the scripted loopback server, or the provider and model. */
  readonly description: string;
  /** The loopback server when offline (its `requestCount` proves what was called); else undefined. */
  readonly server: LoopbackOpenAIServer | undefined;
  /** Stops the loopback server (nothing to do for a real provider). */
  close(): Promise<void>;
};

export type ScriptedOrProviderModelsOptions = {
  /** The model slot ids the `--models` file maps (every slot gets the same entry). */
  readonly slots: readonly string[];
  /** What the loopback server answers when no provider is configured. */
  readonly script: readonly ScriptedTurn[];
  /** Where to write the `--models` JSON file. */
  readonly modelsFile: string;
  /** Read for OPENAI_BASE_URL, OPENAI_API_KEY and LITTLE_DEMO_MODEL (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
};

type ModelsFileEntry = { provider: "openai" | "openai-compatible"; model: string; baseURL?: string; apiKeyEnv?: string };

/** The variables scriptedOrProviderModels reads. */
const providerVariables = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "LITTLE_DEMO_MODEL"] as const;

/** A copy of `env` without the variables that select a provider: a demo run with it stays offline. */
export function withoutProviderVariables(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of providerVariables) delete copy[name];
  return copy;
}

/** The model id used when LITTLE_DEMO_MODEL is unset or empty. */
const defaultModel = "gpt-4o-mini";

/**
 * Writes a `--models` file mapping every slot to one provider, chosen from the environment:
 * OPENAI_BASE_URL set → that OpenAI-compatible endpoint (with `apiKeyEnv: "OPENAI_API_KEY"` when
 * that key is set); only OPENAI_API_KEY → OpenAI; neither → offline, a loopback OpenAI-compatible
 * server on 127.0.0.1 answering from `script`. LITTLE_DEMO_MODEL overrides the model id.
 * The key itself is never written to the file, only the name of the variable holding it.
 */
export async function scriptedOrProviderModels(options: ScriptedOrProviderModelsOptions): Promise<ScriptedOrProviderModels> {
  const env = options.env ?? process.env;
  const model = nonEmpty(env["LITTLE_DEMO_MODEL"]) ?? defaultModel;
  const writeModelsFile = (entry: ModelsFileEntry): void => {
    const file = Object.fromEntries(options.slots.map((slot) => [slot, entry]));
    writeFileSync(options.modelsFile, `${JSON.stringify(file, null, 2)}\n`);
  };
  const baseURL = nonEmpty(env["OPENAI_BASE_URL"]);
  const apiKey = nonEmpty(env["OPENAI_API_KEY"]);
  if (baseURL !== undefined) {
    writeModelsFile({ provider: "openai-compatible", model, baseURL, ...(apiKey === undefined ? {} : { apiKeyEnv: "OPENAI_API_KEY" }) });
    return { description: `${model} at ${baseURL}`, server: undefined, close: async () => undefined };
  }
  if (apiKey !== undefined) {
    writeModelsFile({ provider: "openai", model });
    return { description: `OpenAI ${model}`, server: undefined, close: async () => undefined };
  }
  const server = await startLoopbackOpenAIServer({ script: options.script });
  writeModelsFile({ provider: "openai-compatible", model, baseURL: server.baseURL });
  return {
    description: `scripted ${model} on a loopback server (offline; set OPENAI_API_KEY for a real model)`,
    server,
    close: () => server.close(),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
