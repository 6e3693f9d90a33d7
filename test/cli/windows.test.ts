/**
 * Windows, as far as it can be tested without Windows (issue 27): the paths the CLI derives from the ones it
 * is given, under path.win32 (drive letters, backslashes, spaces, UNC shares); and the files an admin edits
 * there, written with CRLF line ends (Notepad, PowerShell) and a UTF-8 byte order mark (PowerShell 5.1's
 * `Set-Content -Encoding UTF8`, older Notepad), read through the same loaders the relay and CLI use:
 * relay configuration, policy, binding, overrides, a held key and a service client's secret.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import pino from 'pino';
import { importBinding } from '../../src/binding';
import { loadBinding } from '../../src/binding/load';
import { parseOverrides } from '../../src/binding/overrides';
import { createCatalog } from '../../src/catalog';
import { overridesPathFor, reportPathFor } from '../../src/cli/binding';
import { loadRelayConfig, parseRelayConfig } from '../../src/relay';
import { HeldKeys, readSecretFile } from '../../src/relay/held-keys';
import { PolicyFile, policyVocabulary } from '../../src/relay/policy-file';
import { backupPathOf } from '../../src/workbook/file/replace';

const ROOT = join(__dirname, '..', '..');
const FIX = join(ROOT, 'test', 'binding', 'fixtures');
const dir = mkdtempSync(join(tmpdir(), 'grc-sheets-windows-'));
const silent = pino({ level: 'silent' });

/** The text as Windows tools write it: CRLF line ends, and a byte order mark when asked. */
const windowsText = (text: string, bom = false) => `${bom ? '\uFEFF' : ''}${text.replace(/\r?\n/g, '\r\n')}`;
function writeWindows(name: string, text: string, bom = false): string {
  const file = join(dir, name);
  writeFileSync(file, windowsText(text, bom));
  return file;
}

describe('paths the CLI derives, with Windows path rules (path.win32)', () => {
  it.each([
    ['C:\\Users\\Ana Lima\\GRC bindings\\acme.json', 'C:\\Users\\Ana Lima\\GRC bindings\\acme'],
    ['D:/mixed/slashes\\acme.JSON', 'D:\\mixed\\slashes\\acme'],
    ['\\\\fileserver\\grc share\\bindings\\acme.json', '\\\\fileserver\\grc share\\bindings\\acme'],
    ['acme.json', 'acme'],
  ])('binding import --out %s: its report and overrides beside it', (out, stem) => {
    expect(reportPathFor(out, path.win32)).toBe(`${stem}.report.txt`);
    expect(overridesPathFor(out, path.win32)).toBe(`${stem}.overrides`);
  });

  it('the same on POSIX (a backslash is part of a name there)', () => {
    expect(reportPathFor('/srv/grc/acme.json', path.posix)).toBe('/srv/grc/acme.report.txt');
    expect(overridesPathFor('/srv/odd\\name.json', path.posix)).toBe('/srv/odd\\name.overrides');
  });

  it.each([
    ['C:\\Users\\Ana Lima\\Books\\risks.xlsx', 'C:\\Users\\Ana Lima\\Books\\risks.bak.xlsx'],
    ['C:\\Books.2026\\risks', 'C:\\Books.2026\\risks.bak'],
    ['\\\\fileserver\\grc share\\Q3 risks.v2.xlsx', '\\\\fileserver\\grc share\\Q3 risks.v2.bak.xlsx'],
  ])('refresh --backup of %s keeps %s', (book, backup) => {
    expect(backupPathOf(book)).toBe(backup);
  });

  it('a book given relative to a Windows working folder resolves to a drive path', () => {
    // What refresh, post, template and verify do with their positional file (path.resolve).
    expect(path.win32.resolve('C:\\Users\\Ana Lima', 'Books\\risks.xlsx')).toBe(
      'C:\\Users\\Ana Lima\\Books\\risks.xlsx',
    );
    expect(path.win32.resolve('C:\\Users\\Ana Lima', 'D:\\risks.xlsx')).toBe('D:\\risks.xlsx');
  });
});

describe('files written on Windows: CRLF line ends and a byte order mark', () => {
  it('the relay configuration (relay.example.json as Notepad saves it)', () => {
    const example = readFileSync(join(ROOT, 'relay.example.json'), 'utf8');
    const lf = loadRelayConfig(join(ROOT, 'relay.example.json'), {});
    for (const bom of [false, true]) {
      const config = loadRelayConfig(writeWindows(`relay-${bom}.json`, example, bom), {});
      expect(config).toEqual(lf);
    }
  });

  it('the policy (policy.example.json)', () => {
    const vocabulary = policyVocabulary(
      new Map([
        ['acc', false],
        ['prd', true],
      ]),
      [createCatalog()],
    );
    const example = readFileSync(join(ROOT, 'policy.example.json'), 'utf8');
    for (const bom of [false, true]) {
      const policy = PolicyFile.load(
        writeWindows(`policy-${bom}.json`, example, bom),
        vocabulary,
        silent,
      ).current;
      expect(
        policy.decide(['GRC.Reporting'], 'prd', { kind: 'dataset', id: 'risk', title: 'Risks' }),
      ).toBeNull();
    }
  });

  it('a binding file', () => {
    const original = loadBinding(join(FIX, 'acme.binding.json'));
    const text = readFileSync(join(FIX, 'acme.binding.json'), 'utf8');
    for (const bom of [false, true])
      expect(loadBinding(writeWindows(`binding-${bom}.json`, text, bom))).toEqual(original);
  });

  it('an overrides file: the same lines, and import applies them', async () => {
    const text = [
      '# the admin chose',
      'use thirdparty-create = POST /thirdpartydata/v1/thirdparties/submit  # the one that submits',
      '',
    ].join('\n');
    const lf = parseOverrides('x.overrides', text);
    expect(lf).toHaveLength(1);
    expect(parseOverrides('x.overrides', windowsText(text))).toEqual(lf);
    expect(parseOverrides('x.overrides', windowsText(text, true))).toEqual(lf);
    const overrides = writeWindows('globex.overrides', text, true);
    const imported = await importBinding(join(FIX, 'globex.openapi.yaml'), { overrides });
    expect(imported.binding.endpoints['thirdparty-create']).toMatchObject({
      how: 'admin',
      path: '/thirdpartydata/v1/thirdparties/submit',
    });
  });

  it("a held key file and a service client's secret file: no \\r or mark in the key", () => {
    const basic = `Basic ${Buffer.from('svc-id:pa55:word').toString('base64')}`;
    for (const bom of [false, true]) {
      const file = writeWindows(`key-${bom}.txt`, 'svc-id:pa55:word\nexpires=2030-01-31\n', bom);
      chmodSync(file, 0o600);
      const config = parseRelayConfig({
        listen: { host: '127.0.0.1', port: 0 },
        environments: { acc: { baseUrl: 'https://grc-acc.example.com/api', key: { file } } },
      });
      const keys = new HeldKeys(config, silent, 14, {});
      expect(keys.loadAll()).toEqual([]);
      expect(keys.get('acc')).toMatchObject({ basic, expires: '2030-01-31' });
    }
    const secret = writeWindows('client-secret.txt', 's3cret\n', true);
    chmodSync(secret, 0o600);
    expect(readSecretFile(secret, 'the secret').trim()).toBe('s3cret');
  });
});
