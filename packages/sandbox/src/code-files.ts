import { createHash } from "node:crypto";
import { SandboxFileHashMismatchError, SandboxInvalidEntrypointError, SandboxInvalidFilePathError } from "./errors/source-errors.js";

/** One file of an LWIR `code.run` step: its text and `"sha256:" + hex(sha256(utf8(content)))`. */
export type CodeRunFile = { readonly content: string; readonly sha256: string };

/** Extensions the sandbox evaluates as modules. */
export const moduleExtensions = [".ts", ".js"] as const;

/** Why `path` is not a safe relative file path (the LWIR rule), or undefined when it is. */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0) return "it is empty";
  if (path.startsWith("/")) return "it is absolute";
  if (path.includes("\\")) return "it contains a backslash";
  if (path.includes("\0")) return "it contains a NUL character";
  for (const segment of path.split("/")) {
    if (segment === "") return "it has an empty segment";
    if (segment === "." || segment === "..") return `it has a "${segment}" segment`;
  }
  return undefined;
}

export function sha256OfText(content: string): string {
  return `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`;
}

/**
 * Checks every file's path, shape and hash and that the entrypoint is one of them, as the
 * plan's validator does; a plan that was edited after hashing is refused before any code runs.
 */
export function checkCodeFiles(files: Readonly<Record<string, CodeRunFile>>, entrypoint: string): void {
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw new SandboxInvalidFilePathError("files must be an object of { [path]: { content, sha256 } }.", {
      details: { field: "files" },
    });
  }
  for (const [path, file] of Object.entries(files)) {
    const reason = unsafePathReason(path);
    if (reason !== undefined) {
      throw new SandboxInvalidFilePathError(
        `File path ${JSON.stringify(path)} is not a safe relative path: ${reason}. Use paths like "lib/util.ts".`,
        { details: { path, reason } },
      );
    }
    if (typeof file !== "object" || file === null || typeof file.content !== "string" || typeof file.sha256 !== "string") {
      throw new SandboxInvalidFilePathError(`File ${JSON.stringify(path)} must be { content: string, sha256: string }.`, {
        details: { path },
      });
    }
    const actual = sha256OfText(file.content);
    if (actual !== file.sha256) {
      throw new SandboxFileHashMismatchError(
        `File ${JSON.stringify(path)} does not match its recorded hash (recorded ${file.sha256}, content hashes to ${actual}). ` +
          "The code changed after the plan was hashed: recompile the plan or restore the file.",
        { details: { path, expected: file.sha256, actual } },
      );
    }
  }
  const reason = typeof entrypoint === "string" ? unsafePathReason(entrypoint) : "it is not a string";
  if (reason !== undefined) {
    throw new SandboxInvalidEntrypointError(`Entrypoint ${JSON.stringify(entrypoint)} is not a safe relative path: ${reason}.`, {
      details: { entrypoint, reason },
    });
  }
  if (!moduleExtensions.some((extension) => entrypoint.endsWith(extension))) {
    throw new SandboxInvalidEntrypointError(`Entrypoint "${entrypoint}" must end in .ts or .js.`, { details: { entrypoint } });
  }
  if (!Object.hasOwn(files, entrypoint)) {
    throw new SandboxInvalidEntrypointError(
      `Entrypoint "${entrypoint}" is not one of the step's files (${Object.keys(files).join(", ") || "none"}).`,
      { details: { entrypoint, files: Object.keys(files) } },
    );
  }
}
