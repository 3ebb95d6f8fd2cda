/** Bytes up to the last one that is not zero: the written part of a WAL the world zero-filled ahead (wal-preallocation.ts). */
export function writtenLength(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  return end;
}
