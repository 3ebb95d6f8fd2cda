import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { hasField, isIntegerInRange, isNonEmptyString, isRecord, ownField, unknownKeys } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import type { LwirRuleContext } from "./rule-context.js";

const fixerFields = new Set(LWIR_FIELDS.fixer);

/** lwir.md §2: `onFailure.fixer` — only on code.run, with an allowed model, attempts and a system prompt. */
export function checkFixerRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    const onFailure = entry.record === undefined ? undefined : ownField(entry.record, "onFailure");
    if (!isRecord(onFailure) || !hasField(onFailure, "fixer") || entry.uses === undefined) continue;
    const path: JsonPathSegment[] = [...entry.path, "onFailure", "fixer"];
    if (entry.uses !== "code.run") {
      findings.report({
        code: "fixer.unsupported_step",
        path,
        message: `onFailure.fixer is only supported on code.run steps; this is a ${entry.uses} step. Remove it or use retry.`,
      });
      continue;
    }
    const fixer = ownField(onFailure, "fixer");
    if (!isRecord(fixer)) {
      findings.report({
        code: "fixer.invalid_config",
        path,
        message: `onFailure.fixer must be an object { model, maxAttempts, system } (got ${describeValue(fixer)}).`,
      });
      continue;
    }
    for (const key of unknownKeys(fixer, fixerFields)) {
      findings.report({
        code: "fixer.invalid_config",
        path: [...path, key],
        message: `Unknown fixer field \`${shown(key)}\`: a fixer has only model, maxAttempts and system.`,
      });
    }
    const model = ownField(fixer, "model");
    if (!isNonEmptyString(model)) {
      findings.report({
        code: "fixer.model.missing",
        path: [...path, "model"],
        message: `The fixer needs \`model\`, a model slot id from permissions.models (got ${describeValue(model)}).`,
      });
    } else if (context.allowedModels !== undefined && !context.allowedModels.has(model)) {
      findings.report({
        code: "fixer.model.disallowed",
        path: [...path, "model"],
        message: `Fixer model "${shown(model)}" is not in permissions.models; add it there or use an allowed slot.`,
      });
    }
    const maxAttempts = ownField(fixer, "maxAttempts");
    if (!isIntegerInRange(maxAttempts, { min: 1, max: Number.MAX_SAFE_INTEGER })) {
      findings.report({
        code: "fixer.max_attempts_invalid",
        path: [...path, "maxAttempts"],
        message: `fixer.maxAttempts must be an integer >= 1 (got ${describeValue(maxAttempts)}).`,
      });
    }
    const system = ownField(fixer, "system");
    if (typeof system !== "string" || system.trim().length === 0) {
      findings.report({
        code: "fixer.system_missing",
        path: [...path, "system"],
        message: `The fixer needs \`system\`, a non-empty system prompt (got ${describeValue(system)}).`,
      });
    }
  }
}
