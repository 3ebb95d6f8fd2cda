import {
  CanonicalJsonError,
  canonicalJson,
  contentId,
  sha256DigestOfBytes,
} from "@little-stack/canonical";
import { ArtifactIntegrityError, InvalidArtifactError } from "./artifact-errors.js";
import { requireRunId } from "./identifiers.js";
import type { JsonValue } from "./json-value.js";
import type { ArtifactEncoding, ArtifactInput, ArtifactManifest } from "./world.js";

/** An artifact ready to store: its manifest (id included) and its bytes. */
export type EncodedArtifact = {
  readonly manifest: ArtifactManifest;
  readonly bytes: Uint8Array;
};

const defaultContentTypes: Record<ArtifactEncoding, string> = {
  binary: "application/octet-stream",
  "utf-8": "text/plain; charset=utf-8",
  json: "application/json",
};

const utf8 = new TextEncoder();

/** Validates the input, serializes it to bytes and derives the content-addressed id. */
export function encodeArtifact(input: ArtifactInput): EncodedArtifact {
  if (typeof input !== "object" || input === null) {
    throw new InvalidArtifactError("expected an object { runId, stepPath, name, bytes | text | json }");
  }
  const runId = requireRunId(input.runId);
  const stepPath = requireText("stepPath", input.stepPath, { allowEmpty: true, maxLength: 1000 });
  const name = requireText("name", input.name, { allowEmpty: false, maxLength: 255 });
  if (name.includes("/") || name.includes("\\")) {
    throw new InvalidArtifactError(`name ${JSON.stringify(name)} must not contain / or \\`, { path: "name" });
  }
  const { encoding, bytes } = contentOf(input);
  const contentType =
    input.contentType === undefined
      ? defaultContentTypes[encoding]
      : requireText("contentType", input.contentType, { allowEmpty: false, maxLength: 255 });
  const fields = {
    runId,
    stepPath,
    name,
    contentType,
    encoding,
    sha256: sha256DigestOfBytes(bytes),
    size: bytes.byteLength,
  };
  return { manifest: { id: contentId("art", fields), ...fields }, bytes };
}

function contentOf(input: ArtifactInput): { encoding: ArtifactEncoding; bytes: Uint8Array } {
  const given = (["bytes", "text", "json"] as const).filter((key) => (input as Record<string, unknown>)[key] !== undefined);
  if (given.length !== 1) {
    throw new InvalidArtifactError(
      `give exactly one of bytes, text or json (got ${given.length === 0 ? "none" : given.join(" and ")})`,
    );
  }
  if (input.bytes !== undefined) {
    if (!(input.bytes instanceof Uint8Array)) {
      throw new InvalidArtifactError("bytes must be a Uint8Array (or Buffer)", { path: "bytes" });
    }
    return { encoding: "binary", bytes: Uint8Array.prototype.slice.call(input.bytes) };
  }
  if (input.text !== undefined) {
    if (typeof input.text !== "string") throw new InvalidArtifactError("text must be a string", { path: "text" });
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(input.text)) {
      throw new InvalidArtifactError("text contains a lone surrogate, which UTF-8 cannot encode", { path: "text" });
    }
    return { encoding: "utf-8", bytes: utf8.encode(input.text) };
  }
  try {
    return { encoding: "json", bytes: utf8.encode(canonicalJson(input.json)) };
  } catch (error) {
    if (error instanceof CanonicalJsonError) {
      throw new InvalidArtifactError(`json value at ${error.path} is not plain JSON (${error.message})`, {
        cause: error,
        path: error.path,
      });
    }
    throw error;
  }
}

function requireText(
  field: string,
  value: unknown,
  rule: { readonly allowEmpty: boolean; readonly maxLength: number },
): string {
  if (typeof value !== "string") throw new InvalidArtifactError(`${field} must be a string`, { path: field });
  if (!rule.allowEmpty && value.length === 0) throw new InvalidArtifactError(`${field} must not be empty`, { path: field });
  if (value.length > rule.maxLength) {
    throw new InvalidArtifactError(`${field} is longer than ${rule.maxLength} characters`, { path: field });
  }
  if (value.includes("\0")) throw new InvalidArtifactError(`${field} contains a NUL character`, { path: field });
  return value;
}

/**
 * Checks a stored manifest (parsed from disk) against the id it was looked up by, and the bytes
 * against the manifest. Any mismatch means the data was changed outside the world.
 */
export function verifyArtifact(artifactId: string, manifest: unknown, bytes: Uint8Array): ArtifactManifest {
  const checked = checkManifest(artifactId, manifest);
  if (bytes.byteLength !== checked.size) {
    throw new ArtifactIntegrityError(artifactId, `the stored bytes are ${bytes.byteLength} long, the manifest says ${checked.size}`);
  }
  const actual = sha256DigestOfBytes(bytes);
  if (actual !== checked.sha256) {
    throw new ArtifactIntegrityError(artifactId, `the stored bytes hash to ${actual}, the manifest says ${checked.sha256}`);
  }
  return checked;
}

function checkManifest(artifactId: string, manifest: unknown): ArtifactManifest {
  const candidate = manifest as Partial<ArtifactManifest> | null;
  if (
    typeof candidate !== "object" ||
    candidate === null ||
    typeof candidate.runId !== "string" ||
    typeof candidate.stepPath !== "string" ||
    typeof candidate.name !== "string" ||
    typeof candidate.contentType !== "string" ||
    (candidate.encoding !== "binary" && candidate.encoding !== "utf-8" && candidate.encoding !== "json") ||
    typeof candidate.sha256 !== "string" ||
    typeof candidate.size !== "number"
  ) {
    throw new ArtifactIntegrityError(artifactId, "its manifest is missing fields or has fields of the wrong type");
  }
  const fields = {
    runId: candidate.runId,
    stepPath: candidate.stepPath,
    name: candidate.name,
    contentType: candidate.contentType,
    encoding: candidate.encoding,
    sha256: candidate.sha256,
    size: candidate.size,
  };
  const expectedId = contentId("art", fields);
  if (candidate.id !== artifactId || expectedId !== artifactId) {
    throw new ArtifactIntegrityError(artifactId, "its manifest does not hash to its id");
  }
  return { id: artifactId, ...fields };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeArtifactText(manifest: ArtifactManifest, bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw new InvalidArtifactError(`artifact "${manifest.id}" (${manifest.encoding}) is not valid UTF-8 text`, { cause: error });
  }
}

export function decodeArtifactJson(manifest: ArtifactManifest, bytes: Uint8Array): JsonValue {
  if (manifest.encoding === "binary") {
    throw new InvalidArtifactError(`artifact "${manifest.id}" is binary; read it with readArtifact, not as JSON`);
  }
  const text = decodeArtifactText(manifest, bytes);
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new InvalidArtifactError(`artifact "${manifest.id}" (${manifest.encoding}) does not parse as JSON`, { cause: error });
  }
}
