import { describe, expect, it } from "vitest";
import { filePathProblem } from "./code-run-rules.js";

describe("filePathProblem", () => {
  it.each(["score.ts", "lib/util.js", "data/a.b.json", "deep/er/path/x.ts", ".hidden/x.js"])("accepts %s", (path) => {
    expect(filePathProblem(path)).toBeUndefined();
  });
  it.each([
    ["", "is empty"],
    ["/etc/passwd", "is absolute"],
    ["C:/x.js", "is absolute"],
    ["lib\\x.js", "contains a backslash"],
    ["x\u0000.js", "contains a NUL character"],
    ["lib//x.js", "has an empty segment"],
    ["lib/", "has an empty segment"],
    ["./x.js", "has an `.` segment"],
    ["lib/../../x.js", "has an `..` segment"],
  ])("rejects %j (%s)", (path, problem) => {
    expect(filePathProblem(path)).toBe(problem);
  });
});
