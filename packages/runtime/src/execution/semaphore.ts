/** A counting semaphore: at most `limit` holders at once, waiters served in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private peak = 0;

  constructor(readonly limit: number) {}

  get highWater(): number {
    return this.peak;
  }

  /** A slot now, or `undefined` when all are held (nothing is queued). */
  tryAcquire(): (() => void) | undefined {
    if (this.active >= this.limit) return undefined;
    this.take();
    return this.releaser();
  }

  async acquire(): Promise<() => void> {
    if (this.active < this.limit) {
      this.take();
    } else {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter, so the count never dips and lets a newcomer in.
      if (next !== undefined) next();
      else this.active -= 1;
    };
  }

  private take(): void {
    this.active += 1;
    if (this.active > this.peak) this.peak = this.active;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
