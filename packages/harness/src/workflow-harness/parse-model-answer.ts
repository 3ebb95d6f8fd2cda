import type { LwirOutputMode } from "@little-stack/lwir";
import { answerFormatFor } from "./answer-format.js";
import { dropAbsentNulls } from "./drop-absent-nulls.js";
import { outputModeMismatches } from "./output-mode-mismatches.js";
import type { OutputMismatch } from "./output-schema-errors.js";

/**
 * A model answer read against a step's output mode. `mismatches` have paths into the step output
 * (as `AiOutputSchemaError` reports them); `answerMismatches` the same with paths into what the
 * model wrote (`$.elements[2].name`), for telling the model what to fix.
 */
export type ParsedModelAnswer =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly mismatches: readonly OutputMismatch[]; readonly answerMismatches: readonly OutputMismatch[] };

/**
 * Reads the text of a model answer as the step output: text mode takes it as is; the other modes
 * parse it as JSON (one Markdown code fence around the whole answer is tolerated — models without
 * enforced structured outputs add them), take the value out of its envelope (`{"elements": …}`,
 * `{"result": …}`), drop the nulls that stand for absent optional properties (`dropAbsentNulls`)
 * and check the result against the whole LWIR output mode.
 */
export function parseModelAnswer(mode: LwirOutputMode, text: string): ParsedModelAnswer {
  if (mode.mode === "text") return checked(mode, text, undefined);
  const format = answerFormatFor(mode);
  const body = withoutCodeFence(text);
  if (body.length === 0) return failed([{ path: "$", message: "the answer is empty; a JSON answer was expected" }], undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch (error) {
    return failed([{ path: "$", message: `the answer is not JSON (${error instanceof Error ? error.message : String(error)}): ${excerpt(body)}` }], undefined);
  }
  const answer = format.schema === undefined ? parsed : dropAbsentNulls(format.schema, parsed);
  if (format.envelope === undefined) return checked(mode, answer, undefined);
  const envelope = format.envelope;
  if (typeof answer !== "object" || answer === null || Array.isArray(answer) || !Object.hasOwn(answer, envelope)) {
    const expected = envelope === "elements" ? '{"elements": [...]}' : mode.mode === "choice" ? '{"result": "<one of the allowed values>"}' : '{"result": <value>}';
    return failed([{ path: "$", message: `expected a JSON object of the form ${expected}, got ${excerpt(JSON.stringify(answer))}` }], undefined);
  }
  const extra = Object.keys(answer).filter((key) => key !== envelope);
  if (extra.length > 0) return failed([{ path: "$", message: `expected only the key "${envelope}", got also ${extra.map((key) => JSON.stringify(key)).join(", ")}` }], undefined);
  return checked(mode, (answer as Record<string, unknown>)[envelope], envelope);
}

function checked(mode: LwirOutputMode, output: unknown, envelope: string | undefined): ParsedModelAnswer {
  const mismatches = outputModeMismatches(mode, output);
  return mismatches.length === 0 ? { ok: true, output } : failed(mismatches, envelope);
}

function failed(mismatches: readonly OutputMismatch[], envelope: string | undefined): ParsedModelAnswer {
  const answerMismatches = envelope === undefined ? mismatches : mismatches.map((mismatch) => ({ ...mismatch, path: `$.${envelope}${mismatch.path.slice(1)}` }));
  return { ok: false, mismatches, answerMismatches };
}

/** The answer without one Markdown code fence around all of it (```json … ```), trimmed. */
function withoutCodeFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  return (fenced?.[1] ?? trimmed).trim();
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
