import { loadApiFile } from '../../src/sandbox/file/document';
import { checkBody } from '../../src/sandbox/file/check';

/**
 * The three schema dialects a customer's file may speak, as the bound sandbox checks bodies with them: the
 * same intent written for Swagger 2.0, OpenAPI 3.0 and OpenAPI 3.1 is accepted and refused alike.
 */
const G = '3f1c2a9e-8d7b-4c2e-9a51-0f6b2d7c1e44';

function file(spec: '2.0' | '3.0' | '3.1') {
  const nullableText =
    spec === '2.0'
      ? { type: 'string', 'x-nullable': true }
      : spec === '3.0'
        ? { type: 'string', nullable: true }
        : { type: ['string', 'null'] };
  const schema = {
    type: 'object',
    required: ['id', 'name', 'score'],
    properties: {
      id: { type: 'string', format: 'uuid', readOnly: true },
      name: { type: 'string', minLength: 1 },
      note: nullableText,
      level:
        spec === '3.1'
          ? { enum: ['low', 'high', null] }
          : {
              type: 'string',
              enum: ['low', 'high'],
              ...(spec === '2.0' ? { 'x-nullable': true } : { nullable: true }),
            },
      score:
        spec === '3.1'
          ? { type: 'number', exclusiveMinimum: 0 }
          : { type: 'number', minimum: 0, exclusiveMinimum: true },
      secret: { type: 'string', writeOnly: true },
    },
  };
  const op =
    spec === '2.0'
      ? {
          parameters: [{ name: 'b', in: 'body', required: true, schema }],
          responses: { '201': { description: 'ok' } },
        }
      : {
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '201': { description: 'ok' } },
        };
  const head =
    spec === '2.0'
      ? { swagger: '2.0', basePath: '/api' }
      : { openapi: spec === '3.0' ? '3.0.3' : '3.1.0', servers: [{ url: '/api' }] };
  return { ...head, info: { title: 't', version: '1' }, paths: { '/things': { post: op } } };
}

describe.each(['2.0', '3.0', '3.1'] as const)('a body checked against a %s schema', (spec) => {
  it('takes nulls where the dialect says nullable, refuses a read-only property, checks exclusive bounds', async () => {
    const f = await loadApiFile(file(spec));
    const op = f.find('POST', '/things')!;
    expect(checkBody(op, { name: 'a', note: null, level: null, score: 1, secret: 's' })).toEqual([]);
    expect(checkBody(op, { id: G, name: 'a', score: 0 })).toEqual([
      { field: 'id', message: 'The property is read-only: the service sets it, so it may not be sent.' },
      { field: 'score', message: expect.stringContaining('must be > 0') },
    ]);
    expect(checkBody(op, { score: 1, level: 'medium' }).map((p) => p.field)).toEqual(['name', 'level']);
    expect(checkBody(op, undefined)).toEqual([{ field: '(body)', message: 'The request body is required.' }]);
  });
});

describe('where the file says its operations are', () => {
  it("reads a server URL's variables with their defaults", async () => {
    const f = await loadApiFile({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [
        {
          url: '{scheme}://{host}/api/{version}',
          variables: {
            scheme: { default: 'https' },
            host: { default: 'grc.example' },
            version: { default: 'v4' },
          },
        },
      ],
      paths: { '/things': { get: { responses: { '200': { description: 'ok' } } } } },
    });
    expect(f.find('GET', '/v4/things')?.path).toBe('/things');
  });
});

describe('formats files use beyond JSON Schema', () => {
  it('checks .NET "guid" and sized integers, and passes a vendor format it does not know', async () => {
    const f = await loadApiFile({
      openapi: '3.0.1',
      info: { title: 't', version: '1' },
      paths: {
        '/x': {
          post: {
            requestBody: {
              content: {
                'application/json-patch+json': {
                  schema: {
                    type: 'object',
                    properties: {
                      id: { type: 'string', format: 'guid' },
                      n: { type: 'integer', format: 'int16' },
                      when: { type: 'string', format: 'date-time-offset' },
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    const op = f.find('POST', '/x')!;
    expect(checkBody(op, { id: 'not-a-guid', n: 70000, when: 'whenever' })).toEqual([
      { field: 'id', message: 'The value is not a valid guid.' },
      { field: 'n', message: 'The value is not a valid int16.' },
    ]);
    expect(checkBody(op, { id: G, n: 3, when: 'whenever' })).toEqual([]);
  });
});
