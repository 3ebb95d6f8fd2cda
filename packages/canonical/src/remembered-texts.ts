/**
 * The canonical text of deep-frozen copies made by `canonicalSnapshot`, attached to the copy. Such a
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

/** Returns the object it is given, so that a subclass's private field is added to that object. */
class Stamped {
  constructor(target: object) {
    return target;
  }
}

/**
 * The text is held in an ECMAScript private field added to the copy itself, not in a WeakMap
 * keyed by it. The text holds the snapshot, which holds the copy: in a WeakMap that is a value
 * reaching its own key, which V8's young-generation collector keeps alive (it treats ephemeron
 * values as strong), so every per-step snapshot survived into the old generation and lingered
 * there until a full collection. A private field is an ordinary edge from the copy: the cycle dies
 * with the copy. It is as unforgeable as the WeakMap was (only this class can add or read it) and
 * invisible (no key, no symbol).
 */
class RememberedSlot extends Stamped {
  readonly #text: RememberedText;

  private constructor(copy: object, text: RememberedText) {
    super(copy);
    this.#text = text;
  }

  /** Attaches `text` to `copy`; done once, before the copy is frozen. */
  static attach(copy: object, text: RememberedText): void {
    new RememberedSlot(copy, text);
  }

  static textOf(value: object): RememberedText | undefined {
    return #text in value ? (value as RememberedSlot).#text : undefined;
  }
}

/** Remembers `text` for `copy`, which must not be frozen yet (canonicalSnapshot freezes it next). */
export function rememberText(copy: object, text: RememberedText): void {
  RememberedSlot.attach(copy, text);
}

/** The remembered text of `value`, for frozen objects only (the cheap test first). */
export function rememberedText(value: object): RememberedText | undefined {
  return Object.isFrozen(value) ? RememberedSlot.textOf(value) : undefined;
}
