import { isPrefixedId } from "@little-stack/canonical";
import { InvalidIdentifierError } from "./world-errors.js";

/**
 * Run ids and outer-loop ids name files and folders (`runs/<runId>`, `outer-loops/<id>.json`),
 * so they are restricted to characters that are safe in a path segment on every file system.
 */
const safeIdentifier = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const identifierRule = "expected 1..128 characters of A-Z a-z 0-9 . _ - starting with a letter or digit";

export function requireRunId(value: unknown): string {
  if (typeof value !== "string" || !safeIdentifier.test(value)) {
    throw new InvalidIdentifierError("run id", value, identifierRule);
  }
  return value;
}

export function requireOuterLoopId(value: unknown): string {
  if (typeof value !== "string" || !safeIdentifier.test(value)) {
    throw new InvalidIdentifierError("outer-loop id", value, identifierRule);
  }
  return value;
}

export function requireArtifactId(value: unknown): string {
  if (!isPrefixedId(value, "art")) {
    throw new InvalidIdentifierError("artifact id", value, 'expected "art_" followed by 16 lowercase hex digits');
  }
  return value;
}
