import { Button, Checkbox, Field, Input, Select, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState, type FormEvent } from 'react';
import type { CredentialStore, Credentials } from '../connection/credentials';
import type { Environment, EnvironmentsResult } from '../connection/environments';
import type { UserMessage } from '../connection/messages';
import type { Session } from '../screen';
import { ErrorBar } from './ErrorBar';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

export interface Props {
  /** null while the relay's environment list loads. */
  environments: EnvironmentsResult | null;
  session: Session | null;
  store: CredentialStore;
  /** Tests the key; resolves null when it works, or what went wrong. */
  connect(environment: Environment, credentials: Credentials): Promise<UserMessage | null>;
  disconnect(): void;
}

export function ConnectScreen({ environments, session, store, connect, disconnect }: Props) {
  const s = useStyles();
  const list = environments?.ok ? environments.environments : [];
  const [name, setName] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<UserMessage | null>(null);
  const [attempts, setAttempts] = useState(0);

  // Until the user picks one, a test environment is preselected: production is never the default.
  const environment = list.find((e) => e.name === name) ?? list.find((e) => !e.production) ?? list[0] ?? null;

  // A remembered key for the chosen environment fills the form; nothing is remembered unless opted in.
  useEffect(() => {
    if (!environment) return;
    const saved = store.load(environment.name);
    setIdentifier(saved?.identifier ?? '');
    setPassword(saved?.password ?? '');
    setRemember(!!saved);
    setFailure(null);
  }, [environment, store]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!environment) return;
    setBusy(true);
    setFailure(null);
    const credentials = { identifier: identifier.trim(), password };
    const problem = await connect(environment, credentials);
    setBusy(false);
    setFailure(problem);
    setAttempts((n) => n + 1);
    if (problem) return;
    if (remember) store.save(environment.name, credentials);
    else store.forget(environment.name);
  }

  if (!environments) return <Spinner size="small" label="Reading the relay's environments…" />;
  if (!environments.ok) return <ErrorBar message={{ title: 'No environments', detail: environments.message }} testId="connect-error" />;

  const connected = session && session.environment.name === environment?.name;
  return (
    // data-attempts lets a browser test tell a fresh answer from the previous one.
    <form className={s.form} onSubmit={submit} aria-label="Connect" data-testid="connect-form" data-attempts={attempts} data-busy={busy}>
      <Field label="Environment">
        <Select value={environment?.name ?? ''} onChange={(_, d) => setName(d.value)} data-testid="environment">
          {list.map((e) => (
            <option key={e.name} value={e.name}>
              {e.production ? `${e.name} (PRODUCTION)` : e.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="API key identifier" required>
        <Input value={identifier} onChange={(_, d) => setIdentifier(d.value)} autoComplete="username" data-testid="identifier" />
      </Field>
      <Field label="API key password" required>
        <Input type="password" value={password} onChange={(_, d) => setPassword(d.value)} autoComplete="current-password" data-testid="password" />
      </Field>
      <Checkbox
        disabled={!store.available}
        checked={remember}
        onChange={(_, d) => setRemember(!!d.checked)}
        label={
          store.available
            ? 'Remember on this device (stored in this browser, never in the workbook)'
            : 'Remember on this device: not available, this host gives the add-in no storage'
        }
      />
      <div className={s.actions}>
        <Button appearance="primary" type="submit" disabled={busy || !identifier || !password} data-testid="test-connection">
          {busy ? 'Testing…' : 'Test connection'}
        </Button>
        {session && (
          <Button type="button" onClick={disconnect}>
            Disconnect
          </Button>
        )}
        {busy && <Spinner size="tiny" />}
      </div>
      {failure && <ErrorBar message={failure} testId="connect-error" />}
      {connected && !failure && (
        <ErrorBar
          intent="success"
          testId="connect-ok"
          message={{ title: `Connected to ${session.environment.name}`, detail: 'The key works. Pick a dataset on the Datasets tab.' }}
        />
      )}
    </form>
  );
}
