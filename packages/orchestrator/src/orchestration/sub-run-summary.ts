import { canonicalJson } from "@little-stack/canonical";

/** How much of an output the model sees inline; the rest is read from `outputPath` with bash. */
export const summaryLimit = 400;

/** A short, model-facing rendering of an output (canonical JSON, cut at `summaryLimit`). */
export function summarizeOutput(output: unknown): string {
  const text = typeof output === "string" ? output : canonicalJson(output ?? null);
  return text.length <= summaryLimit ? text : `${text.slice(0, summaryLimit)}… (${text.length} chars; read outputPath for all of it)`;
}
