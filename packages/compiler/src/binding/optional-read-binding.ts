import { unguardedOptionalReads } from "@little-stack/lwir";
import type { BindingFinding } from "./binding-target.js";

/**
 * `binding.unguarded_optional_read`: a plan compiled for a definition may not read through an
 * optional field, an index past `minItems` or a nullable value outside `coalesce(…)` — such a
 * read resolves only when the data happens to carry the value, and a step whose input cannot be
 * resolved fails the run. Plain `validateLwir` accepts it (LWIR from elsewhere stays valid); a
 * plan the compiler locks must not fail on data its schemas allow.
 */
export function optionalReadFindings(lwir: unknown): BindingFinding[] {
  return unguardedOptionalReads(lwir).map((read) => ({ severity: "error", code: "binding.unguarded_optional_read", path: read.path, message: read.message }));
}
