import { readFileSync } from "node:fs";

/**
 * The start time of a process as the kernel records it (`/proc/<pid>/stat` field 22, clock ticks
 * since boot), or `undefined` where `/proc` is unavailable. Recorded in lock owners so that a pid
 * reused by an unrelated process is not mistaken for the holder.
 */
export function processStartTime(pid: number): string | undefined {
  const stat = readProcStat(pid);
  return stat?.startTime;
}

/** True while `pid` runs (and, when `startTime` is known, is still the same process). */
export function isProcessAlive(pid: number, startTime: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is alive.
    return (error as { code?: unknown }).code === "EPERM";
  }
  const stat = readProcStat(pid);
  if (stat === undefined) return true;
  // A killed child that its parent has not reaped yet is a zombie: it holds nothing any more.
  if (stat.state === "Z" || stat.state === "X") return false;
  return startTime === undefined || stat.startTime === startTime;
}

function readProcStat(pid: number): { state: string; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  if (state === undefined || startTime === undefined) return undefined;
  return { state, startTime };
}
