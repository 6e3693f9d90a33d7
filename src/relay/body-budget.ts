/**
 * The POST bytes the relay holds in memory, across all connections and per client address. Bodies are
 * buffered so they can be checked (size, JSON) before anything reaches the service; without a bound, a few
 * dozen unfinished bodies with a made-up credential would hold hundreds of megabytes.
 */
export interface BodyBudget {
  /** Takes `bytes` for `address`; false (and nothing taken) when either bound would be passed. */
  take(address: string, bytes: number): boolean;
  give(address: string, bytes: number): void;
  /** Bytes held now, across all connections. */
  readonly held: number;
}

export function createBodyBudget(total: number, perAddress: number): BodyBudget {
  const byAddress = new Map<string, number>();
  let held = 0;
  return {
    take(address, bytes) {
      const mine = byAddress.get(address) ?? 0;
      if (held + bytes > total || mine + bytes > perAddress) return false;
      held += bytes;
      byAddress.set(address, mine + bytes);
      return true;
    },
    give(address, bytes) {
      if (bytes === 0) return;
      held -= bytes;
      const left = (byAddress.get(address) ?? 0) - bytes;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    },
    get held() {
      return held;
    },
  };
}
