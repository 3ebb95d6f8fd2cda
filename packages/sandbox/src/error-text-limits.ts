/**
 * How much of an error's text the sandbox hands on. Guest code can throw a message of tens of
 * megabytes (`"x".repeat(50 << 20)`); every copy of it — in the worker, across postMessage, in the
 * error, in the events and on the terminal — would cost the host that much again. A fixer and a
 * person need the start of it; the rest is cut with a marker saying how long it was.
 */
export const errorTextLimits = {
  /** An error's `name`. */
  name: 256,
  /** An error's `message` (and a tool failure's text as the guest sees it). */
  message: 16 * 1024,
  /** The guest stack. */
  stack: 16 * 1024,
} as const;

/**
 * Room left for a marker: a text already cut (by the guest-side prelude, then read by the worker,
 * then bounded by the host) is not cut again, so the length it names stays the original one.
 */
export const truncationMarkerRoom = 128;

/** `text` cut to `max` characters, with a marker naming the full length (left as is within the marker's room). */
export function capErrorText(text: string, max: number): string {
  if (text.length <= max + truncationMarkerRoom) return text;
  return `${text.slice(0, max)}… [truncated: ${text.length} characters in all]`;
}
