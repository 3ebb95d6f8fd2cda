import { parseTimeout } from "@little-stack/runtime";

/**
 * One timeout and one AbortSignal over everything a call does (compile, execute, every outer
 * cycle, every sub-run): `signal` fires on either, and `abortCause` says which came first.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly userSignal: AbortSignal | undefined;
  private readonly endsAt: number | undefined;
  private cause: "timeout" | "cancelled" | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: { readonly timeout?: string | number; readonly signal?: AbortSignal }) {
    const controller = new AbortController();
    this.signal = controller.signal;
    this.userSignal = options.signal;
    const timeoutMs = options.timeout === undefined ? undefined : parseTimeout(options.timeout);
    this.endsAt = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const abort = (cause: "timeout" | "cancelled"): void => {
      this.cause ??= cause;
      controller.abort();
    };
    if (options.signal?.aborted) abort("cancelled");
    else options.signal?.addEventListener("abort", () => abort("cancelled"), { once: true });
    this.timer = timeoutMs === undefined ? undefined : setTimeout(() => abort("timeout"), timeoutMs);
    this.timer?.unref?.();
  }

  abortCause(): "timeout" | "cancelled" | undefined {
    return this.cause;
  }

  /** Milliseconds left, or undefined without a timeout. */
  remainingMs(): number | undefined {
    return this.endsAt === undefined ? undefined : this.endsAt - Date.now();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
