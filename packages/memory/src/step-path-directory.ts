import { sha256Hex } from "@little-stack/canonical";
import { MemoryLayoutError } from "./memory-layout-error.js";

/**
 * Step paths (`review[a%2Eb].score`, `loop.visit[2]`, `fan@attempt_2`) become one directory name.
 *
 * Rule: `a-z`, `0-9`, `_` and `-` stay as they are; every other UTF-8 byte — upper-case letters
 * included, so that two step paths never share a directory on a case-insensitive file system —
 * becomes `%` + two upper-case hex digits. The result is injective and reversible
 * (`decodeStepPathDirectory`). Names longer than 160 characters are cut to 128 and suffixed with
 * `~` + 32 hex of the sha256 of the full step path (`~` never appears in an encoded name, so
 * hashed names cannot collide with plain ones); those are not reversible.
 */
const keep = /^[a-z0-9_-]$/;
const maxPlainLength = 160;

export function encodeStepPathDirectory(stepPath: string): string {
  if (typeof stepPath !== "string" || stepPath.length === 0) {
    throw new MemoryLayoutError("step path", "expected a non-empty string");
  }
  if (stepPath.includes("\0")) throw new MemoryLayoutError("step path", `${JSON.stringify(stepPath)} contains a NUL byte`);
  let encoded = "";
  for (const character of stepPath) {
    if (keep.test(character)) {
      encoded += character;
      continue;
    }
    for (const byte of Buffer.from(character, "utf8")) {
      encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  if (encoded.length <= maxPlainLength) return encoded;
  return `${encoded.slice(0, 128)}~${sha256Hex(stepPath).slice(0, 32)}`;
}

/** Inverse of `encodeStepPathDirectory`; `undefined` for hashed (shortened) or foreign names. */
export function decodeStepPathDirectory(directoryName: string): string | undefined {
  if (directoryName.includes("~")) return undefined;
  if (!/^(?:[a-z0-9_-]|%[0-9A-F]{2})+$/.test(directoryName)) return undefined;
  try {
    const decoded = decodeURIComponent(directoryName);
    return encodeStepPathDirectory(decoded) === directoryName ? decoded : undefined;
  } catch {
    return undefined;
  }
}
