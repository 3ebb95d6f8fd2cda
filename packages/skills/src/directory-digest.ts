import type { Dirent } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { sha256Digest, sha256DigestOfBytes, type Sha256Digest } from "@little-stack/canonical";

/**
 * Digest of a directory's content: sha256 of the canonical JSON of its sorted file list, each
 * entry `[relative path, digest of the bytes]` (symlinks: `[path, "symlink:" + target]`). `.git`
 * is skipped. Independent of where the directory lives and of timestamps.
 */
const concurrentReads = 8;

export async function directoryDigest(root: string): Promise<Sha256Digest> {
  const entries: [string, string][] = [];
  async function visit(relative: string, child: Dirent): Promise<void> {
    const path = relative === "" ? child.name : `${relative}/${child.name}`;
    if (child.isDirectory()) await walk(path);
    else if (child.isSymbolicLink()) entries.push([path, `symlink:${await readlink(join(root, path))}`]);
    else if (child.isFile()) entries.push([path, sha256DigestOfBytes(await readFile(join(root, path)))]);
  }
  async function walk(relative: string): Promise<void> {
    const children = (await readdir(join(root, relative), { withFileTypes: true })).filter((child) => child.name !== ".git");
    // A few reads in flight at a time: one at a time, each waits a round trip to the file system
    // thread pool; all at once, a large skill could run out of file descriptors.
    for (let start = 0; start < children.length; start += concurrentReads) {
      await Promise.all(children.slice(start, start + concurrentReads).map((child) => visit(relative, child)));
    }
  }
  await walk("");
  entries.sort((left, right) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0));
  return sha256Digest(entries);
}
