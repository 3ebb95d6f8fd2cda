import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { startFileBackedOpenAIServer, type FileBackedRequest } from "@little-stack/testing";
import type { EvalModels } from "./eval-definition.js";
import { EvalUsageError } from "./eval-usage-error.js";

/** The OpenAI-compatible endpoint every role (planner, orchestrator, workers) talks to. */
export type EvalEndpoint = {
  readonly kind: "http" | "file";
  readonly baseURL: string;
  readonly apiKey: string;
  readonly modelId: string;
  /**
   * The provider name given to the AI SDK (it reports `<name>.chat`). Prices come from the
   * bundled registry entry `<name>/<modelId>`: `openai` prices OpenAI models, anything else is
   * unpriced (cost n/a).
   */
  readonly providerName: string;
  /** Send object/array/choice outputs as a JSON schema (`response_format: json_schema`). */
  readonly structuredOutputs: boolean;
  /** The folder of request/response files (file endpoint only). */
  readonly dir?: string;
};

export function evalModels(endpoint: EvalEndpoint): EvalModels {
  const provider = createOpenAICompatible({
    name: endpoint.providerName,
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    includeUsage: true,
    supportsStructuredOutputs: endpoint.structuredOutputs,
  });
  return () => provider.chatModel(endpoint.modelId);
}

export type OpenedEndpoint = { readonly endpoint: EvalEndpoint; close(): Promise<void> };

type Env = Readonly<Record<string, string | undefined>>;

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value.length === 0 ? undefined : value;
}

function structuredOutputsSetting(env: Env): boolean {
  const value = setting(env, "PLANNER_EVAL_STRUCTURED_OUTPUTS") ?? "1";
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  throw new EvalUsageError(`PLANNER_EVAL_STRUCTURED_OUTPUTS must be 1 or 0, got ${JSON.stringify(value)}`);
}

/**
 * `http`: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY, PLANNER_EVAL_MODEL
 * (required). `file:<dir>`: a file-backed loopback server on 127.0.0.1 writing requests into
 * `<dir>`; PLANNER_EVAL_MODEL names the model in the requests (default `file-model`).
 * PLANNER_EVAL_PRICE_AS overrides the provider name used for prices.
 */
export async function openEndpoint(options: { readonly spec: string; readonly env: Env; readonly onFileRequest?: (request: FileBackedRequest) => void }): Promise<OpenedEndpoint> {
  const { spec, env } = options;
  const structuredOutputs = structuredOutputsSetting(env);
  if (spec === "http") {
    const baseURL = setting(env, "OPENAI_BASE_URL") ?? "https://api.openai.com/v1";
    const modelId = setting(env, "PLANNER_EVAL_MODEL");
    if (modelId === undefined) throw new EvalUsageError("--endpoint http needs PLANNER_EVAL_MODEL (the model id the endpoint serves, e.g. gpt-5)");
    const isOpenAI = new URL(baseURL).hostname === "api.openai.com";
    const apiKey = setting(env, "OPENAI_API_KEY");
    if (isOpenAI && apiKey === undefined) throw new EvalUsageError("--endpoint http against api.openai.com needs OPENAI_API_KEY (or set OPENAI_BASE_URL to your endpoint)");
    return {
      endpoint: { kind: "http", baseURL, apiKey: apiKey ?? "unused", modelId, providerName: setting(env, "PLANNER_EVAL_PRICE_AS") ?? (isOpenAI ? "openai" : "openai-compatible"), structuredOutputs },
      close: async () => {},
    };
  }
  if (spec.startsWith("file:") && spec.length > "file:".length) {
    const dir = spec.slice("file:".length);
    const server = await startFileBackedOpenAIServer({ dir, ...(options.onFileRequest === undefined ? {} : { onRequest: options.onFileRequest }) });
    return {
      endpoint: { kind: "file", baseURL: server.baseURL, apiKey: "unused", modelId: setting(env, "PLANNER_EVAL_MODEL") ?? "file-model", providerName: setting(env, "PLANNER_EVAL_PRICE_AS") ?? "file-backed", structuredOutputs, dir },
      close: () => server.close(),
    };
  }
  throw new EvalUsageError(`--endpoint must be "http" or "file:<dir>", got ${JSON.stringify(spec)}`);
}
