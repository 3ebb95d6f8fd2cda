import { writeSync } from "node:fs";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes one line to stdout before returning. Node makes a stdout pipe non-blocking, so a busy
 * parent can make `writeSync` fail with EAGAIN; wait a millisecond and try again. A line shorter
 * than PIPE_BUF is written whole or not at all.
 */
export function reportLine(line: string): void {
  const data = Buffer.from(`${line}\n`);
  let offset = 0;
  while (offset < data.byteLength) {
    try {
      offset += writeSync(1, data, offset);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
