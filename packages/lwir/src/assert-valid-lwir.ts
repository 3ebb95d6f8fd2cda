import { LwirValidationError } from "./lwir-validation-error.js";
import type { LwirDocument } from "./types.js";
import { validateLwir } from "./validate-lwir.js";

/** Throws `LwirValidationError` (with every finding) unless `doc` is a valid LWIR document. */
export function assertValidLwir(doc: unknown): asserts doc is LwirDocument {
  const result = validateLwir(doc);
  if (!result.valid) throw new LwirValidationError(result.findings);
}
