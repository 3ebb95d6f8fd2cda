/**
 * The current time as an ISO-8601 string (`recordedAt`, `startedAt`), the same text
 * `new Date().toISOString()` gives. A step records several events within one millisecond, and
 * formatting a date costs ~0.6 µs (more than a small event's hash): the text is made once per
 * millisecond and reused.
 */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastText = new Date(now).toISOString();
  }
  return lastText;
}

let lastMs = Number.NaN;
let lastText = "";
