import { contentId } from "@little-stack/canonical";

/**
 * Deterministic ids. The same run, session and position always give the same id, so a resumed
 * session finds its recorded calls by id and a re-executed in-flight call reuses its id as the
 * idempotency key.
 */
export function harnessSessionId(options: { readonly runId: string; readonly sessionKey: string }): string {
  return contentId("hses", { runId: options.runId, sessionKey: options.sessionKey });
}

/** The id of the model call at `turn` (1-based) of a session. */
export function modelCallId(options: { readonly runId: string; readonly sessionKey: string; readonly turn: number }): string {
  return contentId("mcall", { runId: options.runId, sessionKey: options.sessionKey, turn: options.turn });
}

/** The id of the `index`-th (0-based) tool call the model requested at `turn`. */
export function modelToolCallId(options: {
  readonly runId: string;
  readonly sessionKey: string;
  readonly turn: number;
  readonly index: number;
}): string {
  return contentId("tcall", { runId: options.runId, sessionKey: options.sessionKey, turn: options.turn, index: options.index });
}

/** The id of the `callIndex`-th (0-based) tool call made by code (`code.run`, `tool.call`) in a session. */
export function codeToolCallId(options: { readonly runId: string; readonly sessionKey: string; readonly callIndex: number }): string {
  return contentId("tcall", { runId: options.runId, sessionKey: options.sessionKey, caller: "code", callIndex: options.callIndex });
}
