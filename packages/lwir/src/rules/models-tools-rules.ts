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
  const model = ownField(withValue, "model");
  const modelPath = [...entry.path, "with", "model"];
  if (!isNonEmptyString(model)) {
    findings.report({
      code: "model.missing",
      path: modelPath,
      message: `An ai.generate step needs with.model, a model slot id from permissions.models (got ${describeValue(model)}).`,
    });
  } else if (context.allowedModels !== undefined && !context.allowedModels.has(model)) {
    findings.report({
      code: "model.disallowed",
      path: modelPath,
      message: `Model "${shown(model)}" is not in permissions.models; add it there or use an allowed slot.`,
    });
  }
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
  const tool = ownField(withValue, "tool");
  const toolPath = [...entry.path, "with", "tool"];
  if (!isNonEmptyString(tool)) {
    findings.report({
      code: "tool.missing",
      path: toolPath,
      message: `A tool.call step needs with.tool, a tool id from permissions.tools (got ${describeValue(tool)}).`,
    });
  } else if (context.allowedTools !== undefined && !context.allowedTools.has(tool)) {
    findings.report({
      code: "tool.disallowed",
      path: toolPath,
      message: `Tool "${shown(tool)}" is not in permissions.tools; add it there or use an allowed tool.`,
    });
  }
}
