import { CanonicalJsonError } from "./canonical-json-error.js";
import { canonicalJson } from "./canonical-json.js";
import { rememberText, rememberedText } from "./remembered-texts.js";

/** A deep-frozen copy of a JSON value together with its canonical text. */
export type CanonicalSnapshot<T> = {
  readonly value: T;
  readonly json: string;
};

/**
 * Recently made shared snapshots by text (`share: true`): a fixed plan run again and again (one
 * registration per run) gets the same frozen copy back instead of a new one, so what hangs off
 * that copy (its remembered digest, per-step hashes cached by object identity) is computed once per
 * process. Bounded, oldest forgotten first; values that are not shared (one manifest per step)
 * never enter it, so they cannot push a plan out.
 */
const recentByText = new Map<string, CanonicalSnapshot<unknown>>();
const recentLimit = 64;

export type CanonicalSnapshotOptions = {
  /**
   * Hand out the same snapshot for the same canonical text (key order aside) while it is one of
   * the last 64 shared: for documents registered again and again. Default false.
   */
  readonly share?: boolean;
};

/**
 * Canonicalizes `value` once (throws `CanonicalJsonError` as `canonicalJson` does) and returns a
 * deep-frozen copy of it whose text `canonicalJson` and `sha256Digest` then reuse, wherever the
 * copy appears — alone or inside a larger value. The copy keeps the value's key order (a schema's
 * property order matters to a model). The caller's value is left as it was. A value that is itself
 * a snapshot's copy returns that snapshot.
 */
export function canonicalSnapshot<T>(value: T, options?: CanonicalSnapshotOptions): CanonicalSnapshot<T> {
  const own = canonicalSnapshotOf(value);
  if (own !== undefined) return own as CanonicalSnapshot<T>;
  const json = canonicalJson(value);
  const share = options?.share === true;
  const known = share ? recentByText.get(json) : undefined;
  if (known !== undefined) return known as CanonicalSnapshot<T>;
  const { copy, height } = frozenCopy(value, { root: true });
  const snapshot: CanonicalSnapshot<T> = Object.freeze({ value: copy as T, json });
  if (typeof copy === "object" && copy !== null) {
    // The text goes onto the copy before the copy is frozen (see remembered-texts.ts).
    rememberText(copy, { json, height, snapshot });
    Object.freeze(copy);
  }
  if (share) {
    if (recentByText.size >= recentLimit) recentByText.delete(recentByText.keys().next().value as string);
    recentByText.set(json, snapshot as CanonicalSnapshot<unknown>);
  }
  return snapshot;
}

/**
 * The snapshot's copy of `value`, or `value` itself when it is not plain JSON — for documents that
 * are checked next, so the checks (not a thrown CanonicalJsonError) name what is wrong.
 */
export function snapshotIfJson<T>(value: T, options?: CanonicalSnapshotOptions): T {
  try {
    return canonicalSnapshot(value, options).value;
  } catch (error) {
    if (error instanceof CanonicalJsonError) return value;
    throw error;
  }
}

/** The snapshot `value` is the copy of, if it is one (for callers that can then skip a walk). */
export function canonicalSnapshotOf(value: unknown): CanonicalSnapshot<unknown> | undefined {
  return typeof value === "object" && value !== null ? (rememberedText(value)?.snapshot as CanonicalSnapshot<unknown> | undefined) : undefined;
}

/**
 * Copies and freezes in one walk (all but the root, which the caller freezes once it has attached
 * the text). The value was just canonicalized, so it is plain JSON: arrays, plain objects and
 * primitives only. A `__proto__` key is defined as data, not set as a prototype.
 */
function frozenCopy(value: unknown, options?: { readonly root: true }): { readonly copy: unknown; readonly height: number } {
  const freeze = options?.root === true ? <V>(copy: V): V => copy : Object.freeze;
  if (typeof value !== "object" || value === null) return { copy: value, height: -1 };
  let height = 0;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const child = frozenCopy(value[index]);
      copy[index] = child.copy;
      height = Math.max(height, child.height + 1);
    }
    return { copy: freeze(copy), height };
  }
  const copy: Record<string, unknown> = {};
  // Keys in the value's own order: a JSON Schema's property order is what a model generates by.
  for (const key of Object.keys(value)) {
    const child = frozenCopy((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(copy, key, { value: child.copy, enumerable: true, writable: true, configurable: true });
    else copy[key] = child.copy;
    height = Math.max(height, child.height + 1);
  }
  return { copy: freeze(copy), height };
}
