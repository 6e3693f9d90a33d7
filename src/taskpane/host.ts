/**
 * Which host the taskpane runs in. In Excel, Office.onReady gives a host; in a plain browser (the preview)
 * it resolves with host null, and when office.js did not load at all there is no Office global. Only this
 * file and the entry read Office globals: components get what they need as props.
 */
export interface HostInfo {
  kind: 'excel' | 'preview';
  /** Office's theme body colour when the host gives one: the theme to follow. */
  officeBackground?: string;
  /** Prefix for localStorage keys where Office partitions storage (undefined elsewhere). */
  partitionKey?: string;
}

export async function detectHost(): Promise<HostInfo> {
  if (typeof Office === 'undefined' || typeof Office.onReady !== 'function') return { kind: 'preview' };
  const info = await Office.onReady();
  if (info.host !== Office.HostType.Excel) return { kind: 'preview' };
  const context = Office.context as Office.Context & { partitionKey?: string };
  return {
    kind: 'excel',
    officeBackground: context.officeTheme?.bodyBackgroundColor,
    partitionKey: context.partitionKey || undefined,
  };
}
