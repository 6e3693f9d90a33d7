/**
 * Records after the client are typed by the catalogue's schemas: reading a field the catalogue does not
 * have fails to compile (the @ts-expect-error lines are checked by `tsc --noEmit`, which covers test/),
 * and the typed readers return what the loaded records hold.
 */
import { records, str, type Standing } from '../../src/writeback/api';
import { findUnique } from '../../src/writeback/flows/common';
import { registeredSince } from '../../src/writeback/flows/registered';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const standing: Standing = new Map([
  ['users', [{ Id: ID, Name: 'Ada Lovelace', Email: 'ada@example.com', Deleted: false, Team: 'kept, unknown' }]],
  ['thirdparty', [{ Id: OTHER, Name: 'Acme', LeiCode: null, DateCreated: '2026-11-23T10:00:00Z' }]],
]);

describe('typed records', () => {
  it('reads a dataset by its catalogue type', () => {
    const [user] = records(standing, 'users');
    expect(user?.Name).toBe('Ada Lovelace');
    expect(str(user!, 'Email')).toBe('ada@example.com');
    expect(user?.Deleted).toBe(false);
    // @ts-expect-error the catalogue's user has no field "FullName": a renamed field fails to compile
    expect(user?.FullName).toBeUndefined();
    // @ts-expect-error str takes only the record type's own fields
    expect(str(user!, 'Mail')).toBeUndefined();
  });

  it('gives a dataset that was not loaded as no records', () => {
    expect(records(standing, 'organizations')).toEqual([]);
  });

  it('str is undefined for a field that is not text', () => {
    const [third] = records(standing, 'thirdparty');
    expect(str(third!, 'LeiCode')).toBeUndefined();
    expect(str(third!, 'Name')).toBe('Acme');
  });

  it('reconciles by typed fields: the registration field must be one of the record type', () => {
    const rs = records(standing, 'thirdparty');
    const since = new Date('2026-11-23T09:00:00Z');
    expect(registeredSince(rs[0]!, 'DateCreated', since)).toBe('after');
    expect(findUnique(rs, new Set(), { field: 'DateCreated', since }, (r) => r.Name === 'Acme')).toEqual({ kind: 'found', guid: OTHER });
    // @ts-expect-error third parties are registered under DateCreated, not DateRegistered
    findUnique(rs, new Set(), { field: 'DateRegistered', since }, () => true);
  });
});
