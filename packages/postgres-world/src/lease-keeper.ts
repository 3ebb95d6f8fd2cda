import { performance } from "node:perf_hooks";
import { LeaseLostError, type RunLock, type RunLockOwner } from "@little-stack/local-world";

/** A lease this world holds: renewed on a timer, its signal aborted the moment it is lost. */
export type HeldLease = {
  readonly runId: string;
  readonly token: string;
  readonly fence: number;
  readonly controller: AbortController;
  /** Local monotonic time at which the last successful renewal (or the acquisition) was sent. */
  confirmedAt: number;
  expiresAt: string;
  /** Set once the lease is lost (until its holder releases it). */
  lost?: boolean;
};

/**
 * Renews every held lease in one statement each `renewEveryMs`. A lease the database did not
 * renew (lapsed, or taken over) is lost at once; one that could not be renewed because the
 * database was unreachable is given up once `leaseMs` passed since the last renewal was *sent* —
 * never later than the database itself could let another holder take it (its expiry was set from
 * a clock reading taken after that send).
 */
export class LeaseKeeper {
  private readonly held = new Map<string, HeldLease>();
  /** Per run, the newest lease this world acquired and has not released (held or lost). */
  private readonly latest = new Map<string, HeldLease>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;

  constructor(
    private readonly options: {
      readonly leaseMs: number;
      readonly renewEveryMs: number;
      readonly renew: (leases: readonly HeldLease[]) => Promise<Map<string, string>>;
    },
  ) {}

  hold(lease: HeldLease): void {
    this.held.set(lease.token, lease);
    const current = this.latest.get(lease.runId);
    if (current === undefined || current.fence <= lease.fence) this.latest.set(lease.runId, lease);
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.tick(), this.options.renewEveryMs);
      this.timer.unref();
    }
  }

  /** Stops renewing a lease (released, finished or lost). */
  drop(token: string): void {
    this.held.delete(token);
    if (this.held.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** The lease was given back: the run is no longer this world's to fence. */
  release(token: string): void {
    const lease = this.held.get(token) ?? [...this.latest.values()].find((candidate) => candidate.token === token);
    this.drop(token);
    if (lease !== undefined && this.latest.get(lease.runId) === lease) this.latest.delete(lease.runId);
  }

  /**
   * The newest lease this world holds on a run, for appends that do not name a fence: they are
   * fenced with it (and refused once it is lost), so a run held through `acquireRunLock` is fenced
   * even when its writer (the runtime) never names the fence.
   */
  current(runId: string): HeldLease | undefined {
    return this.latest.get(runId);
  }

  /** The lease is gone: its holder must stop. */
  lose(token: string, reason: string, cause?: unknown): void {
    const lease = this.held.get(token);
    if (lease === undefined) return;
    lease.lost = true;
    this.drop(token);
    lease.controller.abort(new LeaseLostError({ runId: lease.runId, fence: lease.fence, reason, cause }));
  }

  /** An append with this run's fence was refused: whoever holds it here stops now. */
  loseFence(runId: string, fence: number, reason: string): void {
    for (const lease of [...this.held.values()]) {
      if (lease.runId === runId && lease.fence === fence) this.lose(lease.token, reason);
    }
  }

  tokens(): string[] {
    return [...this.held.keys()];
  }

  loseAll(reason: string): void {
    for (const token of [...this.held.keys()]) this.lose(token, reason);
  }

  private async tick(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const leases = [...this.held.values()];
    const sentAt = performance.now();
    try {
      const renewed = await this.options.renew(leases);
      for (const lease of leases) {
        const expiresAt = renewed.get(lease.token);
        if (expiresAt === undefined) this.lose(lease.token, "its lease lapsed or another holder took the run over");
        else {
          lease.confirmedAt = sentAt;
          lease.expiresAt = expiresAt;
        }
      }
    } catch (error) {
      const now = performance.now();
      for (const lease of leases) {
        if (now - lease.confirmedAt >= this.options.leaseMs) {
          this.lose(lease.token, `the database could not be reached to renew the lease within ${this.options.leaseMs} ms`, error);
        }
      }
    } finally {
      this.renewing = false;
    }
  }
}

/** The `RunLock` handed out for a held lease. */
export function leaseLock(options: {
  readonly lease: HeldLease;
  readonly holder: string;
  readonly acquiredAt: string;
  readonly recoveredFrom: RunLockOwner | undefined;
  readonly release: () => Promise<void>;
}): RunLock {
  const { lease } = options;
  let released: Promise<void> | undefined;
  return {
    runId: lease.runId,
    token: lease.token,
    pid: process.pid,
    acquiredAt: options.acquiredAt,
    fence: lease.fence,
    holder: options.holder,
    get expiresAt() {
      return lease.expiresAt;
    },
    signal: lease.controller.signal,
    ...(options.recoveredFrom === undefined ? {} : { recoveredFrom: options.recoveredFrom }),
    release() {
      released ??= options.release();
      return released;
    },
  };
}
