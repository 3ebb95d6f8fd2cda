import { describe, expect, it } from "vitest";
import { parseModelAnswer } from "./parse-model-answer.js";

describe("parseModelAnswer", () => {
  const choice = { mode: "choice", values: ["yes", "no"] } as const;

  it("takes text as is and reads the other modes out of their envelopes", () => {
    expect(parseModelAnswer({ mode: "text" }, "  any text ")).toEqual({ ok: true, output: "  any text " });
    expect(parseModelAnswer(choice, '{"result":"no"}')).toEqual({ ok: true, output: "no" });
    expect(parseModelAnswer({ mode: "array", schema: { type: "array", items: { type: "integer" } } }, '{"elements":[1,2]}')).toEqual({ ok: true, output: [1, 2] });
    expect(parseModelAnswer({ mode: "json" }, "[1]")).toEqual({ ok: true, output: [1] });
  });

  it("tolerates one code fence around the whole answer, not prose around it", () => {
    expect(parseModelAnswer(choice, '```json\n{"result":"yes"}\n```')).toEqual({ ok: true, output: "yes" });
    expect(parseModelAnswer(choice, '```\n{"result":"yes"}```')).toEqual({ ok: true, output: "yes" });
    const prose = parseModelAnswer(choice, 'Sure: {"result":"yes"}');
    expect(prose).toMatchObject({ ok: false, mismatches: [{ path: "$", message: expect.stringMatching(/^the answer is not JSON/) as unknown }] });
  });

  it("refuses a bare value, another key or extra keys where an envelope is expected", () => {
    expect(parseModelAnswer(choice, '"yes"')).toMatchObject({ ok: false, mismatches: [{ path: "$", message: 'expected a JSON object of the form {"result": "<one of the allowed values>"}, got "yes"' }] });
    expect(parseModelAnswer(choice, '{"answer":"yes"}')).toMatchObject({ ok: false });
    expect(parseModelAnswer(choice, '{"result":"yes","why":"because"}')).toMatchObject({ ok: false, mismatches: [{ path: "$", message: 'expected only the key "result", got also "why"' }] });
  });

  it("reports paths into the step output and, separately, into what the model wrote", () => {
    const mode = { mode: "array", schema: { type: "array", items: { type: "string" }, maxItems: 1 } } as const;
    const parsed = parseModelAnswer(mode, '{"elements":["a",2]}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.mismatches.map((mismatch) => mismatch.path)).toEqual(expect.arrayContaining(["$", "$[1]"]));
    expect(parsed.answerMismatches.map((mismatch) => mismatch.path)).toEqual(expect.arrayContaining(["$.elements", "$.elements[1]"]));
  });
});
