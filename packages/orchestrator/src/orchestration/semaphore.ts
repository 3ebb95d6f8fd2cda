/** A counting semaphore that also measures the peak number of holders (reported in results). */
export class SubRunSlots {
  private available: number;
  private readonly waiting: (() => void)[] = [];
  private inFlight = 0;
  peak = 0;

  constructor(readonly limit: number) {
    this.available = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.available > 0) this.available -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      return await task();
    } finally {
      this.inFlight -= 1;
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.available += 1;
    }
  }
}
