import { describeValue, shown, type FindingList } from "../findings.js";
import { hasField, isNonEmptyString, isRecord, ownField } from "./json-shape.js";
import type { LwirRuleContext, StepEntry } from "./rule-context.js";

/** lwir.md §2: ai.generate models and prompts, tool.call tools, against `permissions`. */
export function checkModelsToolsRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    const withValue = entry.record === undefined ? undefined : ownField(entry.record, "with");
    if (!isRecord(withValue)) continue;
    if (entry.uses === "ai.generate") checkAiGenerate({ context, entry, withValue, findings });
    if (entry.uses === "tool.call") checkToolCall({ context, entry, withValue, findings });
  }
}

function checkAiGenerate(options: {
  context: LwirRuleContext;
  entry: StepEntry;
  withValue: Readonly<Record<string, unknown>>;
  findings: FindingList;
}): void {
  const { context, entry, withValue, findings } = options;
  checkAllowlistedName({ entry, withValue, findings, field: "model", allowed: context.allowedModels });
  if (typeof ownField(withValue, "prompt") !== "string") {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, "with", "prompt"],
      message: `An ai.generate step needs with.prompt, a string (got ${describeValue(ownField(withValue, "prompt"))}).`,
    });
  }
  if (hasField(withValue, "system") && typeof ownField(withValue, "system") !== "string") {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, "with", "system"],
      message: `with.system must be a string when present (got ${describeValue(ownField(withValue, "system"))}).`,
    });
  }
}

function checkToolCall(options: {
  context: LwirRuleContext;
  entry: StepEntry;
  withValue: Readonly<Record<string, unknown>>;
  findings: FindingList;
}): void {
  const { context, entry, withValue, findings } = options;
  checkAllowlistedName({ entry, withValue, findings, field: "tool", allowed: context.allowedTools });
}

const allowlisted = {
  model: { step: "An ai.generate step", list: "permissions.models", what: "a model slot id", Name: "Model", instead: "use an allowed slot" },
  tool: { step: "A tool.call step", list: "permissions.tools", what: "a tool id", Name: "Tool", instead: "use an allowed tool" },
} as const;

/** `with.model` / `with.tool`: present (`model.missing` / `tool.missing`) and in its allowlist (`….disallowed`). */
function checkAllowlistedName(options: {
  entry: StepEntry;
  withValue: Readonly<Record<string, unknown>>;
  findings: FindingList;
  field: "model" | "tool";
  allowed: ReadonlySet<string> | undefined;
}): void {
  const { entry, withValue, findings, field, allowed } = options;
  const words = allowlisted[field];
  const name = ownField(withValue, field);
  const path = [...entry.path, "with", field];
  if (!isNonEmptyString(name)) {
    findings.report({
      code: `${field}.missing`,
      path,
      message: `${words.step} needs with.${field}, ${words.what} from ${words.list} (got ${describeValue(name)}).`,
    });
  } else if (allowed !== undefined && !allowed.has(name)) {
    findings.report({
      code: `${field}.disallowed`,
      path,
      message: `${words.Name} "${shown(name)}" is not in ${words.list}; add it there or ${words.instead}.`,
    });
  }
}
