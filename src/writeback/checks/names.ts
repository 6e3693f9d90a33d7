import type { DatasetRecord } from '../../catalog';
import { records, str, type Standing } from '../api';
import { nameIndex, type NameEntry, type NameIndex } from './nameindex';
import type { RowReader } from '../rows/rowreader';
import type { DirectoryDataset } from './directory';

/**
 * Names the service takes as text but only from its own lists (organizations, people, dimensions): each
 * is checked against the environment's standing data before sending and sent as the service spells it,
 * so a row naming "Nowhere Ltd" fails validation instead of reaching the service. An environment without
 * one of these datasets (see directory.ts) leaves that check to the service.
 */

export interface UserEntry extends NameEntry {
  deleted: boolean;
}

/** Indexes of the lists that were loaded; a missing one means "not checked here". */
export interface Directory {
  organizations?: NameIndex;
  users?: NameIndex<UserEntry>;
  businessDimensions?: NameIndex;
  frameworkDimensions?: NameIndex;
}

const named = (rs: readonly DatasetRecord<DirectoryDataset>[]): NameEntry[] =>
  rs.flatMap((r) => (str(r, 'Id') && str(r, 'Name') ? [{ id: str(r, 'Id')!, name: str(r, 'Name')! }] : []));

function indexOf<D extends DirectoryDataset, E extends NameEntry>(
  standing: Standing,
  id: D,
  what: string,
  entries: (rs: readonly DatasetRecord<D>[]) => E[],
) {
  return standing.has(id) ? nameIndex(entries(records(standing, id)), what) : undefined;
}

export function directory(standing: Standing): Directory {
  return {
    organizations: indexOf(standing, 'organizations', 'organizations', named),
    users: indexOf(standing, 'users', 'users', (rs) =>
      rs.flatMap((r) =>
        str(r, 'Id') && str(r, 'Name') ? [{ id: str(r, 'Id')!, name: str(r, 'Name')!, deleted: r.Deleted === true }] : [],
      ),
    ),
    businessDimensions: indexOf(standing, 'businessdimensions', 'business dimensions', named),
    frameworkDimensions: indexOf(standing, 'frameworkdimensions', 'framework dimensions', named),
  };
}

/** One name from a list, as the service spells it; unchecked (as typed) when the list is not loaded. */
export function knownName(
  r: RowReader,
  column: string,
  index: NameIndex | undefined,
  o?: { required?: boolean; what?: string },
): string | undefined {
  const text = r.text(column, o);
  if (text === undefined || !index) return text;
  const found = index.resolve(text);
  if (!found.ok) r.error(column, found.code, found.message);
  return found.ok ? found.name : undefined;
}

/** Several names from a list ("Finance; IT"), as the service spells them; a repeated name is refused. */
export function knownNames(r: RowReader, column: string, index: NameIndex | undefined): string[] | undefined {
  const items = r.list(column);
  if (items === undefined || !index) return items;
  const out: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const found = index.resolve(item);
    if (!found.ok) r.error(column, found.code, found.message);
    else if (out.includes(found.name)) r.error(column, 'duplicate-entry', `"${item}" is listed twice; remove the repeat`);
    else out.push(found.name);
  }
  return out;
}

/** People for a role: known users who are not deleted (deleted users keep old roles but get no new ones). */
export function knownPeople(
  r: RowReader,
  column: string,
  users: NameIndex<UserEntry> | undefined,
  single = false,
): string[] | undefined {
  const names = single ? wrap(knownName(r, column, users)) : knownNames(r, column, users);
  if (!names || !users) return names;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const user = users.entries.find((u) => u.name === name);
    if (user?.deleted)
      r.error(column, 'deleted-user', `${name} is a deleted user and cannot be given a new role; choose someone else`);
  }
  return names;
}

const wrap = (s: string | undefined) => (s === undefined ? undefined : [s]);
