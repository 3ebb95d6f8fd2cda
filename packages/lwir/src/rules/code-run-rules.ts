import { createHash } from "node:crypto";
import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { hasField, isRecord, listOf, ownField, unknownKeys, type JsonRecord } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import type { LwirRuleContext } from "./rule-context.js";

const withFields = new Set(LWIR_FIELDS.codeRunWith);
const fileFields = new Set(LWIR_FIELDS.codeRunFile);
const sandboxFields = LWIR_FIELDS.codeRunSandbox;
const digestPattern = /^sha256:[0-9a-f]{64}$/;

/** Why `path` is not a safe relative file path (lwir.md §2 code.run), or undefined. */
export function filePathProblem(path: string): string | undefined {
  if (path.length === 0) return "is empty";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is absolute";
  if (path.includes("\\")) return "contains a backslash";
  if (path.includes("\u0000")) return "contains a NUL character";
  const bad = path.split("/").find((segment) => segment === "" || segment === "." || segment === "..");
  if (bad !== undefined) return `has an ${bad === "" ? "empty" : `\`${bad}\``} segment`;
  return undefined;
}

/** lwir.md §2 code.run: entrypoint, files with pinned hashes, sandbox policy. */
export function checkCodeRunRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    if (entry.uses !== "code.run" || entry.record === undefined) continue;
    const path: JsonPathSegment[] = [...entry.path, "with"];
    const withValue = ownField(entry.record, "with");
    if (!isRecord(withValue)) {
      findings.report({
        code: "code.invalid_config",
        path,
        message: `A code.run step needs \`with\`: { entrypoint, files, sandbox } (got ${describeValue(withValue)}).`,
      });
      continue;
    }
    for (const key of unknownKeys(withValue, withFields)) {
      findings.report({
        code: "code.invalid_config",
        path: [...path, key],
        message: `Unknown code.run field with.${key}: code.run takes ${listOf(withFields)}.`,
      });
    }
    const files = ownField(withValue, "files");
    checkEntrypoint({ withValue, files, path, findings });
    checkFiles({ files, path, findings });
    checkSandbox({ withValue, path, findings });
  }
}

function checkEntrypoint(options: {
  withValue: JsonRecord;
  files: unknown;
  path: JsonPathSegment[];
  findings: FindingList;
}): void {
  const { withValue, files, path, findings } = options;
  const entrypointPath = [...path, "entrypoint"];
  if (!hasField(withValue, "entrypoint")) {
    findings.report({
      code: "code.missing_entrypoint",
      path: entrypointPath,
      message: "A code.run step needs with.entrypoint, the path (a key of with.files) of the module exporting run().",
    });
    return;
  }
  const entrypoint = ownField(withValue, "entrypoint");
  let problem: string | undefined;
  if (typeof entrypoint !== "string") problem = "must be a string";
  else {
    const pathProblem = filePathProblem(entrypoint);
    if (pathProblem !== undefined) problem = `${pathProblem}; it must be a safe relative path`;
    else if (!entrypoint.endsWith(".ts") && !entrypoint.endsWith(".js")) problem = "must end with .ts or .js";
    // With no usable files the missing files are the one finding, not the entrypoint too.
    else if (isRecord(files) && Object.keys(files).length > 0 && !hasField(files, entrypoint)) {
      problem = "is not a key of with.files";
    }
  }
  if (problem === undefined) return;
  findings.report({
    code: "code.invalid_entrypoint",
    path: entrypointPath,
    message: `with.entrypoint ${describeValue(entrypoint)} ${problem}.`,
  });
}

function checkFiles(options: { files: unknown; path: JsonPathSegment[]; findings: FindingList }): void {
  const { files, path, findings } = options;
  const filesPath = [...path, "files"];
  if (!isRecord(files) || Object.keys(files).length === 0) {
    findings.report({
      code: "code.missing_files",
      path: filesPath,
      message: `A code.run step needs with.files, a non-empty object { [path]: { content, sha256 } } (got ${describeValue(files)}).`,
    });
    return;
  }
  for (const name of Object.keys(files)) {
    const filePath = [...filesPath, name];
    const pathProblem = filePathProblem(name);
    if (pathProblem !== undefined) {
      findings.report({
        code: "code.invalid_file_path",
        path: filePath,
        message: `File path ${describeValue(name)} ${pathProblem}; file paths must be safe relative paths.`,
      });
    }
    checkFile({ file: files[name], path: filePath, findings });
  }
}

function checkFile(options: { file: unknown; path: JsonPathSegment[]; findings: FindingList }): void {
  const { file, path, findings } = options;
  if (!isRecord(file)) {
    findings.report({
      code: "code.invalid_file",
      path,
      message: `A file must be an object { content, sha256 } (got ${describeValue(file)}).`,
    });
    return;
  }
  for (const key of unknownKeys(file, fileFields)) {
    findings.report({
      code: "code.invalid_file",
      path: [...path, key],
      message: `Unknown file field \`${shown(key)}\`: a file has only content and sha256.`,
    });
  }
  const content = ownField(file, "content");
  if (typeof content !== "string") {
    findings.report({
      code: "code.invalid_file",
      path: [...path, "content"],
      message: `File content must be a string (got ${describeValue(content)}).`,
    });
  }
  const digest = ownField(file, "sha256");
  const digestPath = [...path, "sha256"];
  if (typeof digest !== "string" || !digestPattern.test(digest)) {
    findings.report({
      code: "code.invalid_file_hash",
      path: digestPath,
      message: `File sha256 must be "sha256:" + 64 lowercase hex digits of the UTF-8 content (got ${describeValue(digest)}).`,
    });
    return;
  }
  if (typeof content !== "string") return;
  const actual = `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`;
  if (actual !== digest) {
    findings.report({
      code: "code.invalid_file_hash",
      path: digestPath,
      message: `File sha256 does not match its content: the content hashes to ${actual}. Update sha256 or the content.`,
    });
  }
}

function checkSandbox(options: { withValue: JsonRecord; path: JsonPathSegment[]; findings: FindingList }): void {
  const { withValue, path, findings } = options;
  const sandboxPath = [...path, "sandbox"];
  if (!hasField(withValue, "sandbox")) {
    findings.report({
      code: "code.missing_sandbox",
      path: sandboxPath,
      message: 'A code.run step needs with.sandbox, at least { "network": "deny" }.',
    });
    return;
  }
  const sandbox = ownField(withValue, "sandbox");
  if (!isRecord(sandbox)) {
    findings.report({
      code: "code.invalid_sandbox",
      path: sandboxPath,
      message: `with.sandbox must be an object { network: "deny", env?: "deny", fs?: "deny" } (got ${describeValue(sandbox)}).`,
    });
    return;
  }
  for (const key of unknownKeys(sandbox, new Set(sandboxFields))) {
    findings.report({
      code: "code.invalid_sandbox",
      path: [...sandboxPath, key],
      message: `Unknown sandbox field \`${shown(key)}\`: the sandbox policy has only network, env and fs.`,
    });
  }
  for (const key of sandboxFields) {
    if (key !== "network" && !hasField(sandbox, key)) continue;
    const value = ownField(sandbox, key);
    if (value === "deny" || value === false) continue;
    findings.report({
      code: "code.invalid_sandbox",
      path: [...sandboxPath, key],
      message: hasField(sandbox, key)
        ? `sandbox.${key} must be "deny" (or false): v0.1 grants no ${key} access (got ${describeValue(value)}).`
        : `sandbox.${key} is required and must be "deny" (or false): v0.1 grants no ${key} access.`,
    });
  }
}
