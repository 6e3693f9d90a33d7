import { FileProblem } from './problem';
import { attr, childrenOf, escapeXml, parseXml, splice } from './xml';
import type { ZipReader } from './zip';

/**
 * The parts of an Open Packaging Conventions package (ECMA-376 Part 2) as the file adapter sees them:
 * the original entries, the parts it replaced (by text, or by a generator for big ones), the parts it
 * removed, and the relationships and content types that tie them together.
 */
export interface Rel {
  id: string;
  type: string;
  /** The target as a package path (no leading slash), or the raw target when external. */
  target: string;
  external: boolean;
}

export type PartContent = string | (() => Iterable<string>);

const relsPath = (part: string) => {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
};

/** A relationship target resolved against the part it is relative to. */
export function resolveTarget(source: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const out = source.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

/** A target relative to the source part's folder, as Office writes them. */
export function relativeTarget(source: string, target: string): string {
  const from = source.split('/').slice(0, -1);
  const to = target.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
}

const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export class Package {
  readonly replaced = new Map<string, PartContent>();
  readonly removed = new Set<string>();
  /** New parts in the order they were added (written after the original entries). */
  readonly added: string[] = [];

  constructor(readonly zip: ZipReader) {}

  /** Back to the package as read: every save starts here, so saving twice writes the same parts twice, not a change made over. */
  reset(): void {
    this.replaced.clear();
    this.removed.clear();
    this.added.length = 0;
  }

  has(path: string): boolean {
    return !this.removed.has(path) && (this.replaced.has(path) || this.zip.entries.has(path));
  }

  text(path: string): string {
    const r = this.replaced.get(path);
    if (typeof r === 'string') return r;
    if (r) throw new Error(`part ${path} is generated, not text`);
    return this.zip.text(path);
  }

  set(path: string, content: PartContent): void {
    if (!this.zip.entries.has(path) && !this.replaced.has(path)) this.added.push(path);
    this.removed.delete(path);
    this.replaced.set(path, content);
  }

  remove(path: string): void {
    this.replaced.delete(path);
    const i = this.added.indexOf(path);
    if (i >= 0) this.added.splice(i, 1);
    if (this.zip.entries.has(path)) this.removed.add(path);
  }

  rels(part: string): Rel[] {
    const path = relsPath(part);
    if (!this.has(path)) return [];
    return childrenOf(parseXml(this.text(path), path), 'Relationship').map((r) => {
      const external = attr(r, 'TargetMode') === 'External';
      const target = attr(r, 'Target') ?? '';
      return { id: attr(r, 'Id') ?? '', type: attr(r, 'Type') ?? '', external, target: external ? target : resolveTarget(part, target) };
    });
  }

  addRel(part: string, type: string, target: string): string {
    const path = relsPath(part);
    const text = this.has(path) ? this.text(path) : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${REL_NS}"></Relationships>`;
    const taken = new Set(this.rels(part).map((r) => r.id));
    let n = taken.size + 1;
    while (taken.has(`rId${n}`)) n++;
    const id = `rId${n}`;
    const close = text.lastIndexOf('</Relationships>');
    const rel = `<Relationship Id="${id}" Type="${type}" Target="${escapeXml(relativeTarget(part, target))}"/>`;
    this.set(path, close >= 0 ? text.slice(0, close) + rel + text.slice(close) : text.replace(/\/>\s*$/, `>${rel}</Relationships>`));
    return id;
  }

  removeRel(part: string, id: string): void {
    const path = relsPath(part);
    const text = this.text(path);
    const root = parseXml(text, path);
    const el = childrenOf(root, 'Relationship').find((r) => attr(r, 'Id') === id);
    if (el) this.set(path, splice(text, [{ start: el.start, end: el.end, with: '' }]));
  }

  /** Adds an Override for a new part to [Content_Types].xml. */
  addContentType(part: string, contentType: string): void {
    const path = '[Content_Types].xml';
    const text = this.text(path);
    const close = text.lastIndexOf('</Types>');
    this.set(path, `${text.slice(0, close)}<Override PartName="/${escapeXml(part)}" ContentType="${contentType}"/>${text.slice(close)}`);
  }

  removeContentType(part: string): void {
    const path = '[Content_Types].xml';
    const text = this.text(path);
    const el = childrenOf(parseXml(text, path), 'Override').find((o) => attr(o, 'PartName') === `/${part}`);
    if (el) this.set(path, splice(text, [{ start: el.start, end: el.end, with: '' }]));
  }

  /** The first free path of the form prefix + N + suffix (N from 1). */
  freePath(prefix: string, suffix: string): string {
    for (let n = 1; ; n++) if (!this.has(`${prefix}${n}${suffix}`)) return `${prefix}${n}${suffix}`;
  }

  /** The workbook part: the target of the package's officeDocument relationship. */
  workbookPath(): string {
    if (!this.zip.entries.has('[Content_Types].xml')) {
      throw new FileProblem('not-a-workbook', 'The file is a zip archive but not an Office document (it has no [Content_Types].xml). Choose the .xlsx workbook itself.');
    }
    const doc = this.rels('').find((r) => r.type.endsWith('/officeDocument'));
    const ct = this.zip.text('[Content_Types].xml');
    if (!doc || !this.has(doc.target) || !/spreadsheetml\.sheet\.main\+xml|sheet\.macroEnabled\.main\+xml|spreadsheetml\.template\.main\+xml/.test(ct)) {
      const what = /wordprocessingml/.test(ct) ? ' (it is a Word document)' : /presentationml/.test(ct) ? ' (it is a PowerPoint presentation)' : '';
      throw new FileProblem('not-a-workbook', `The file is an Office package but not an Excel workbook${what}. Choose the .xlsx workbook.`);
    }
    return doc.target;
  }
}
