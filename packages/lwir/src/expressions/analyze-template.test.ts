import { describe, expect, it } from "vitest";
import { analyzeTemplatesIn, analyzeTemplateString } from "./analyze-template.js";

const outside = { insideParallelBody: false };
const inside = { insideParallelBody: true };

describe("analyzeTemplateString: accepted expressions", () => {
  const accepted = [
    "{{ input.ticketId }}",
    "Summarize {{ input.a }} and {{ input['b c'][0] }}",
    "{{ steps.fetch.output.items }}",
    "{{ steps.loop.lastOutput }}",
    "{{ steps.loop.allVisits }}",
    '{{ steps["my step"].output }}',
    "{{ step.id }}",
    "{{ workflow.metadata.name }}",
    "{{ coalesce(steps.a.lastOutput, input.fallback, null) }}",
    "{{ len(input.x) > 0 && lower(input.s) === 'a' || upper(input.s) != \"B\" }}",
    "{{ json(input) }}",
    "{{ date(input.when) }}",
    "{{ sha256(input.a) }}",
    "{{ sha256(input.a, input.b, 1) }}",
    "{{ hmac('key', input.a) }}",
    "{{ input.n >= 1 && input.n <= 9 && input.n < 10 && input.n > 0 && input.s == 'x' && input.t !== null }}",
    "{{ 'literal' }}",
  ];
  it.each(accepted)("%s", (text) => {
    expect(analyzeTemplateString(text, outside).problems).toEqual([]);
  });

  it("accepts item inside a parallel body", () => {
    expect(analyzeTemplateString("{{ item.url }}", inside).problems).toEqual([]);
  });

  it("returns nothing for strings without templates", () => {
    expect(analyzeTemplateString("no templates { here }", outside)).toEqual({ problems: [], stepReferences: [], rootReferences: [] });
  });
});

describe("analyzeTemplateString: every static rejection of §6 is a problem naming the offending text", () => {
  const rejected: [string, RegExp, string][] = [
    ["{{ input.a; }}", /`;` is not allowed/, "{{ input.a; }}"],
    ["{{ `x` }}", /backticks/, "{{ `x` }}"],
    ["{{ x => x }}", /`=>`/, "{{ x => x }}"],
    ["{{ await input.a }}", /`await` is not allowed/, "await"],
    ["{{ new Foo() }}", /`new` is not allowed/, "new"],
    ["{{ function () }}", /`function` is not allowed/, "function"],
    ["{{ import('x') }}", /`import` is not allowed/, "import"],
    ["{{ require('fs') }}", /`require` is not allowed/, "require"],
    ["{{ process.env.HOME }}", /`process` is not allowed/, "process"],
    ["{{ global.x }}", /`global` is not allowed/, "global"],
    ["{{ globalThis.x }}", /`globalThis` is not allowed/, "globalThis"],
    ["{{ eval('1') }}", /`eval` is not allowed/, "eval"],
    ["{{ input.name.toUpperCase() }}", /method calls are not allowed/, "input.name.toUpperCase"],
    ["{{ len() }}", /wrong number of arguments: len\(x\) takes exactly 1 argument, got 0/, "len()"],
    ["{{ lower(input.a, input.b) }}", /lower\(s\) takes exactly 1 argument, got 2/, "lower(input.a, input.b)"],
    ["{{ upper() }}", /upper\(s\) takes exactly 1 argument, got 0/, "upper()"],
    ["{{ json() }}", /json\(x\) takes exactly 1 argument/, "json()"],
    ["{{ date(1, 2) }}", /date\(x\) takes exactly 1 argument/, "date(1, 2)"],
    ["{{ coalesce(input.a) }}", /coalesce\(a, b, …\) takes at least 2 arguments, got 1/, "coalesce(input.a)"],
    ["{{ sha256() }}", /sha256\(x, …\) takes at least 1 argument, got 0/, "sha256()"],
    ["{{ hmac('k') }}", /hmac\(key, data\) takes exactly 2 arguments, got 1/, "hmac('k')"],
    ["{{ now() }}", /unknown function now\(\)/, "now()"],
    ["{{ steps[0].output }}", /numeric steps\[0\] is not allowed/, "steps[0].output"],
    ["{{ item.url }}", /`item` is only available inside a parallel body/, "item.url"],
    ["{{ input.__proto__.x }}", /"__proto__" is a forbidden key/, "input.__proto__.x"],
    ["{{ input.constructor }}", /"constructor" is a forbidden key/, "input.constructor"],
    ['{{ input["prototype"] }}', /"prototype" is a forbidden key/, 'input["prototype"]'],
    ["{{ Math.random }}", /unknown root "Math"/, "Math.random"],
    ["{{ foo }}", /unknown root "foo"/, "foo"],
    ["{{ steps }}", /`steps` needs a step id/, "steps"],
    ["{{ steps.a }}", /must be followed by .output, .lastOutput or .allVisits, found nothing/, "steps.a"],
    ["{{ steps.a.result }}", /found "result"/, "steps.a.result"],
    ["{{ input.a", /never closed/, "{{ input.a"],
    ["a }} b", /unbalanced `}}`/, "}}"],
  ];
  it.each(rejected)("%s", (text, problem, offending) => {
    const { problems } = analyzeTemplateString(text, outside);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
    expect(problems[0]).toContain(offending);
    expect(problems[0]).toMatch(/column \d+/);
  });

  it("reports every bad template of one string, not only the first", () => {
    const { problems } = analyzeTemplateString("{{ input.a; }} then {{ now() }} and {{ item.x }}", outside);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/`;`/);
    expect(problems[1]).toMatch(/now\(\)/);
    expect(problems[2]).toMatch(/item/);
  });

  it("checks arguments of function calls and both sides of operators", () => {
    const { problems } = analyzeTemplateString("{{ len(foo.x) > 1 || coalesce(steps[1].output, input.__proto__) }}", outside);
    expect(problems).toHaveLength(3);
  });

  it("never throws, whatever it is given", () => {
    const inputs: unknown[] = [
      "{{".repeat(10_000),
      "}}".repeat(10_000),
      `{{ ${"input.a && ".repeat(2_000)}input.b }}`,
      `{{ ${"len(".repeat(3_000)}input${")".repeat(3_000)} }}`,
      "{{ '\\u12' }}",
      "{{ \u0000 }}",
      42,
      null,
    ];
    for (const input of inputs) {
      expect(() => analyzeTemplateString(input as string, outside)).not.toThrow();
    }
    expect(analyzeTemplateString(`{{ ${"len(".repeat(3_000)}input${")".repeat(3_000)} }}`, outside).problems.length).toBeGreaterThan(0);
  });
});

describe("analyzeTemplateString: step references", () => {
  it("lists every step reference with its accessor", () => {
    const { stepReferences } = analyzeTemplateString(
      "{{ steps.a.output.x }} {{ coalesce(steps.b.lastOutput, steps['c d'].allVisits) }} {{ steps.e.bogus }}",
      outside,
    );
    expect(stepReferences).toEqual([
      { stepId: "a", accessor: "output", rest: ["x"], guarded: false, source: "steps.a.output.x" },
      { stepId: "b", accessor: "lastOutput", rest: [], guarded: true, source: "steps.b.lastOutput" },
      { stepId: "c d", accessor: "allVisits", rest: [], guarded: true, source: "steps['c d'].allVisits" },
      { stepId: "e", accessor: null, rest: [], guarded: false, source: "steps.e.bogus" },
    ]);
  });

  it("lists input and item paths, and marks what coalesce guards (nested calls included)", () => {
    const { rootReferences, stepReferences } = analyzeTemplateString(
      "{{ input.a[0].b }} {{ len(coalesce(lower(item.name), 'x')) }} {{ coalesce(steps.a.lastOutput.x, 1) == input.n }}",
      { insideParallelBody: true },
    );
    expect(rootReferences).toEqual([
      { root: "input", segments: ["a", 0, "b"], guarded: false, source: "input.a[0].b" },
      { root: "item", segments: ["name"], guarded: true, source: "item.name" },
      { root: "input", segments: ["n"], guarded: false, source: "input.n" },
    ]);
    expect(stepReferences).toEqual([{ stepId: "a", accessor: "lastOutput", rest: ["x"], guarded: true, source: "steps.a.lastOutput.x" }]);
  });
});

describe("analyzeTemplatesIn", () => {
  it("walks objects and arrays and reports the path of each templated string", () => {
    const results = analyzeTemplatesIn(
      {
        prompt: "Hi {{ input.name }}",
        args: { list: ["plain", "{{ steps.a.output }}", { deep: "{{ now() }}" }] },
        count: 3,
        note: "no template",
      },
      outside,
    );
    expect(results.map((result) => result.path)).toEqual([
      ["prompt"],
      ["args", "list", 1],
      ["args", "list", 2, "deep"],
    ]);
    expect(results[1]!.stepReferences).toEqual([{ stepId: "a", accessor: "output", rest: [], guarded: false, source: "steps.a.output" }]);
    expect(results[2]!.problems[0]).toMatch(/unknown function now/);
  });

  it("analyzes a top-level string and treats a stray `}}` as needing analysis", () => {
    expect(analyzeTemplatesIn("oops }}", outside)).toEqual([
      { path: [], problems: [expect.stringMatching(/unbalanced/)], stepReferences: [], rootReferences: [] },
    ]);
  });

  it("survives cycles, deep nesting and __proto__ keys without throwing", () => {
    const cyclic: Record<string, unknown> = { a: "{{ input.x }}" };
    cyclic.self = cyclic;
    expect(analyzeTemplatesIn(cyclic, outside)).toHaveLength(1);

    let deep: unknown = "{{ input.deep }}";
    for (let level = 0; level < 50_000; level += 1) deep = [deep];
    const deepResults = analyzeTemplatesIn(deep, outside);
    expect(deepResults).toHaveLength(1);
    expect(deepResults[0]!.path).toHaveLength(50_000);

    const polluted = JSON.parse('{"__proto__": {"x": "{{ input.__proto__ }}"}}') as unknown;
    const pollutedResults = analyzeTemplatesIn(polluted, outside);
    expect(pollutedResults[0]!.path).toEqual(["__proto__", "x"]);
    expect(pollutedResults[0]!.problems[0]).toMatch(/forbidden key/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
