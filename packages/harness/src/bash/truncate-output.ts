/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes (never inside a character) and says how much was
 * dropped, so a model sees that output is missing rather than a silently short answer.
 */
export function truncateOutput(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString("utf8")}\n[output truncated: ${bytes.length - end} more bytes]\n`;
}
