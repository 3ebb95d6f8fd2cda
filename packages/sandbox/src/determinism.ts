import { createHash } from "node:crypto";

/** Four 32-bit words from sha256(seed): the state of the guest's Math.random generator. */
export function seedWords(determinismSeed: string): [number, number, number, number] {
  const digest = createHash("sha256").update(determinismSeed, "utf8").digest();
  return [digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12)];
}

/** The guest clock's first reading when the caller gives none: 2020-01-01T00:00:00.000Z. */
export const defaultClockStartMs = Date.UTC(2020, 0, 1);
