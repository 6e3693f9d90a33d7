/** The example files docs/relay.md points at stay valid: the sign-in relay configuration and the policy. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCatalog } from '../../src/catalog';
import { Policy } from '../../src/identity/policy';
import { parseRelayConfig } from '../../src/relay';
import { policyVocabulary } from '../../src/relay/policy-file';

const ROOT = join(__dirname, '..', '..');
const read = (f: string) => JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as unknown;

test('relay.signin.example.json is a valid relay configuration with sign-in and held keys', () => {
  const config = parseRelayConfig(read('relay.signin.example.json'));
  expect(config.identity?.groupsClaim).toBe('roles');
  expect(config.personalKeys).toBe(false);
  expect(Object.values(config.environments).every((e) => e.key)).toBe(true);
});

test('policy.example.json is a valid policy for that relay', () => {
  const vocabulary = policyVocabulary(
    new Map([
      ['acc', false],
      ['prd', true],
    ]),
    [createCatalog()],
  );
  const policy = Policy.parse(read('policy.example.json'), vocabulary);
  expect(policy.decide(['GRC.Reporting'], 'prd', { kind: 'dataset', id: 'risk', title: 'Risks' })).toBeNull();
  expect(
    policy.decide(['GRC.Reporting'], 'prd', { kind: 'dataset', id: 'audit', title: 'Audits' })?.rule,
  ).toBe('rule "risk-reporting" (datasets)');
});
