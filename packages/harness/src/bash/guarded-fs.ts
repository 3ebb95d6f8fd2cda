import type {
  BufferEncoding,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import type { PathAccess, PathPolicy, PathRefusal, PolicyMount } from "@little-stack/memory";

type ReadFileOptions = Parameters<IFileSystem["readFile"]>[1];
type WriteFileOptions = Parameters<IFileSystem["writeFile"]>[2];
type DirentEntries = Awaited<ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>>;
type ByteString = Awaited<ReturnType<NonNullable<IFileSystem["readFileBytes"]>>>;

const errnoByRefusal: Record<PathRefusal["code"], string> = {
  empty_path: "EINVAL",
  nul_byte: "EINVAL",
  backslash: "EINVAL",
  invalid_cwd: "EINVAL",
  above_root: "ENOENT",
  case_mismatch: "ENOENT",
  outside_mounts: "EROFS",
  read_only: "EROFS",
  mount_point: "EBUSY",
  symlink_escape: "EACCES",
};

/** An fs error a just-bash command prints as `<cmd>: <path>: <message>` and maps to an exit code. */
export class GuardedFsError extends Error {
  readonly code: string;
  readonly refusal: PathRefusal;

  constructor(refusal: PathRefusal, access: PathAccess) {
    const errno = refusal.code === "outside_mounts" && access === "read" ? "ENOENT" : errnoByRefusal[refusal.code];
    super(`${errno}: ${refusal.message}`);
    this.name = "GuardedFsError";
    this.code = errno;
    this.refusal = refusal;
  }
}

const nullDevice = "/dev/null";

function joinVirtual(mountPath: string, relative: string): string {
  if (mountPath === "/") return relative.startsWith("/") ? relative : `/${relative}`;
  if (relative === "/" || relative === "") return mountPath;
  return `${mountPath}${relative.startsWith("/") ? "" : "/"}${relative}`;
}

/**
 * Wraps the file system of one mount (or the base, at `/`) and runs the path policy of
 * `@little-stack/memory` before every operation: the full virtual path (mount path + the path
 * just-bash routes here) must resolve for the operation's access, with symlinks checked on the
 * host. The wrapped file system (ReadWriteFs / read-only OverlayFs / InMemoryFs) then enforces its
 * own root, so a path needs to pass both.
 */
export class GuardedFs implements IFileSystem {
  readonly #inner: IFileSystem;
  readonly #mountPath: string;
  readonly #policy: PathPolicy<PolicyMount>;
  readonly #onRefusedWrite: ((error: GuardedFsError) => void) | undefined;

  constructor(options: {
    readonly inner: IFileSystem;
    readonly mountPath: string;
    readonly policy: PathPolicy<PolicyMount>;
    /**
     * Told of every write the policy refuses (and every path through an escaping symlink). Some
     * commands swallow the error (`rm -f` ignores every failure, not only a missing file), so the
     * shell reports refusals itself.
     */
    readonly onRefusedWrite?: (error: GuardedFsError) => void;
  }) {
    this.#inner = options.inner;
    this.#mountPath = options.mountPath;
    this.#policy = options.policy;
    this.#onRefusedWrite = options.onRefusedWrite;
  }

  /** `/dev/null` lives in the base: scripts redirect into it constantly (`2>/dev/null`). */
  #isNullDevice(path: string): boolean {
    return this.#mountPath === "/" && (path === nullDevice || path === "/dev");
  }

  #check(path: string, access: PathAccess): void {
    if (this.#isNullDevice(path) && access === "read") return;
    const virtualPath = joinVirtual(this.#mountPath, path);
    const resolution = this.#policy.resolve(virtualPath, { cwd: "/", access });
    if (!resolution.ok) throw this.#refused(new GuardedFsError(resolution, access), access);
    // The base holds no files; only mount ancestors (`/mnt`) may be read from it.
    if (this.#mountPath === "/" && access === "write") {
      throw this.#refused(new GuardedFsError({ ok: false, code: "outside_mounts", message: `${virtualPath} is outside every writable mount.` }, access), access);
    }
  }

  #refused(error: GuardedFsError, access: PathAccess): GuardedFsError {
    // A path through a symlink that leaves its mount is a refusal even when only read (`rm -rf`
    // stats before it removes); other refused reads look like missing files, as they should.
    if (access === "write" || error.refusal.code === "symlink_escape") this.#onRefusedWrite?.(error);
    return error;
  }

  async readFile(path: string, options?: ReadFileOptions | BufferEncoding): Promise<string> {
    this.#check(path, "read");
    return this.#inner.readFile(path, options);
  }

  async readFileBytes(path: string): Promise<ByteString> {
    this.#check(path, "read");
    if (this.#inner.readFileBytes === undefined) throw new Error("readFileBytes is not supported by this mount");
    return this.#inner.readFileBytes(path);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    this.#check(path, "read");
    return this.#inner.readFileBuffer(path);
  }

  async writeFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    if (this.#isNullDevice(path) && path === nullDevice) return;
    this.#check(path, "write");
    return this.#inner.writeFile(path, content, options);
  }

  async appendFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    if (this.#isNullDevice(path) && path === nullDevice) return;
    this.#check(path, "write");
    return this.#inner.appendFile(path, content, options);
  }

  async exists(path: string): Promise<boolean> {
    if (this.#isNullDevice(path)) return this.#inner.exists(path);
    const resolution = this.#policy.resolve(joinVirtual(this.#mountPath, path), { cwd: "/", access: "read" });
    if (!resolution.ok) return false;
    return this.#inner.exists(path);
  }

  async stat(path: string): Promise<FsStat> {
    this.#check(path, "read");
    return this.#inner.stat(path);
  }

  async lstat(path: string): Promise<FsStat> {
    this.#check(path, "read");
    return this.#inner.lstat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    // `mkdir -p` of a directory that already exists (a mount point included) changes nothing.
    if (options?.recursive === true && (await this.exists(path)) && (await this.#inner.stat(path)).isDirectory) return;
    this.#check(path, "write");
    return this.#inner.mkdir(path, options);
  }

  async readdir(path: string): Promise<string[]> {
    this.#check(path, "read");
    return this.#inner.readdir(path);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntries> {
    this.#check(path, "read");
    if (this.#inner.readdirWithFileTypes === undefined) throw new Error("readdirWithFileTypes is not supported by this mount");
    return this.#inner.readdirWithFileTypes(path);
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    this.#check(path, "write");
    return this.#inner.rm(path, options);
  }

  async cp(source: string, destination: string, options?: CpOptions): Promise<void> {
    this.#check(source, "read");
    this.#check(destination, "write");
    return this.#inner.cp(source, destination, options);
  }

  async mv(source: string, destination: string): Promise<void> {
    this.#check(source, "write");
    this.#check(destination, "write");
    return this.#inner.mv(source, destination);
  }

  resolvePath(base: string, path: string): string {
    return this.#inner.resolvePath(base, path);
  }

  getAllPaths(): string[] {
    return this.#inner.getAllPaths();
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.#check(path, "write");
    return this.#inner.chmod(path, mode);
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    this.#check(linkPath, "write");
    return this.#inner.symlink(target, linkPath);
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    this.#check(existingPath, "read");
    this.#check(newPath, "write");
    return this.#inner.link(existingPath, newPath);
  }

  async readlink(path: string): Promise<string> {
    this.#check(path, "read");
    return this.#inner.readlink(path);
  }

  async realpath(path: string): Promise<string> {
    this.#check(path, "read");
    return this.#inner.realpath(path);
  }

  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    this.#check(path, "write");
    return this.#inner.utimes(path, atime, mtime);
  }
}
