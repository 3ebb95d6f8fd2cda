import { describe, expect, it } from "vitest";
import { codeFile } from "./__fixtures__/code-files.js";
import { checkCodeFiles, unsafePathReason } from "./code-files.js";
import { SandboxFileHashMismatchError, SandboxInvalidEntrypointError, SandboxInvalidFilePathError } from "./errors/source-errors.js";

describe("code.run files", () => {
  it("accepts safe relative paths and rejects the LWIR-unsafe ones", () => {
    expect(unsafePathReason("lib/util.ts")).toBeUndefined();
    for (const path of ["", "/etc/passwd", "a\\b.ts", "a\0.ts", "a//b.ts", "./a.ts", "../a.ts", "a/../b.ts"]) {
      expect(unsafePathReason(path), path).toBeTypeOf("string");
    }
  });

  it("refuses a file whose content no longer matches its hash, with both hashes", () => {
    const file = codeFile("export async function run() { return 1; }");
    const tampered = { "main.js": { content: `${file.content} // edited`, sha256: file.sha256 } };
    expect(() => checkCodeFiles(tampered, "main.js")).toThrow(SandboxFileHashMismatchError);
    try {
      checkCodeFiles(tampered, "main.js");
    } catch (error) {
      expect((error as SandboxFileHashMismatchError).details).toMatchObject({ path: "main.js", expected: file.sha256 });
    }
  });

  it("refuses unsafe paths and entrypoints that are not .ts/.js files of the step", () => {
    expect(() => checkCodeFiles({ "../escape.js": codeFile("") }, "../escape.js")).toThrow(SandboxInvalidFilePathError);
    expect(() => checkCodeFiles({ "main.py": codeFile("") }, "main.py")).toThrow(SandboxInvalidEntrypointError);
    expect(() => checkCodeFiles({ "main.js": codeFile("") }, "other.js")).toThrow(/not one of the step's files \(main.js\)/);
  });
});
