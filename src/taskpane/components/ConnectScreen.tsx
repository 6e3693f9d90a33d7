import { Button, Caption1, Divider, Field, Input, Select, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState, type FormEvent } from 'react';
import type { Credentials } from '../connection/credentials';
import type { EnvironmentChoice, EnvironmentsResult } from '../connection/environments';
import type { UserMessage } from '../connection/messages';
import type { AuthConfigResult } from '../connection/relayIdentity';
import type { Session } from '../screen';
import type { SignIn } from '../signin/useSignIn';
import { ErrorBar } from './ErrorBar';
import { SignInPanel } from './SignInPanel';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

export interface Props {
  /** null while the relay's environment list loads. */
  environments: EnvironmentsResult | null;
  /** null while the relay's sign-in settings load. */
  auth: AuthConfigResult | null;
  session: Session | null;
  signIn: SignIn;
  /** Signed in: work in this environment (the relay holds its key). */
  choose(environment: EnvironmentChoice): void;
  /** Personal key: tests the key; resolves null when it works, or what went wrong. */
  connect(environment: EnvironmentChoice, credentials: Credentials): Promise<UserMessage | null>;
  disconnect(): void;
}

/** The ways in the relay offers (GET /api/auth/config): sign-in, a personal API key, or both. */
export function ConnectScreen(props: Props) {
  const s = useStyles();
  const { environments, auth, signIn } = props;
  if (!environments || !auth) return <Spinner size="small" label="Reading the relay's environments…" />;
  if (!environments.ok) return <ErrorBar message={{ title: 'No environments', detail: environments.message }} testId="connect-error" />;
  if (!auth.ok) return <ErrorBar message={{ title: 'No way to connect', detail: auth.message }} testId="connect-error" />;
  const { signIn: signInConfig, personalKeys } = auth.config;
  const signedIn = signIn.state.kind === 'signed-in';
  return (
    <div className={s.root}>
      {signInConfig && (
        <SignInPanel config={signInConfig} signIn={signIn} environments={environments.environments} session={props.session} choose={props.choose} />
      )}
      {signInConfig && personalKeys && !signedIn && <Divider>or with a personal API key</Divider>}
      {personalKeys && !signedIn && <PersonalKeyForm {...props} list={environments.environments} />}
      {!signInConfig && !personalKeys && (
        <ErrorBar
          testId="connect-error"
          message={{ title: 'No way to connect', detail: "The relay offers neither sign-in nor personal keys. Its administrator sets identity or personalKeys in the relay's configuration." }}
        />
      )}
    </div>
  );
}

function PersonalKeyForm({ list, session, connect, disconnect }: Props & { list: EnvironmentChoice[] }) {
  const s = useStyles();
  const [name, setName] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<UserMessage | null>(null);
  const [attempts, setAttempts] = useState(0);

  // Until the user picks one, a test environment is preselected: production is never the default.
  const environment = list.find((e) => e.name === name) ?? list.find((e) => !e.production) ?? list[0] ?? null;

  useEffect(() => setFailure(null), [environment]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!environment) return;
    setBusy(true);
    setFailure(null);
    const problem = await connect(environment, { identifier: identifier.trim(), password });
    setBusy(false);
    setFailure(problem);
    setAttempts((n) => n + 1);
  }

  const connected = session && !session.actor && session.environment.name === environment?.name;
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
        <Input type="password" value={password} onChange={(_, d) => setPassword(d.value)} autoComplete="off" data-testid="password" />
      </Field>
      <Caption1 data-testid="password-memory-only">
        The password stays in this pane&apos;s memory until you close it; it is never stored, on this device or in the workbook.
      </Caption1>
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
      {/* Said first: the failure below is long, and the connection in use is what matters to go on. */}
      {failure && session && !session.actor && (
        <Caption1 data-testid="connect-kept">
          Still connected to {session.environment.name} with the key that worked before. Disconnect to drop it.
        </Caption1>
      )}
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
