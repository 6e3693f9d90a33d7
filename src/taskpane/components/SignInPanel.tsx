import { Button, Caption1, Field, Select, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { EnvironmentChoice } from '../connection/environments';
import type { SignInConfig } from '../connection/access';
import type { Session } from '../screen';
import type { SignIn } from '../signin/useSignIn';
import { ErrorBar } from './ErrorBar';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  who: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  waiting: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  waitingText: { minWidth: 0, flex: '1 1 auto' },
  // A native select is as wide as its longest option unless told otherwise: keep it inside the pane.
  field: { minWidth: 0 },
  select: { minWidth: 0, width: '100%' },
});

export interface Props {
  config: SignInConfig;
  signIn: SignIn;
  /** The relay's environments; the ones the person may use are offered. */
  environments: readonly EnvironmentChoice[];
  session: Session | null;
  choose(environment: EnvironmentChoice): void;
}

/**
 * Sign-in with the organisation's account: the relay holds the API keys, so nobody types one. Once
 * signed in, the environments offered are those the relay's policy gives the person's groups.
 */
export function SignInPanel({ config, signIn, environments, session, choose }: Props) {
  const s = useStyles();
  const provider = new URL(config.issuer).host;
  const { state } = signIn;

  if (state.kind === 'waiting') {
    return (
      <div className={s.root} data-testid="sign-in-waiting">
        <div className={s.waiting}>
          <Spinner size="tiny" />
          <Text className={s.waitingText}>Finish signing in using the window that opened ({provider}).</Text>
        </div>
        <div>
          <Button onClick={signIn.cancel} data-testid="sign-in-cancel">
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  if (state.kind === 'signed-out') {
    return (
      <div className={s.root}>
        <div className={s.row}>
          <Button appearance="primary" onClick={() => void signIn.start()} data-testid="sign-in">
            Sign in
          </Button>
          <Caption1>with your organisation&apos;s account ({provider}). The relay holds the API keys: you need none.</Caption1>
        </div>
        {state.message &&
          (state.message === 'Signed out.' ? (
            <ErrorBar intent="info" testId="sign-in-message" message={{ title: 'Signed out', detail: 'This pane has forgotten your sign-in, the relay no longer accepts it, and the provider was asked to end it. Sign in again to go on.' }} />
          ) : (
            <ErrorBar testId="sign-in-error" message={{ title: 'Not signed in', detail: state.message }} />
          ))}
      </div>
    );
  }

  const { me } = state.person;
  const allowed = environments.filter((e) => me.may.environments.includes(e.name));
  return (
    <div className={s.root}>
      <div className={s.row}>
        <div className={s.who} data-testid="signed-in">
          <Text weight="semibold">Signed in as {me.name}</Text>
          <Caption1>
            {me.subject}
            {me.groups.length > 0 && ` · groups: ${me.groups.join(', ')}`}
          </Caption1>
        </div>
        <Button onClick={() => void signIn.signOut()} data-testid="sign-out">
          Sign out
        </Button>
      </div>
      {allowed.length === 0 ? (
        <ErrorBar
          intent="warning"
          testId="no-environments"
          message={{ title: 'No environment for you', detail: "The relay's policy gives your groups no environment. Ask the relay's administrator to add your group to its policy." }}
        />
      ) : (
        <Field className={s.field} label="Environment" hint={allowed.length < environments.length ? `The ones your groups may use (${allowed.length} of ${environments.length}).` : undefined}>
          <Select
            className={s.select}
            select={{ className: s.select }}
            value={session?.environment.name ?? ''}
            onChange={(_, d) => {
              const e = allowed.find((x) => x.name === d.value);
              if (e) choose(e);
            }}
            data-testid="environment"
          >
            {!session && <option value="">Choose…</option>}
            {allowed.map((e) => (
              <option key={e.name} value={e.name}>
                {e.production ? `${e.name} (PRODUCTION${me.may.production[e.name] ? '' : ', read only'})` : e.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {session && (
        <ErrorBar
          intent="success"
          testId="connect-ok"
          message={{
            title: `Connected to ${session.environment.name} as ${me.name}`,
            detail: `Calls go through the relay with the key it holds (${session.keyFingerprint}); the service records that key's owner, the relay and the audit sheet record you.`,
          }}
        />
      )}
    </div>
  );
}
