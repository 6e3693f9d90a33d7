import type { WorkbookPort } from './port';

/**
 * A workbook port whose adapter is loaded at its first call, not before: the taskpane's first screen
 * (Connect) touches no workbook, so Excel draws it without downloading the Office.js adapter's code.
 * `host` and `capabilities` are known up front; every other member of the port is an async method, which
 * waits for the adapter (loaded once, whoever calls first) and then calls it.
 */
export function lazyWorkbook(
  host: WorkbookPort['host'],
  capabilities: WorkbookPort['capabilities'],
  load: () => Promise<WorkbookPort>,
): WorkbookPort {
  let adapter: Promise<WorkbookPort> | undefined;
  const known = { host, capabilities };
  return new Proxy(known as WorkbookPort, {
    get(target, key) {
      if (key in known) return target[key as keyof typeof known];
      return async (...args: unknown[]) => {
        // A failed load (the network dropped) is tried again at the next call, not remembered.
        adapter ??= load().catch((e: unknown) => {
          adapter = undefined;
          throw e;
        });
        const port = await adapter;
        const method = port[key as keyof WorkbookPort] as unknown as (...a: unknown[]) => Promise<unknown>;
        return method.apply(port, args);
      };
    },
  });
}
