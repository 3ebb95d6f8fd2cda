import { createPrivateSlot, type CanonicalText } from "@little-stack/canonical";
import { eventIdFor } from "@little-stack/local-world";
import type { EventRecord } from "../events/runtime-event-types.js";

/** `canonicalPayload`, when sealed, is the payload's canonical text computed by whoever made the event. */
export type AnyEvent = { readonly type: string; readonly payload: unknown; readonly canonicalPayload?: CanonicalText };

/** Returns the object it is given, so that a subclass's private fields are added to that object. */
class Stamped {
  constructor(target: object) {
    return target;
  }
}

/**
 * A held event's canonical text and what is derived from it on first read (its id, its payload
 * copy), in ECMAScript private fields added to the plain envelope object: invisible to keys,
 * spreads, JSON and equality, and added at the cost of ordinary stores (a defineProperty per
 * slot cost ~0.3 µs, several held events per step).
 */
class HeldSlots extends Stamped {
  readonly #text: CanonicalText;
  #eventId: string | undefined = undefined;
  #parsed: { readonly value: unknown } | undefined = undefined;

  private constructor(envelope: object, text: CanonicalText) {
    super(envelope);
    this.#text = text;
  }

  static attach(envelope: object, text: CanonicalText): void {
    new HeldSlots(envelope, text);
  }

  // Static, taking the envelope: the envelope is a plain object, not an instance, so it has
  // the fields but not the methods.
  private static of(envelope: object): HeldSlots {
    if (!(#text in envelope)) throw new TypeError("not a held event envelope");
    return envelope as HeldSlots;
  }

  static eventIdOf(envelope: EventRecord): string {
    const slots = HeldSlots.of(envelope);
    return (slots.#eventId ??= eventIdFor({ runId: envelope.runId, sequence: envelope.sequence, type: envelope.type, payloadJson: slots.#text.json }));
  }

  static payloadCopyOf(envelope: object): unknown {
    const slots = HeldSlots.of(envelope);
    return (slots.#parsed ??= { value: JSON.parse(slots.#text.json) as unknown }).value;
  }
}

const heldEventId: PropertyDescriptor = {
  get(this: EventRecord): string {
    return HeldSlots.eventIdOf(this);
  },
  enumerable: true,
};
const heldPayloadCopy: PropertyDescriptor = {
  get(this: object): unknown {
    return HeldSlots.payloadCopyOf(this);
  },
  enumerable: true,
};

/**
 * A held event as the world will store it. Its id and its payload copy (parsed from the canonical
 * text, as the world's envelopes are) are computed on first read: most held events are only ever
 * read by type before they are committed, and the committed envelope comes from the world.
 * A plain object whose `eventId` and `payload` are enumerable accessors added with defineProperty
 * (shared getters, state in private slots): an object literal with getters is a dictionary-mode
 * object with its own closure, and a step holds several of these until its commit.
 */
export function heldEnvelope(options: { readonly runId: string; readonly sequence: number; readonly type: string; readonly recordedAt: string; readonly text: CanonicalText }): EventRecord {
  const envelope = { runId: options.runId, sequence: options.sequence, type: options.type, recordedAt: options.recordedAt };
  HeldSlots.attach(envelope, options.text);
  Object.defineProperty(envelope, "eventId", heldEventId);
  Object.defineProperty(envelope, "payload", heldPayloadCopy);
  return envelope as unknown as EventRecord;
}

/**
 * A held event handed to the world with the text it was identified by: `{ type, payload,
 * canonicalPayload }` whose `payload` is an enumerable accessor (a spread still copies it), so a
 * world that takes the sealed text never parses it back. One shared getter added with
 * defineProperty: an object literal with a getter is a dictionary-mode object with its own closure.
 */
const heldEventOf = createPrivateSlot<EventRecord>();

const heldPayload = heldEventOf.accessor((event) => event.payload);

export function heldInput(event: EventRecord, text: CanonicalText): AnyEvent {
  const input = { type: event.type, canonicalPayload: text };
  heldEventOf.attach(input, event);
  Object.defineProperty(input, "payload", heldPayload);
  return input as unknown as AnyEvent;
}
