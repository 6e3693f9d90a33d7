/**
 * Which host the taskpane runs in. In Excel, Office.onReady gives a host; in a plain browser (the preview)
 * it resolves with host null, and when office.js did not load at all there is no Office global. Only this
 * file and the entry read Office globals: components get what they need as props.
 */
export interface HostInfo {
  kind: 'excel' | 'preview';
  /** Office's theme body colour when the host gives one: the theme to follow. */
  officeBackground?: string;
  /**
   * Calls back with Office's theme body colour whenever it may have changed while the pane is open; returns
   * the function that stops watching. Absent in the preview (the browser's colour scheme is watched instead).
   */
  watchOfficeBackground?(onChange: (background: string | undefined) => void): () => void;
}

/** The part of Office.context the theme watch reads: a stand-in in tests. */
export interface ThemeSource {
  officeTheme?: { bodyBackgroundColor?: string };
  document?: {
    addHandlerAsync?(type: string, handler: (args: { officeTheme?: { bodyBackgroundColor?: string } }) => void, callback?: (r: { status: string }) => void): void;
    removeHandlerAsync?(type: string, options?: unknown, callback?: (r: { status: string }) => void): void;
  };
}

/**
 * Excel documents no theme-change event for add-ins (Office's `OfficeThemeChanged` is an Outlook mailbox
 * event), but some hosts refresh `officeTheme` in place, and the user changes the theme in Office's own
 * settings, away from the pane. So: register `OfficeThemeChanged` on the document where the host accepts
 * it (a host that does not simply fails the registration), and re-read `officeTheme` whenever the pane
 * gets focus back or becomes visible again. Only a changed colour is reported.
 */
export function watchThemeOf(context: ThemeSource, targets: EventTarget[], eventType: string, onChange: (background: string | undefined) => void): () => void {
  let last = context.officeTheme?.bodyBackgroundColor;
  const report = (background: string | undefined) => {
    if (background === undefined || background === last) return;
    last = background;
    onChange(background);
  };
  const reread = () => report(context.officeTheme?.bodyBackgroundColor);
  const cues = ['focus', 'visibilitychange'];
  for (const t of targets) for (const cue of cues) t.addEventListener(cue, reread);
  let registered = false;
  try {
    context.document?.addHandlerAsync?.(eventType, (args) => report(args.officeTheme?.bodyBackgroundColor ?? context.officeTheme?.bodyBackgroundColor), (r) => {
      registered = r.status === 'succeeded';
    });
  } catch {
    // Hosts that do not know the event type throw instead of failing the callback: the focus re-read remains.
  }
  return () => {
    for (const t of targets) for (const cue of cues) t.removeEventListener(cue, reread);
    if (registered) context.document?.removeHandlerAsync?.(eventType);
  };
}

/** `officeScript`: settles once office.js was loaded or given up on (see office/officeScript.ts). */
export async function detectHost(officeScript?: Promise<unknown>): Promise<HostInfo> {
  await officeScript;
  if (typeof Office === 'undefined' || typeof Office.onReady !== 'function') return { kind: 'preview' };
  const info = await Office.onReady();
  if (info.host !== Office.HostType.Excel) return { kind: 'preview' };
  const context = Office.context;
  return {
    kind: 'excel',
    officeBackground: context.officeTheme?.bodyBackgroundColor,
    watchOfficeBackground: (onChange) =>
      watchThemeOf(context as unknown as ThemeSource, [window, document], String(Office.EventType.OfficeThemeChanged ?? 'officeThemeChanged'), onChange),
  };
}
