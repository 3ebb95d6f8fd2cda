/**
 * Every field LWIR allows, by where it appears (lwir.md §1–§3). The rule files check documents
 * against these lists, and documentation that teaches LWIR (the planner's built-in `lwir` skill)
 * is tested against them, so a field added here without being documented fails a test.
 */
export const LWIR_FIELDS = {
  document: ["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"],
  metadata: ["name", "version", "description"],
  schemaSection: ["schema"],
  permissions: ["models", "tools", "secrets", "network"],
  step: ["id", "uses", "needs", "with", "input", "output", "onFailure", "maxVisits", "retry", "sensitive", "steps"],
  retry: ["maxAttempts", "backoff"],
  retryBackoff: ["initialMs", "factor", "maxMs"],
  onFailure: ["fixer"],
  fixer: ["model", "maxAttempts", "system"],
  aiGenerateWith: ["model", "prompt", "system"],
  toolCallWith: ["tool", "args"],
  decisionWith: ["cases", "default"],
  decisionCase: ["when", "to"],
  codeRunWith: ["entrypoint", "files", "sandbox"],
  codeRunFile: ["content", "sha256"],
  codeRunSandbox: ["network", "env", "fs"],
  parallelWith: ["items", "itemKey", "cardinality", "maxBranches", "maxConcurrency", "failureMode", "fanIn"],
  parallelFanIn: ["order", "output", "outputStep"],
  outputText: ["mode", "name", "description"],
  outputObject: ["mode", "name", "description", "schema"],
  outputArray: ["mode", "name", "description", "schema"],
  outputChoice: ["mode", "name", "description", "values"],
  outputJson: ["mode", "name", "description", "schema"],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type LwirFieldLocation = keyof typeof LWIR_FIELDS;
