import { normalize } from '../../src/binding/schema';
import { matchName, words } from '../../src/binding/words';

describe("normalize: the file's schemas in one form", () => {
  test('allOf merged, oneOf/anyOf of objects merged with the requirements every variant shares', () => {
    const s = normalize({
      allOf: [
        { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'integer' } } },
      ],
    });
    expect(s).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] });
    const one = normalize({
      oneOf: [
        { type: 'object', required: ['id', 'x'], properties: { id: { type: 'string' }, x: { type: 'string' } } },
        { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
      ],
    });
    expect(Object.keys(one.properties!)).toEqual(['id', 'x', 'name']);
    expect(one.required).toEqual(['id']);
  });

  test('3.0 nullable, Swagger x-nullable, 3.1 type arrays and null variants are nullable; mixed scalars untyped', () => {
    expect(normalize({ type: 'string', nullable: true })).toEqual({ type: 'string', nullable: true });
    expect(normalize({ type: 'string', 'x-nullable': true })).toEqual({ type: 'string', nullable: true });
    expect(normalize({ type: ['string', 'null'], format: 'date' })).toEqual({ type: 'string', format: 'date', nullable: true });
    expect(normalize({ oneOf: [{ type: 'object', properties: { Guid: { type: 'string' } } }, { type: 'null' }] })).toMatchObject({
      type: 'object',
      nullable: true,
    });
    expect(normalize({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }).type).toBeUndefined();
    expect(normalize({ const: 'x' }).enum).toEqual(['x']);
  });

  test('readOnly and writeOnly are kept; a schema that refers to itself is cut where it recurs', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { id: { type: 'string', readOnly: true } } };
    (node.properties as Record<string, unknown>).parent = node;
    const s = normalize(node);
    expect(s.properties!.id).toEqual({ type: 'string', readOnly: true });
    expect(s.properties!.parent).toEqual({ type: 'object' });
  });
});

describe('names', () => {
  test.each([
    ['ReportingOrganization', 'reportingOrganisation', 'synonym'],
    ['ReportingOrganization', 'reporting_organization_id', 'name'],
    ['Name', 'title', 'synonym'],
    ['Name', 'IncidentTitle', 'synonym'],
    ['ThirdPartyGuid', 'vendorId', 'synonym'],
    ['Url', 'Link', 'synonym'],
    ['DateDetected', 'detectedOn', 'synonym'],
    ['StartDate', 'effectiveFrom', 'synonym'],
    ['EndDate', 'effectiveUntil', 'synonym'],
    ['LeiCode', 'LegalEntityIdentifier', 'synonym'],
    ['Id', 'OrganisationGuid', 'synonym'],
    ['IncidentTypes', 'incident_type_ids', 'name'],
  ])('%s ~ %s (%s)', (catalogue, file, how) => {
    expect(matchName(catalogue, file, ['incident', 'organization', 'contract'])).toBe(how);
  });

  test.each([
    ['Name', 'Description'],
    ['StartDate', 'EndDate'],
    ['RootCauseCategory', 'IncidentCategory'],
    ['Classification', 'Severity'],
  ])('%s is not %s', (catalogue, file) => {
    expect(matchName(catalogue, file, ['incident'])).toBeUndefined();
  });

  test('words: any casing, British spelling, two-word terms joined', () => {
    expect(words('reporting_organisation_ids')).toEqual(['reporting', 'organization', 'id']);
    expect(words('ThirdPartyName')).toEqual(['thirdparty', 'name']);
  });
});
