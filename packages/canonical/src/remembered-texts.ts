/**
 * The canonical text of deep-frozen copies made by `canonicalSnapshot`, keyed by the copy. Such a
 * copy can never change, so `canonicalJson` and `sha256Digest` reuse its text (and digest) instead
 * of walking it again — a long LWIR document is registered, hashed, verified and stored in several
 * events per run. Only this package writes here: a text cannot be attached to an object from
 * outside, so what `canonicalJson` splices in is always its own output for that object.
 */
export type RememberedText = {
  readonly json: string;
  /** Levels of objects/arrays below the copy's root (0: nothing nested), for the depth limit. */
  readonly height: number;
  digest?: string;
  /** The snapshot the copy belongs to (canonicalSnapshot of the copy returns it). */
  readonly snapshot: { readonly value: unknown; readonly json: string };
};

const remembered = new WeakMap<object, RememberedText>();

export function rememberText(copy: object, text: RememberedText): void {
  remembered.set(copy, text);
}

/** The remembered text of `value`, for frozen objects only (the cheap test first). */
export function rememberedText(value: object): RememberedText | undefined {
  return Object.isFrozen(value) ? remembered.get(value) : undefined;
}
