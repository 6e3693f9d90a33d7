import { Badge, Caption1, SearchBox, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import type { Catalog, Dataset } from '../../catalog';
import { groupDatasets } from '../datasets/groups';
import type { ScreenProps } from '../screen';
import { LoadPanel } from './LoadPanel';

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
}

export function DatasetsScreen(props: Props) {
  const s = useStyles();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Dataset | null>(null);
  const [busy, setBusy] = useState(false);
  const groups = useMemo(() => groupDatasets(props.catalog.datasets, query), [props.catalog, query]);

  return (
    <div className={s.root}>
      {chosen && (
        <div className={s.sticky}>
          <LoadPanel key={chosen.id} {...props} dataset={chosen} onClose={() => setChosen(null)} onBusyChange={setBusy} />
        </div>
      )}
      <SearchBox placeholder="Search datasets" value={query} onChange={(_, d) => setQuery(d.value)} aria-label="Search datasets" />
      {groups.length === 0 && <Text>No dataset matches "{query}".</Text>}
      {groups.map((g) => (
        <section key={g.area} aria-label={g.area}>
          <h3 className={s.area}>{g.area}</h3>
          <ul className={s.list}>
            {g.datasets.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  className={`${s.item} ${chosen?.id === d.id ? s.selected : ''}`}
                  onClick={() => setChosen(d)}
                  disabled={busy && chosen?.id !== d.id}
                  aria-pressed={chosen?.id === d.id}
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
                    {!d.documented && (
                      <Badge appearance="tint" color="informative" size="small" title="The API manual does not show this path; we assume it. The relay's configuration can override it.">
                        assumed path
                      </Badge>
                    )}
                  </span>
                  <Caption1>{d.description}</Caption1>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
