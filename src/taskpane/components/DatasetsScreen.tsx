import { Badge, Caption1, SearchBox, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import { pathSource, type Catalog, type Dataset } from '../../catalog';
import { groupDatasets } from '../datasets/groups';
import { ASSUMED_EXPLAINED, SOURCE_BADGE, UNTYPED_EXPLAINED, sourceOf, type PathSource } from '../datasets/source';
import type { ScreenProps } from '../screen';
import { LoadPanel } from './LoadPanel';
import { mayLoad, offeredDatasets } from '../../register/offer';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  area: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold, color: tokens.colorNeutralForeground2 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    width: '100%',
    textAlign: 'start',
    padding: tokens.spacingVerticalS,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    fontFamily: 'inherit',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  selected: { border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}` },
  titleRow: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center', flexWrap: 'wrap' },
  sticky: { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground2, paddingBlock: tokens.spacingVerticalXS },
});

export interface Props extends ScreenProps {
  catalog: Catalog;
  /** Signed in: whether the relay's policy gives the person this dataset; the others are not listed. */
  allowed?: (datasetId: string) => boolean;
}

export function DatasetsScreen(props: Props) {
  const s = useStyles();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Dataset | null>(null);
  const [busy, setBusy] = useState(false);
  const { allowed } = props;
  // The catalogue's datasets and the registers built on them, one list.
  const offered = useMemo(() => offeredDatasets(props.catalog), [props.catalog]);
  const shown = useMemo(() => (allowed ? offered.filter((d) => mayLoad(allowed)(d.id)) : offered), [offered, allowed]);
  const hidden = offered.length - shown.length;
  const groups = useMemo(() => groupDatasets(shown, query), [shown, query]);
  // A dataset picked before another person signed in stays picked only if this person may have it.
  const picked = chosen && shown.some((d) => d.id === chosen.id) ? chosen : null;
  const anyAssumed = shown.some((d) => !d.unavailable && pathSource(d) === 'assumed');

  return (
    <div className={s.root}>
      {picked && (
        <div className={s.sticky}>
          <LoadPanel key={picked.id} {...props} dataset={picked} onClose={() => setChosen(null)} onBusyChange={setBusy} />
        </div>
      )}
      <SearchBox placeholder="Search datasets" value={query} onChange={(_, d) => setQuery(d.value)} aria-label="Search datasets" />
      {anyAssumed && (
        <Caption1 id={ASSUMED_HELP_ID} data-testid="assumed-explained">
          {ASSUMED_EXPLAINED}
        </Caption1>
      )}
      {hidden > 0 && (
        <Caption1 data-testid="datasets-hidden">
          {hidden === 1 ? '1 dataset is' : `${hidden} datasets are`} not listed: the relay&apos;s policy does not give your groups{' '}
          {hidden === 1 ? 'it' : 'them'} in this environment. A refused call names the rule and whom to ask.
        </Caption1>
      )}
      {groups.length === 0 && <Text>{query ? `No dataset matches "${query}".` : 'No dataset to show.'}</Text>}
      {groups.map((g) => (
        <section key={g.area} aria-label={g.area}>
          <h3 className={s.area}>{g.area}</h3>
          <ul className={s.list}>
            {g.datasets.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  className={`${s.item} ${picked?.id === d.id ? s.selected : ''}`}
                  onClick={() => setChosen(d)}
                  disabled={(busy && picked?.id !== d.id) || !!d.unavailable}
                  aria-pressed={picked?.id === d.id}
                  data-testid={`dataset-${d.id}`}
                >
                  <span className={s.titleRow}>
                    <Text weight="semibold">{d.title}</Text>
                    {d.version && <Badge appearance="outline" size="small">{d.version}</Badge>}
                    {d.supersededBy && (
                      <Badge appearance="tint" color="warning" size="small">
                        old: use {props.catalog.dataset(d.supersededBy).title}
                      </Badge>
                    )}
                    {!d.unavailable && <SourceBadge source={sourceOf(d)} />}
                    {d.unavailable && (
                      <Badge appearance="tint" color="danger" size="small" data-testid={`unavailable-${d.id}`}>
                        not available here
                      </Badge>
                    )}
                    {d.area === 'Other' && (
                      <Badge appearance="outline" size="small" title={UNTYPED_EXPLAINED}>
                        text columns
                      </Badge>
                    )}
                  </span>
                  <Caption1>{d.unavailable ? d.unavailable.message : d.description}</Caption1>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

const ASSUMED_HELP_ID = 'datasets-assumed-help';

/**
 * The native title is the tooltip: a Fluent Tooltip per dataset would mount one portal each (some forty),
 * and the words are on screen anyway (the explanation above the list, which the badge references).
 */
function SourceBadge({ source }: { source: PathSource }) {
  if (source === 'documented') return null;
  const { label, tooltip } = SOURCE_BADGE[source];
  return (
    <Badge
      appearance="tint"
      color={source === 'bound' ? 'success' : source === 'not-in-file' ? 'warning' : 'informative'}
      size="small"
      title={tooltip}
      aria-describedby={source === 'assumed' ? ASSUMED_HELP_ID : undefined}
      data-testid={`source-${source}`}
    >
      {label}
    </Badge>
  );
}
