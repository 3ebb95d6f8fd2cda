import { canonicalJson } from "./canonical-json.js";

/**
 * A value's canonical JSON, sealed. Only `CanonicalText.of()` makes one (the constructor is
 * private and the brand is an ECMAScript private field, which no other code can forge), so a
 * consumer that receives one may use `json` as is, without serializing or checking the value
 * again. The runtime uses it to hand the world event payloads it has already canonicalized.
 */
export class CanonicalText {
  readonly #json: string;

  private constructor(json: string) {
    this.#json = json;
  }

  /** Canonicalizes `value` once; throws `CanonicalJsonError` as `canonicalJson` does. */
  static of(value: unknown): CanonicalText {
    return new CanonicalText(canonicalJson(value));
  }

  /** True only for an object made by `CanonicalText.of` (in this copy of the package). */
  static isSealed(candidate: unknown): candidate is CanonicalText {
    return typeof candidate === "object" && candidate !== null && #json in candidate;
  }

  /** The RFC 8785 text. */
  get json(): string {
    return this.#json;
  }
}
