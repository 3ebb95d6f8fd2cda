import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ResolvedModel } from "@little-stack/harness";
import { CliInputError } from "../cli-errors.js";

/** One entry of the `--models` file (runtime.md § CLI). */
export type ModelSlotEntry = {
  readonly provider: "openai" | "openai-compatible";
  readonly model: string;
  readonly baseURL?: string;
  readonly apiKeyEnv?: string;
};

const entryKeys = new Set(["provider", "model", "baseURL", "apiKeyEnv"]);

/**
 * Checks the parsed `--models` document: `{ "<slot>": { provider, model, baseURL?, apiKeyEnv? } }`.
 * Every mistake is a CliInputError naming the file, the slot and the field.
 */
export function parseModelSlots(options: { value: unknown; displayName: string }): Record<string, ModelSlotEntry> {
  const { value, displayName } = options;
  const fail = (where: string, problem: string): never => {
    throw new CliInputError(`${displayName}: ${where} ${problem} — expected { "<slot>": { "provider": "openai" | "openai-compatible", "model": "<id>", "baseURL"?: "…", "apiKeyEnv"?: "ENV_NAME" } }`);
  };
  if (!isRecord(value)) return fail("the document", "is not a JSON object");
  const slots: Record<string, ModelSlotEntry> = {};
  for (const [slot, entry] of Object.entries(value)) {
    const where = `slot "${slot}"`;
    if (!isRecord(entry)) return fail(where, "is not an object");
    const unknown = Object.keys(entry).find((key) => !entryKeys.has(key));
    if (unknown !== undefined) fail(`${where}`, `has an unknown field "${unknown}"`);
    const { provider, model, baseURL, apiKeyEnv } = entry;
    if (provider !== "openai" && provider !== "openai-compatible") fail(`${where}.provider`, `is ${JSON.stringify(provider) ?? "missing"}, not "openai" or "openai-compatible"`);
    if (typeof model !== "string" || model === "") fail(`${where}.model`, "must be a non-empty string");
    if (baseURL !== undefined && (typeof baseURL !== "string" || !URL.canParse(baseURL))) fail(`${where}.baseURL`, "must be a URL");
    // Providers speak HTTP: a file:, data: or ftp: URL would only fail after the retries of the first call.
    if (typeof baseURL === "string" && !["http:", "https:"].includes(new URL(baseURL).protocol)) {
      fail(`${where}.baseURL`, `is ${JSON.stringify(baseURL)}, which is not an http:// or https:// URL`);
    }
    if (provider === "openai-compatible" && baseURL === undefined) fail(`${where}.baseURL`, 'is required for provider "openai-compatible"');
    if (apiKeyEnv !== undefined && (typeof apiKeyEnv !== "string" || apiKeyEnv === "")) fail(`${where}.apiKeyEnv`, "must be the name of an environment variable");
    slots[slot] = {
      provider: provider as ModelSlotEntry["provider"],
      model: model as string,
      ...(baseURL === undefined ? {} : { baseURL: baseURL as string }),
      ...(apiKeyEnv === undefined ? {} : { apiKeyEnv: apiKeyEnv as string }),
    };
  }
  return slots;
}

/**
 * Builds an AI SDK model for each slot the run needs. The API key comes from the environment
 * variable the entry names (default OPENAI_API_KEY for provider "openai"); a named variable that
 * is unset is an error, not an anonymous request.
 */
export function resolveModelSlots(options: {
  slots: Readonly<Record<string, ModelSlotEntry>>;
  needed: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  displayName: string;
}): Record<string, ResolvedModel> {
  const resolved: Record<string, ResolvedModel> = {};
  for (const slotId of options.needed) {
    const entry = options.slots[slotId];
    if (entry === undefined) continue;
    const keyName = entry.apiKeyEnv ?? (entry.provider === "openai" ? "OPENAI_API_KEY" : undefined);
    const apiKey = keyName === undefined ? undefined : options.env[keyName];
    if (keyName !== undefined && (apiKey === undefined || apiKey === "")) {
      throw new CliInputError(`${options.displayName}: slot "${slotId}" reads its API key from $${keyName}, which is not set — export it or change apiKeyEnv`);
    }
    if (entry.provider === "openai") {
      const provider = createOpenAI({ ...(apiKey === undefined ? {} : { apiKey }), ...(entry.baseURL === undefined ? {} : { baseURL: entry.baseURL }) });
      resolved[slotId] = { slotId, provider: "openai", modelId: entry.model, model: provider(entry.model) };
    } else {
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: entry.baseURL!,
        ...(apiKey === undefined ? {} : { apiKey }),
        includeUsage: true,
        // Send the output schema as response_format json_schema (every OpenAI-compatible server we target takes it).
        supportsStructuredOutputs: true,
      });
      resolved[slotId] = { slotId, provider: "openai-compatible", modelId: entry.model, model: provider(entry.model) };
    }
  }
  return resolved;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
