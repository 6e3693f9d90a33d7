import { attr, child, childrenOf, escapeXml, local, parseXml, splice } from './xml';

/**
 * The add-in's settings in a saved workbook. Office keeps an add-in's document settings in a web
 * extension part, `xl/webextensions/webextensionN.xml` ([MS-OWEXML] 2.2.7 CT_OsfWebExtension), one
 * `<we:property name value>` per setting (2.2.1 CT_OsfWebExtensionProperty), the value being the
 * setting's JSON text; `<we:reference id>` names the add-in by its manifest Id. The task pane that opens
 * with the file is listed in `xl/webextensions/taskpanes.xml` (CT_OsfTaskpanes), and the property
 * `Office.AutoShowTaskpaneWithDocument` = true opens it ([MS-OWEMXML], TaskpaneId). docs/workbook.md.
 */

/** The manifest's <Id> (manifest.xml); test/workbook/file/addin.test.ts keeps the two equal. */
export const ADDIN_ID = 'e72bdb8c-8554-43e4-8a33-9a76f151db89';
export const ADDIN_VERSION = '0.1.0.0';
export const AUTO_SHOW = 'Office.AutoShowTaskpaneWithDocument';

export const NS_WE = 'http://schemas.microsoft.com/office/webextensions/webextension/2010/11';
export const NS_WETP = 'http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11';
export const REL_TASKPANES = 'http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes';
export const REL_WEBEXTENSION = 'http://schemas.microsoft.com/office/2011/relationships/webextension';
export const CT_TASKPANES = 'application/vnd.ms-office.webextensiontaskpanes+xml';
export const CT_WEBEXTENSION = 'application/vnd.ms-office.webextension+xml';

/**
 * Where Excel finds the add-in's manifest when the file opens ([MS-OWEXML] ST_OsfStoreType): EXCatalog
 * for an add-in deployed by the Microsoft 365 admin center (the default), FileSystem for a shared-folder
 * catalog (store = the folder), Registry for a sideloaded one (store "developer").
 */
export interface AddinStore {
  storeType: 'EXCatalog' | 'FileSystem' | 'Registry' | 'SPCatalog' | 'OMEX';
  store: string;
}
export const DEFAULT_STORE: AddinStore = { storeType: 'EXCatalog', store: 'EXCatalog' };

const sameId = (a: string, b: string) => a.replace(/[{}]/g, '').toLowerCase() === b.replace(/[{}]/g, '').toLowerCase();

/** Does this web extension part belong to the add-in? */
export function isOurPart(text: string, part: string, addinId = ADDIN_ID): boolean {
  const ref = child(parseXml(text, part), 'reference');
  return !!ref && sameId(attr(ref, 'id') ?? '', addinId);
}

/** The part's properties, name -> value text. */
export function readProperties(text: string, part: string): Map<string, string> {
  const root = parseXml(text, part);
  const props = child(root, 'properties');
  return new Map((props ? childrenOf(props, 'property') : []).map((p) => [attr(p, 'name') ?? '', attr(p, 'value') ?? '']));
}

/** The part with the given properties set (a value of undefined removes the property); the rest kept. */
export function writeProperties(text: string, part: string, changes: ReadonlyMap<string, string | undefined>): string {
  const root = parseXml(text, part);
  const prefix = root.name.includes(':') ? `${root.name.split(':')[0]}:` : '';
  const props = child(root, 'properties');
  const edits: { start: number; end: number; with: string }[] = [];
  const element = (name: string, value: string) => `<${prefix}property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`;
  const pending = new Map(changes);
  for (const p of props ? childrenOf(props, 'property') : []) {
    const name = attr(p, 'name') ?? '';
    if (!pending.has(name)) continue;
    const value = pending.get(name);
    pending.delete(name);
    edits.push({ start: p.start, end: p.end, with: value === undefined ? '' : element(name, value) });
  }
  const added = [...pending].filter(([, v]) => v !== undefined).map(([k, v]) => element(k, v!)).join('');
  if (props) {
    const selfClosed = text.slice(props.start, props.openEnd).endsWith('/>');
    if (selfClosed) edits.push({ start: props.start, end: props.end, with: `<${prefix}properties>${added}</${prefix}properties>` });
    else edits.push({ start: props.end - `</${props.name}>`.length, end: props.end - `</${props.name}>`.length, with: added });
  } else {
    // properties follows reference and alternateReferences (CT_OsfWebExtension's sequence).
    const after = [...root.children].reverse().find((c) => ['reference', 'alternateReferences'].includes(local(c.name)));
    const at = after ? after.end : root.openEnd;
    edits.push({ start: at, end: at, with: `<${prefix}properties>${added}</${prefix}properties>` });
  }
  return splice(text, edits);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A new web extension part for the add-in, its task pane shown when the file opens. */
export function newWebExtension(instanceId: string, store: AddinStore, properties: ReadonlyMap<string, string>): string {
  const props = [...properties].map(([k, v]) => `<we:property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`).join('');
  return (
    `${XML_HEAD}<we:webextension xmlns:we="${NS_WE}" id="{${instanceId}}">` +
    `<we:reference id="${ADDIN_ID}" version="${ADDIN_VERSION}" store="${escapeXml(store.store)}" storeType="${store.storeType}"/>` +
    `<we:alternateReferences/><we:properties>${props}</we:properties><we:bindings/>` +
    `<we:snapshot xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/></we:webextension>`
  );
}

export function newTaskpanes(relId: string): string {
  return (
    `${XML_HEAD}<wetp:taskpanes xmlns:wetp="${NS_WETP}">` +
    `<wetp:taskpane dockstate="right" visibility="1" width="350" row="0">` +
    `<wetp:webextensionref xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="${relId}"/>` +
    `</wetp:taskpane></wetp:taskpanes>`
  );
}
