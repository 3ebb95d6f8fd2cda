import { randomBytes } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SharedDataDirError } from "./postgres-errors.js";

/** What `<dataDir>/postgres-world.json` records: which database's shared folder this is. */
type Marker = { readonly worldId: string; readonly dataDirId: string };

export const markerFileName = "postgres-world.json";

/**
 * Checks, before this world executes anything, that its data dir is the one folder every worker
 * of the database shares (memory stores, run scratch, skills cache live there and a run may move
 * to another worker). The first worker to execute names the folder: it creates the marker file
 * exclusively and records its id in the database; every later worker must find a marker with that
 * id in its own data dir — a worker whose data dir is a local folder on another machine has none,
 * and is refused before it claims a run.
 */
export async function checkSharedDataDir(options: {
  readonly dataDir: string;
  readonly worldId: string;
  readonly recordedDataDirId: () => Promise<string | undefined>;
  readonly recordDataDirId: (candidate: string) => Promise<string>;
}): Promise<void> {
  const { dataDir, worldId } = options;
  const markerPath = join(dataDir, markerFileName);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const recorded = await options.recordedDataDirId();
    const marker = await readMarker(markerPath, dataDir);
    if (marker !== undefined && marker.worldId !== worldId) {
      throw new SharedDataDirError(dataDir, `belongs to another database (its ${markerFileName} names world ${marker.worldId}, this database is ${worldId})`);
    }
    if (recorded !== undefined) {
      if (marker?.dataDirId === recorded) return;
      throw new SharedDataDirError(
        dataDir,
        marker === undefined
          ? `is not the folder this database's workers share: it has no ${markerFileName} (the shared one has id ${recorded})`
          : `is not the folder this database's workers share (its ${markerFileName} has id ${marker.dataDirId}, the shared one ${recorded})`,
      );
    }
    let candidate = marker?.dataDirId;
    let created = false;
    if (candidate === undefined) {
      candidate = randomBytes(8).toString("hex");
      try {
        await mkdir(dataDir, { recursive: true });
        await writeFile(markerPath, `${JSON.stringify({ worldId, dataDirId: candidate } satisfies Marker, null, 2)}\n`, { flag: "wx" });
        created = true;
      } catch (error) {
        if ((error as { code?: unknown }).code === "EEXIST") continue; // another worker on this folder was first
        throw new SharedDataDirError(dataDir, `cannot be written (${(error as Error).message})`);
      }
    }
    const winner = await options.recordDataDirId(candidate);
    if (winner === candidate) return;
    if (created) await unlink(markerPath).catch(() => undefined);
  }
  throw new SharedDataDirError(dataDir, "could not be matched with the database's shared folder (the marker kept changing)");
}

async function readMarker(path: string, dataDir: string): Promise<Marker | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw new SharedDataDirError(dataDir, `has an unreadable ${markerFileName} (${(error as Error).message})`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<Marker>;
    if (typeof parsed.worldId === "string" && typeof parsed.dataDirId === "string") return { worldId: parsed.worldId, dataDirId: parsed.dataDirId };
  } catch {
    // fall through
  }
  throw new SharedDataDirError(dataDir, `has a damaged ${markerFileName}; restore it from another worker's shared folder`);
}
