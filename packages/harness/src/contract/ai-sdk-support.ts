import { createRequire } from "node:module";

/**
 * Which AI SDK this release works with. Models are passed in by the user (peer dependencies), so
 * a model from another AI SDK generation must be refused with the versions spelled out, not with
 * a bare "wrong model" message.
 */
export const supportedAiSdk = {
  ai: "^6.0.326",
  provider: "^3.0.19",
  specificationVersion: "v3",
} as const;

// The model specification each AI SDK generation speaks (LanguageModelV1 … V4).
const generationOfSpecification: Readonly<Record<string, string>> = { v1: "AI SDK 4", v2: "AI SDK 5", v3: "AI SDK 6", v4: "AI SDK 7" };

let installedVersion: string | null | undefined;

/** The version of the `ai` package this copy of Little Workflow resolves, or null when it cannot tell. */
export function installedAiSdkVersion(): string | null {
  if (installedVersion !== undefined) return installedVersion;
  try {
    const manifest = createRequire(import.meta.url)("ai/package.json") as { version?: unknown };
    installedVersion = typeof manifest.version === "string" ? manifest.version : null;
  } catch {
    installedVersion = null;
  }
  return installedVersion;
}

/**
 * When `value` is a language model of an AI SDK generation this release does not support, the
 * sentence saying so — which generation it is, what is installed, what is supported and what to
 * install; undefined for anything else (a V3 model, or not a model at all).
 */
export function unsupportedAiSdkModel(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const version = (value as { specificationVersion?: unknown }).specificationVersion;
  if (typeof version !== "string" || version === supportedAiSdk.specificationVersion) return undefined;
  const generation = generationOfSpecification[version];
  const installed = installedAiSdkVersion();
  return (
    `got a ${version} language model${generation === undefined ? "" : ` (from an ${generation} provider package)`}, but Little Workflow supports AI SDK 6 only: ` +
    `ai ${supportedAiSdk.ai} and provider packages speaking the ${supportedAiSdk.specificationVersion.toUpperCase()} model specification (@ai-sdk/provider ${supportedAiSdk.provider}: @ai-sdk/openai 3.x, @ai-sdk/openai-compatible 2.x, …). ` +
    `Installed: ai ${installed ?? "(not found)"}. Install the supported line: npm i ai@6 @ai-sdk/openai@3 (or your provider's 3.x).`
  );
}
