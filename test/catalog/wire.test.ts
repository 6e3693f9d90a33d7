import { formatWire, JSON_CONTENT_TYPE, wireRequest } from '../../src/catalog';

describe('a request on the wire, and as a person reads it', () => {
  it('a JSON body goes as JSON.stringify writes it; shown indented with its numbers and key order as sent', () => {
    const w = wireRequest({ method: 'POST', path: '/v1/contracts', query: [['api-version', '2026-02-01']], body: { Name: 'A', Notice: { Length: 3, Unit: 1 }, Ok: false } });
    expect(w).toEqual({
      method: 'POST',
      target: '/v1/contracts?api-version=2026-02-01',
      contentType: JSON_CONTENT_TYPE,
      body: '{"Name":"A","Notice":{"Length":3,"Unit":1},"Ok":false}',
    });
    expect(formatWire(w)).toEqual([
      'POST /v1/contracts?api-version=2026-02-01',
      'Content-Type: application/json; charset=utf-8',
      '',
      '{',
      '  "Name": "A",',
      '  "Notice": {',
      '    "Length": 3,',
      '    "Unit": 1',
      '  },',
      '  "Ok": false',
      '}',
    ]);
  });

  it('no body: said so', () => {
    expect(formatWire(wireRequest({ method: 'POST', path: '/tasks/1/advance', query: [] }))).toEqual(['POST /tasks/1/advance', '(no body)']);
  });

  it('a form body is shown as its text, byte for byte, whatever its content type', () => {
    expect(formatWire({ method: 'POST', target: '/links', contentType: 'application/x-www-form-urlencoded', body: 'Url=https%3A%2F%2Fa.example%2Fx&Type=1' })).toEqual([
      'POST /links',
      'Content-Type: application/x-www-form-urlencoded',
      '',
      'Url=https%3A%2F%2Fa.example%2Fx&Type=1',
    ]);
    const multipart = '--b\r\nContent-Disposition: form-data; name="Url"\r\n\r\nhttps://a.example/x\r\n--b--\r\n';
    expect(formatWire({ method: 'POST', target: '/links', contentType: 'multipart/form-data; boundary=b', body: multipart }).slice(3)).toEqual(
      multipart.split('\r\n'),
    );
  });

  it('a form the file takes goes as the form: urlencoded as its text, multipart as its parts', () => {
    const body = { Url: 'https://a.example/x y', Type: 1, Tags: ['a', 'b'], Note: null };
    const form = wireRequest({ method: 'POST', path: '/links', query: [], body, form: 'urlencoded' });
    expect(form).toEqual({
      method: 'POST',
      target: '/links',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
      body: 'Url=https%3A%2F%2Fa.example%2Fx+y&Type=1&Tags=a&Tags=b&Note=',
    });
    const parts = wireRequest({ method: 'POST', path: '/docs', query: [], body: { Name: 'Scan', File: { filename: 'a.pdf', base64: 'JVBERg==' } }, form: 'multipart' });
    expect(parts.body).toBeUndefined();
    expect(formatWire(parts)).toEqual([
      'POST /docs',
      'Content-Type: multipart/form-data (its boundary is written when sent)',
      '',
      'Name: Scan',
      'File: file a.pdf (4 bytes)',
    ]);
  });
});
