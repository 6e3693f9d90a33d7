import { z } from 'zod';
import { rng, type Rng } from './data/random';

/** Fault switches for tests and benchmarks, all off by default (docs/contracts.md). Rates are 0..1 per call. */
export const faultsSchema = z.object({
  latencyMs: z.number().int().min(0).max(60_000).default(0),
  errorRate: z.number().min(0).max(1).default(0),
  rateLimitRate: z.number().min(0).max(1).default(0),
  dropRate: z.number().min(0).max(1).default(0),
  retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
  seed: z.number().int().default(1),
});
export type Faults = z.infer<typeof faultsSchema>;
export type FaultsInput = z.input<typeof faultsSchema>;

export type FaultDecision = 'none' | 'unavailable' | 'rate-limited' | 'drop';

/**
 * Decides the fault of each API call from a generator seeded with `seed`, in arrival order, so a test
 * that sends the same calls sees the same faults. Setting the faults restarts the sequence.
 */
export class FaultPlan {
  private faults: Faults;
  private random: Rng;

  constructor(input: FaultsInput = {}) {
    this.faults = faultsSchema.parse(input);
    this.random = rng(this.faults.seed);
  }

  get current(): Faults {
    return { ...this.faults };
  }

  set(input: FaultsInput): Faults {
    this.faults = faultsSchema.parse({ ...this.faults, ...input });
    this.random = rng(this.faults.seed);
    return this.current;
  }

  next(): FaultDecision {
    const { errorRate, rateLimitRate, dropRate } = this.faults;
    if (errorRate + rateLimitRate + dropRate === 0) return 'none';
    const u = this.random.next();
    if (u < errorRate) return 'unavailable';
    if (u < errorRate + rateLimitRate) return 'rate-limited';
    if (u < errorRate + rateLimitRate + dropRate) return 'drop';
    return 'none';
  }
}
