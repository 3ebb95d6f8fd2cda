import { canonicalJson, canonicalSnapshotOf, formatJsonPath } from "@little-stack/canonical";
import { formatExpressionPath } from "./expressions/expression-vocabulary.js";
import { isRecord } from "./rules/json-shape.js";
import { schemaReads } from "./rules/path-rules.js";
import { LwirRuleContext } from "./rules/rule-context.js";
import { firstOptionalRead } from "./schema/optional-path.js";

/** A read that fails whenever the data leaves something out: where, and what to write instead. */
export type OptionalRead = { readonly path: string; readonly source: string; readonly message: string };

/**
 * The templates of a document that read through something a valid value need not have — a
 * declared but not required property, an array index past `minItems`, a value that may be `null` —
 * outside `coalesce(…)`. Each resolves at run time only when the data happens to have it; absent,
 * the step fails. Not a `validateLwir` rule (LWIR that other implementations accept keeps
 * validating); the compiler's binding pass holds plans it compiles to it
 * (`binding.unguarded_optional_read`). Expects a document `validateLwir` accepts; never throws.
 */
export function unguardedOptionalReads(document: unknown): readonly OptionalRead[] {
  // A canonicalSnapshot copy that validateLwir accepted had its reads found in the same pass.
  const snapshot = canonicalSnapshotOf(document);
  const kept = snapshot === undefined ? undefined : keptReads.get(snapshot);
  if (kept !== undefined) return [...kept];
  let parsed: unknown;
  try {
    parsed = JSON.parse(canonicalJson(document));
  } catch {
    return [];
  }
  if (!isRecord(parsed)) return [];
  return optionalReadsIn(new LwirRuleContext(parsed));
}

/**
 * Called by validateLwir with the rule context it has just checked a snapshot with and found
 * valid: the compiler asks for the same plan's optional reads next, and on a long plan a second
 * parse and rule context cost as much memory as the validation did (~20 MB for 10,000 steps).
 */
export function keepOptionalReads(snapshot: object, context: LwirRuleContext): void {
  keptReads.set(snapshot, optionalReadsIn(context));
}

const keptReads = new WeakMap<object, readonly OptionalRead[]>();

function optionalReadsIn(context: LwirRuleContext): readonly OptionalRead[] {
  const reads: OptionalRead[] = [];
  for (const read of schemaReads(context)) {
    if (read.guarded) continue;
    const optional = firstOptionalRead(read.schema, read.segments);
    if (optional === undefined) continue;
    const prefix = formatExpressionPath(read.root, [...read.rootSegments, ...read.segments.slice(0, optional.at)]);
    reads.push({
      path: formatJsonPath(read.path),
      source: read.source,
      message: `\`{{ ${read.source} }}\` fails at run time whenever the value is absent: ${prefix} ${optional.why}. Wrap it: \`{{ coalesce(${read.source}, 'none') }}\`, or make it required in its schema.`,
    });
  }
  return reads;
}
