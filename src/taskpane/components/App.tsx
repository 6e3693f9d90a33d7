import { FluentProvider, Spinner, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { WorkbookPort } from '../../workbook/port';
import type { ActivityEntry } from '../activity/activity';
import { allows } from '../connection/access';
import { forgetRememberedPasswords, type Credentials } from '../connection/credentials';
import type { EnvironmentChoice, EnvironmentsResult } from '../connection/environments';
import { describeError, messageText, type UserMessage } from '../connection/messages';
import type { AuthConfigResult } from '../connection/relayIdentity';
import type { HostInfo } from '../host';
import type { ScreenProps, Session } from '../screen';
import { useSignIn, type Person } from '../signin/useSignIn';
import type { SignInWindow } from '../signin/windows';
import { fluentTheme, themeName } from '../theme';
import { ConnectScreen } from './ConnectScreen';
import { EnvironmentBadge } from './EnvironmentBadge';

// Chunks of their own, fetched when their tab is first opened: the first screen (Connect) is drawn without
// the loading code, the write-back flows, rules and dialogs (test/taskpane/bundle.test.ts measures it).
type Runtime = typeof import('../connection/runtime');
const loadRuntime = (): Promise<Runtime> => import(/* webpackChunkName: "connection" */ '../connection/runtime');

const WritebackScreen = lazy(() => import(/* webpackChunkName: "writeback" */ '../writeback/WritebackScreen'));
const DatasetsScreen = lazy(() =>
  import(/* webpackChunkName: "datasets" */ './DatasetsScreen').then((m) => ({ default: m.DatasetsScreen })),
);
const ActivityScreen = lazy(() =>
  import(/* webpackChunkName: "activity" */ './ActivityScreen').then((m) => ({ default: m.ActivityScreen })),
);
const TablesScreen = lazy(() =>
  import(/* webpackChunkName: "tables" */ './TablesScreen').then((m) => ({ default: m.TablesScreen })),
);

const useStyles = makeStyles({
  provider: { height: '100%' },
  // Beside the grid on a wide screen; stacked above it when the window is as narrow as a taskpane.
  layout: { display: 'flex', height: '100%', minWidth: 0, '@media (max-width: 720px)': { flexDirection: 'column', height: 'auto' } },
  pane: {
    display: 'flex',
    flexDirection: 'column',
    flex: '1 1 auto',
    minWidth: 0,
    height: '100%',
    backgroundColor: tokens.colorNeutralBackground2,
    borderTop: `${tokens.strokeWidthThickest} solid transparent`,
  },
  paneBeside: {
    flex: '0 0 360px',
    maxWidth: '360px',
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    '@media (max-width: 720px)': { flex: '0 0 auto', maxWidth: 'none', height: 'auto', borderRight: 'none' },
  },
  productionPane: { borderTopColor: tokens.colorPaletteRedBorderActive },
  productionHeader: { backgroundColor: tokens.colorPaletteRedBackground1 },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    paddingInline: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    minWidth: 0,
  },
  // Five tabs on one line even at 320 px: compact tabs, and a horizontal scroll rather than a ragged second line.
  // It stays at the top of a pane that scrolls as a whole (a narrow taskpane), on its own background so the
  // text scrolling under it does not show through.
  tabs: {
    flexWrap: 'nowrap',
    overflowX: 'auto',
    paddingInline: tokens.spacingHorizontalXXS,
    scrollbarWidth: 'thin',
    position: 'sticky',
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  tab: {
    paddingInline: tokens.spacingHorizontalXS,
    flexShrink: 0,
    '@media (max-width: 360px)': {
      paddingInline: tokens.spacingHorizontalXXS,
      '& .fui-Tab__content': { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
    },
  },
  body: { flex: '1 1 auto', overflowY: 'auto', padding: tokens.spacingHorizontalM },
  aside: {
    flex: '1 1 auto',
    minWidth: 0,
    overflow: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 720px)': { minHeight: '320px', borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}` },
  },
});

type TabId = 'connect' | 'datasets' | 'tables' | 'writeback' | 'activity';

export interface Props {
  host: HostInfo;
  workbook: WorkbookPort;
  /** The relay's origin: the page's own, since the relay serves the add-in. */
  origin: string;
  fetch: typeof fetch;
  /** Only to delete the passwords an earlier version remembered there: nothing is stored any more. */
  storage?: Storage;
  /** Where the provider's login page opens: Office's dialog in Excel, a popup in the preview. */
  signInWindow: SignInWindow;
  copy(text: string): Promise<void>;
  /** Shown beside the taskpane: the preview's grid of the in-memory workbook. */
  aside?: ReactNode;
}

function usePrefersDark(): boolean {
  const [query] = useState(() => (typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null));
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return dark;
}

/** Office's theme colour as it is now: the one read at start, then every change the host reports. */
function useOfficeBackground(host: HostInfo): string | undefined {
  const [background, setBackground] = useState(host.officeBackground);
  useEffect(() => host.watchOfficeBackground?.(setBackground), [host]);
  return background;
}

export function App({ host, workbook, origin, fetch: fetchFn, storage, signInWindow, copy, aside }: Props) {
  const s = useStyles();
  const prefersDark = usePrefersDark();
  const officeBackground = useOfficeBackground(host);
  const theme = fluentTheme(themeName(officeBackground, prefersDark));
  const [tab, setTab] = useState<TabId>('connect');
  const [opened, setOpened] = useState<ReadonlySet<TabId>>(() => new Set(['connect']));
  const [environments, setEnvironments] = useState<EnvironmentsResult | null>(null);
  const [auth, setAuth] = useState<AuthConfigResult | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [activity, setActivity] = useState<ActivityEntry[]>([]);
  const [workbookVersion, setWorkbookVersion] = useState(0);

  const [runtime, setRuntime] = useState<Runtime | null>(null);

  // The connection code is a chunk (connection/runtime.ts): fetched as the pane first renders, then the
  // environments are read with it.
  useEffect(() => {
    let live = true;
    loadRuntime().then(
      async (rt) => {
        if (!live) return;
        setRuntime(rt);
        const [list, authConfig] = await Promise.all([rt.fetchEnvironments(origin, fetchFn), rt.fetchAuthConfig(origin, fetchFn)]);
        if (live) {
          setEnvironments(list);
          setAuth(authConfig);
        }
      },
      () => live && setEnvironments({ ok: false, message: `Could not load the add-in's code from ${origin}. Reload the pane.` }),
    );
    return () => {
      live = false;
    };
  }, [origin, fetchFn]);

  useEffect(() => void forgetRememberedPasswords(storage), [storage]);

  const onActivity = useCallback((entry: ActivityEntry) => setActivity((list) => [entry, ...list]), []);
  const onWorkbookChanged = useCallback(() => setWorkbookVersion((v) => v + 1), []);

  async function connect(choice: EnvironmentChoice, credentials: Credentials): Promise<UserMessage | null> {
    const rt = runtime ?? (await loadRuntime());
    // The environment's binding is read now, for the one being connected to, not with the list at start.
    const read = await rt.fetchEnvironment(origin, choice.name, fetchFn);
    if (!read.ok) {
      const message: UserMessage = { title: `Could not read ${choice.name}'s settings`, detail: read.message };
      onActivity({ at: new Date(), action: 'connect', environment: choice.name, outcome: 'failed', message: messageText(message) });
      return message;
    }
    const { environment } = read;
    // The environment's own catalogue: its binding's paths and property names.
    const client = rt.createClient({ baseUrl: rt.environmentBaseUrl(origin, environment.name), credentials, fetch: fetchFn, catalog: rt.catalogFor(environment) });
    const entry = { at: new Date(), action: 'connect', environment: environment.name } as const;
    try {
      await client.testConnection();
      // A chunk of its own: not in the first load.
      const { keyFingerprint } = await import(/* webpackChunkName: "key-fingerprint" */ '../../client/key-fingerprint');
      const fingerprint = await keyFingerprint(credentials.identifier);
      setSession({ environment, client, source: `relay ${origin}`, keyFingerprint: fingerprint });
      onActivity({ ...entry, outcome: 'ok' });
      return null;
    } catch (error) {
      const message: UserMessage = rt.isApiError(error)
        ? describeError(error, environment.name)
        : { title: 'Unexpected failure', detail: error instanceof Error ? error.message : String(error) };
      // A connection that works is kept: a mistyped key on a second try does not take it away.
      onActivity({ ...entry, outcome: 'failed', message: messageText(message) });
      return message;
    }
  }

  function selectTab(id: TabId) {
    setTab(id);
    setOpened((ids) => (ids.has(id) ? ids : new Set([...ids, id])));
  }

  // A new person (or none) never inherits the previous one's connection.
  const onPerson = useCallback((_person: Person | null) => setSession(null), []);
  const signInConfig = auth?.ok ? auth.config.signIn : null;
  const signIn = useSignIn(signInConfig, origin, fetchFn, signInWindow, onPerson);
  const person = signIn.state.kind === 'signed-in' ? signIn.state.person : null;
  // Who is signed in now: a choice whose environment arrives after a sign-out or a change of person is dropped.
  const currentPerson = useRef(person);
  currentPerson.current = person;

  /** Signed in: the environment's client sends the person's token; the relay adds the key it holds. */
  async function choose(choice: EnvironmentChoice) {
    if (!person || !runtime) return;
    const { me } = person;
    // The view (binding) of the chosen environment, read with the person's sign-in.
    const read = await runtime.fetchEnvironment(origin, choice.name, person.fetch);
    if (currentPerson.current !== person) return;
    if (!read.ok) {
      setSession(null);
      onActivity({ at: new Date(), action: 'connect', outcome: 'failed', environment: choice.name, message: read.message });
      return;
    }
    const { environment } = read;
    // The client's Basic credentials are never sent: the signed-in fetch replaces the Authorization header.
    const client = runtime.createClient({ baseUrl: runtime.environmentBaseUrl(origin, environment.name), credentials: { identifier: '', password: '' }, fetch: person.fetch, catalog: runtime.catalogFor(environment) });
    setSession({
      environment,
      client,
      source: `relay ${origin}`,
      keyFingerprint: me.keys[environment.name] ?? 'key held by the relay',
      actor: { subject: me.subject, name: me.name },
      flowAllowed: (flowId) =>
        allows(me.may.flows[environment.name], flowId) && (!environment.production || me.may.production[environment.name] === true),
    });
    onActivity({ at: new Date(), action: 'connect', outcome: 'ok', environment: environment.name, message: `as ${me.name} (${me.subject})` });
  }

  // Once signed in, a test environment the person may use is chosen (never production by default); the
  // Connect tab's list changes it.
  const envChoices = environments?.ok ? environments.environments : null;
  useEffect(() => {
    if (!person || !envChoices) return;
    const mine = envChoices.filter((e) => person.me.may.environments.includes(e.name));
    const first = mine.find((e) => !e.production) ?? mine[0];
    if (first) void choose(first);
    // choose is re-made each render; the choice is made once per person.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [person, envChoices]);

  // Signed in: the datasets the policy gives the person's groups in this environment; the others are not shown.
  const datasetAllowed = useMemo(
    () => (person && session ? (id: string) => allows(person.me.may.datasets[session.environment.name], id) : undefined),
    [person, session],
  );

  const screen: ScreenProps = { workbook, session, onActivity, onWorkbookChanged, workbookVersion };
  // Before a connection the Datasets tab shows the catalogue's own (unbound) list.
  const sessionCatalog = runtime && (session ? runtime.catalogFor(session.environment) : runtime.catalog);
  const envList = environments?.ok ? environments.environments : [];
  const production = session?.environment.production ?? false;

  // Every screen stays mounted once opened (hidden when not selected) so a load or refresh in progress keeps running
  // and keeps its progress when the user looks at another tab.
  const opening = <Spinner size="small" label="Opening…" />;
  const panel = (id: TabId, content: ReactNode) => (
    <div role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} hidden={tab !== id}>
      {opened.has(id) && <Suspense fallback={opening}>{content}</Suspense>}
    </div>
  );

  return (
    <FluentProvider theme={theme} className={s.provider}>
      <div className={s.layout}>
        <main className={`${s.pane} ${aside ? s.paneBeside : ''} ${production ? s.productionPane : ''}`} data-testid="taskpane">
          <header className={`${s.header} ${production ? s.productionHeader : ''}`}>
            <Text weight="semibold" size={400}>
              GRC Sheets
            </Text>
            <EnvironmentBadge environment={session?.environment ?? null} />
          </header>
          <TabList className={s.tabs} selectedValue={tab} onTabSelect={(_, d) => selectTab(d.value as TabId)} size="small">
            <Tab value="connect" id="tab-connect" className={s.tab}>
              Connect
            </Tab>
            <Tab value="datasets" id="tab-datasets" className={s.tab}>
              Datasets
            </Tab>
            <Tab value="tables" id="tab-tables" className={s.tab}>
              Tables
            </Tab>
            <Tab value="writeback" id="tab-writeback" className={s.tab}>
              Write-back
            </Tab>
            <Tab value="activity" id="tab-activity" className={s.tab}>
              Activity
            </Tab>
          </TabList>
          <div className={s.body}>
            {panel(
              'connect',
              <ConnectScreen
                environments={environments}
                auth={auth}
                session={session}
                signIn={signIn}
                choose={choose}
                connect={connect}
                disconnect={() => setSession(null)}
              />,
            )}
            {panel('datasets', sessionCatalog ? <DatasetsScreen {...screen} catalog={sessionCatalog} allowed={datasetAllowed} /> : opening)}
            {panel('tables', sessionCatalog ? <TablesScreen {...screen} catalog={sessionCatalog} environments={envList} /> : opening)}
            {panel('writeback', <WritebackScreen {...screen} />)}
            {panel('activity', <ActivityScreen entries={activity} copy={copy} />)}
          </div>
        </main>
        {aside && (
          <aside className={s.aside} aria-label="Preview workbook">
            {aside}
          </aside>
        )}
      </div>
    </FluentProvider>
  );
}
