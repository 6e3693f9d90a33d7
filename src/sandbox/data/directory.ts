import { listTable, type Ctx, type Table } from './context';
import { BUSINESS_DIMENSIONS, FRAMEWORK_DIMENSIONS, ORGANIZATIONS, USERS } from './standing';

/**
 * The organizations, users and dimensions the write rules accept (the same lists), as datasets, so a
 * client can check names before sending. Organizations form a tree under the first one, Head Office.
 */
export function directoryTables(c: Ctx): Record<string, Table> {
  const organizations = ORGANIZATIONS.map((name, i) => ({
    Id: c.guid('organization', i),
    Name: name,
    ParentId: i === 0 ? null : c.guid('organization', 0),
  }));
  const users = USERS.map((u, i) => ({
    Id: c.guid('user', i),
    Name: u.name,
    Email: u.email,
    Deleted: u.deleted,
  }));
  const dimensions = (names: readonly string[], offset: number) =>
    names.map((name, i) => ({ Id: c.guid('dimension', offset + i), Name: name }));
  return {
    organizations: listTable(organizations),
    users: listTable(users),
    businessdimensions: listTable(dimensions(BUSINESS_DIMENSIONS, 0)),
    frameworkdimensions: listTable(dimensions(FRAMEWORK_DIMENSIONS, BUSINESS_DIMENSIONS.length)),
  };
}
