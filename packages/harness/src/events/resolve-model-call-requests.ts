import { ModelPromptPrefixError, PromptHashMismatchError } from "../errors/harness-event-errors.js";
import type { ModelPromptPrefix, ModelRequest, RecordedMessage } from "./harness-event-types.js";
import { hashModelRequest } from "./hash-model-request.js";

type AnyEvent = { readonly type: string; readonly payload: unknown };

/**
 * The events with every `harness.model.called` carrying its whole request: a call recorded with a
 * `promptPrefix` gets the prefix messages of the call it names put back in front of its own, and
 * the rebuilt request is checked against the call's `promptHash` (the hash of what the model was
 * sent), so what a reader shows is byte for byte the prompt of the live call. Other events, and
 * calls recorded whole (every log before prompt prefixes, and first turns), are returned as they
 * are. The prefix of a call must be recorded earlier in `events` (pass a run's events in order,
 * or at least every call of the sessions you read).
 *
 * Throws `ModelPromptPrefixError` for a prefix naming a call that is not earlier in `events` or
 * that has fewer messages, and `PromptHashMismatchError` when the rebuilt request is not the one
 * that was hashed.
 */
export function resolveModelCallRequests<E extends AnyEvent>(events: readonly E[]): E[] {
  const requests = new Map<string, ModelRequest>();
  return events.map((event) => {
    if (event.type !== "harness.model.called") return event;
    const payload = event.payload as { readonly callId?: string; readonly promptHash: string; readonly promptPrefix?: ModelPromptPrefix; readonly request: ModelRequest };
    const prefix = payload.promptPrefix;
    if (prefix === undefined) {
      if (payload.callId !== undefined) requests.set(payload.callId, payload.request);
      return event;
    }
    const callId = payload.callId ?? "(without callId)";
    const earlier = requests.get(prefix.callId);
    if (earlier === undefined) throw new ModelPromptPrefixError({ callId, prefixCallId: prefix.callId, problem: "is not recorded before it" });
    if (earlier.messages.length < prefix.messageCount) {
      throw new ModelPromptPrefixError({ callId, prefixCallId: prefix.callId, problem: `has ${earlier.messages.length} messages, not the ${prefix.messageCount} the prefix takes` });
    }
    const messages: RecordedMessage[] = earlier.messages.slice(0, prefix.messageCount).concat(payload.request.messages);
    const request: ModelRequest = { ...payload.request, messages };
    const computed = hashModelRequest(request);
    if (computed !== payload.promptHash) throw new PromptHashMismatchError({ eventType: event.type, recorded: payload.promptHash, computed });
    if (payload.callId !== undefined) requests.set(payload.callId, request);
    const { promptPrefix: _prefix, ...whole } = payload;
    // A copy, without the canonical text an envelope may carry (it is the stored, shorter payload's).
    const { canonicalPayload: _text, ...envelope } = event as E & { readonly canonicalPayload?: unknown };
    return { ...envelope, payload: { ...whole, request } } as unknown as E;
  });
}
