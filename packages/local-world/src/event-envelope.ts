import { CanonicalJsonError, CanonicalText, canonicalJson, sha256Hex } from "@little-stack/canonical";
import { InvalidEventError } from "./event-log-errors.js";
import type { EventEnvelope, EventInput } from "./world.js";
import type { JsonValue } from "./json-value.js";

/** An event whose payload has been checked and serialized once, ready to store. */
export type PreparedEvent = {
  readonly type: string;
  readonly payloadJson: string;
};

const eventTypePattern = /^[A-Za-z][A-Za-z0-9_.:-]{0,199}$/;

/**
 * Validates a whole batch before anything is stored, so a bad event anywhere leaves the log
 * untouched. Each payload is canonicalized exactly once; the text is reused for the id and
 * for storage.
 */
export function prepareEvents(runId: string, events: EventInput | readonly EventInput[]): PreparedEvent[] {
  const list: readonly unknown[] = Array.isArray(events) ? events : [events];
  const prepared: PreparedEvent[] = new Array(list.length);
  for (let index = 0; index < list.length; index += 1) {
    prepared[index] = prepareEvent(runId, list[index], index);
  }
  return prepared;
}

function prepareEvent(runId: string, event: unknown, index: number): PreparedEvent {
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new InvalidEventError({ runId, index, problem: "expected an object { type, payload }" });
  }
  // The payload is read only when there is no sealed text: a caller may hand it as a lazy getter.
  const { type, canonicalPayload } = event as { type?: unknown; canonicalPayload?: unknown };
  if (typeof type !== "string" || !eventTypePattern.test(type)) {
    throw new InvalidEventError({
      runId,
      index,
      problem: `type ${JSON.stringify(type) ?? String(type)} must be 1..200 characters of A-Z a-z 0-9 _ . : - starting with a letter`,
    });
  }
  // Sealed text is canonicalJson's own output for this payload (see EventInput): no second pass.
  if (CanonicalText.isSealed(canonicalPayload)) return { type, payloadJson: canonicalPayload.json };
  let payloadJson: string;
  try {
    payloadJson = canonicalJson((event as { payload?: unknown }).payload);
  } catch (error) {
    if (error instanceof CanonicalJsonError) {
      throw new InvalidEventError({
        runId,
        index,
        path: error.path,
        problem: `the payload of a ${type} event is not plain JSON (${error.message})`,
        cause: error,
      });
    }
    throw error;
  }
  return { type, payloadJson };
}

/**
 * `evt_` + 16 hex of sha256 over the canonical JSON of `{ runId, sequence, type, payload }`.
 * Built by hand from the already-canonical payload text: keys in JCS order (payload < runId <
 * sequence < type) and strings that need no escaping beyond JSON.stringify (run ids and types
 * are restricted to ASCII), so the result equals `contentId("evt", {...})` without a second
 * canonicalization of the payload.
 */
export function eventIdFor(options: {
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly payloadJson: string;
}): string {
  const text = `{"payload":${options.payloadJson},"runId":${JSON.stringify(options.runId)},"sequence":${options.sequence},"type":${JSON.stringify(options.type)}}`;
  return `evt_${sha256Hex(text).slice(0, 16)}`;
}

/**
 * The envelope as returned to callers. Its payload is a fresh copy parsed from the stored text on
 * first read (and kept), so an appender that only looks at sequences and ids never parses.
 *
 * Built as a plain object with its `payload` accessor added by defineProperty (one shared getter)
 * and the text in private slots (`EnvelopeSlots`): an object literal with a getter is a
 * dictionary-mode object in V8 with its own closure, ~0.65 KB per envelope against ~0.18 KB this
 * way, and a run can hold many envelopes. It looks the same to callers: own enumerable
 * `eventId, runId, sequence, type, recordedAt, payload`, Object.prototype, spreads and
 * JSON.stringify as before.
 */
export function envelopeOf(options: {
  readonly eventId: string;
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly payloadJson: string;
  /** The error to throw when the stored text does not parse (default: the SyntaxError itself). */
  readonly onUnparsable?: (error: unknown) => Error;
}): EventEnvelope {
  const envelope = { eventId: options.eventId, runId: options.runId, sequence: options.sequence, type: options.type, recordedAt: options.recordedAt };
  Object.defineProperty(envelope, "payload", payloadAccessor);
  EnvelopeSlots.attach(envelope, options.payloadJson, options.onUnparsable);
  return envelope as EventEnvelope;
}

/** Returns the object it is given, so that a subclass's private fields are added to that object. */
class Stamped {
  constructor(target: object) {
    return target;
  }
}

/**
 * The stored text of an envelope and its parse, in ECMAScript private fields added to the plain
 * envelope object: invisible to keys, spreads, JSON and equality like the symbol slots they
 * replace, and added at the cost of ordinary stores, where each defineProperty of a slot cost
 * ~0.3 µs (three per envelope, several envelopes per step).
 */
class EnvelopeSlots extends Stamped {
  #payloadJson: string;
  #parsed: JsonValue | undefined = undefined;
  readonly #onUnparsable: ((error: unknown) => Error) | undefined;

  private constructor(envelope: object, payloadJson: string, onUnparsable: ((error: unknown) => Error) | undefined) {
    super(envelope);
    this.#payloadJson = payloadJson;
    this.#onUnparsable = onUnparsable;
  }

  static attach(envelope: object, payloadJson: string, onUnparsable: ((error: unknown) => Error) | undefined): void {
    new EnvelopeSlots(envelope, payloadJson, onUnparsable);
  }

  /** The parsed payload of `envelope`, parsed on first read and kept. */
  static payloadOf(envelope: object): JsonValue {
    if (!(#payloadJson in envelope)) throw new TypeError("not an event envelope made by envelopeOf");
    const slots = envelope as EnvelopeSlots;
    let payload = slots.#parsed;
    if (payload === undefined) {
      try {
        payload = JSON.parse(slots.#payloadJson) as JsonValue;
      } catch (error) {
        throw slots.#onUnparsable === undefined ? error : slots.#onUnparsable(error);
      }
      slots.#parsed = payload;
    }
    return payload;
  }
}

const payloadAccessor: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object): JsonValue {
    return EnvelopeSlots.payloadOf(this);
  },
};
