import { join } from 'node:path';
import type { BoundOperation } from '../../src/catalog';
import { startWorld, stopWorld, type World } from './world';

/**
 * A hand-kept Swagger 2.0 file whose document upload is `in: formData` with `type: file`: bound as a multipart
 * form, sent by the client through the relay, read by the bound sandbox as a file part (checked against the
 * file's parameters) and stored: the bytes and the file name the caller gave arrive.
 */
let w: World | undefined;
beforeAll(async () => {
  w = await startWorld(join(__dirname, 'fixtures', 'forms', 'upload.swagger.yaml'));
});
afterAll(() => stopWorld(w));

it('uploads a document as the file part of a multipart form, through the relay into the bound sandbox', async () => {
  const op = w!.binding.endpoints['incident-document'] as BoundOperation;
  expect(op).toMatchObject({ form: 'multipart', path: '/incidents/{incidentGuid}/documents' });
  const incident = w!.sandbox.store.list<{ Id: string }>('incidents')[0]!;
  const content = Buffer.from('minutes of the crisis meeting\n').toString('base64');
  await w!.client.call('incident-document', {
    params: { guid: incident.Id },
    body: { FileName: 'minutes.txt', ContentBase64: content },
  });
  const got = w!.sandbox.store.received.find((r) => r.endpoint === 'incident-document');
  expect(got).toMatchObject({ path: `/incidents/${incident.Id}/documents`, body: { upload: { filename: 'minutes.txt', base64: content } } });
});

it('refuses JSON at that operation (415), before the file is read', async () => {
  const incident = w!.sandbox.store.list<{ Id: string }>('incidents')[0]!;
  const res = await fetch(`${w!.sandbox.url}/incidents/${incident.Id}/documents`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${w!.sandbox.demoKey!.identifier}:${w!.sandbox.demoKey!.password}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ FileName: 'a.txt', ContentBase64: 'aGk=' }),
  });
  expect(res.status).toBe(415);
});

it("checks the form against the file's parameters: a multipart body without the required file part is a 400", async () => {
  const incident = w!.sandbox.store.list<{ Id: string }>('incidents')[0]!;
  const form = new FormData();
  form.append('note', 'no file here');
  const res = await fetch(`${w!.sandbox.url}/incidents/${incident.Id}/documents`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${w!.sandbox.demoKey!.identifier}:${w!.sandbox.demoKey!.password}`).toString('base64')}`,
    },
    body: form,
  });
  expect(res.status).toBe(400);
  expect(JSON.stringify(await res.json())).toContain('upload');
});
