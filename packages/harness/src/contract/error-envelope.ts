import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * A failure written into an event: plain JSON, never a live Error (stack traces stay out of the
 * log so that two runs of the same failure record the same bytes).
 */
export type ErrorEnvelope = {
  readonly name: string;
  readonly message: string;
  /** The stable `code` of a LittleWorkflowError, when the failure was one. */
  readonly code?: string;
  readonly causeCode?: string;
  readonly retriable?: boolean;
};

/**
 * Longest error name and message written into an event. A tool or guest can throw a message of
 * megabytes; the log, every replay and every terminal would carry all of it. The start says what
 * went wrong; the rest is cut with a marker naming the full length.
 */
export const errorTextLimits = { name: 256, message: 16 * 1024 } as const;

/** `text` cut to `max` characters, with a marker naming the full length. */
export function boundErrorText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [truncated: ${text.length} characters in all]`;
}

/** Turns anything thrown into an ErrorEnvelope (name and message bounded by `errorTextLimits`). */
export function toErrorEnvelope(error: unknown): ErrorEnvelope {
  const name = (value: string): string => boundErrorText(value, errorTextLimits.name);
  const message = (value: string): string => boundErrorText(value, errorTextLimits.message);
  if (LittleWorkflowError.is(error)) {
    return { name: name(error.name), message: message(error.message), code: error.code };
  }
  if (error instanceof Error) return { name: name(String(error.name)), message: message(String(error.message)) };
  return { name: "Error", message: message(typeof error === "string" ? error : safeString(error)) };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
