import { makeStyles, tokens } from '@fluentui/react-components';
import type { Environment } from '../connection/environments';

const useStyles = makeStyles({
  badge: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    borderRadius: tokens.borderRadiusMedium,
    paddingInline: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXXS,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    maxWidth: '100%',
  },
  none: { backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground2 },
  test: { backgroundColor: tokens.colorPaletteGreenBackground2, color: tokens.colorPaletteGreenForeground2 },
  production: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    letterSpacing: '0.04em',
  },
});

export interface Props {
  environment: Pick<Environment, 'name' | 'production'> | null;
}

/** Always visible: which environment calls go to. Production is red and says PRODUCTION in words too. */
export function EnvironmentBadge({ environment }: Props) {
  const s = useStyles();
  if (!environment)
    return (
      <span className={`${s.badge} ${s.none}`} data-testid="env-badge" role="status">
        Not connected
      </span>
    );
  const production = environment.production;
  return (
    <span
      className={`${s.badge} ${production ? s.production : s.test}`}
      data-testid="env-badge"
      data-production={production}
      role="status"
      title={production ? `Production: ${environment.name}` : `Test environment: ${environment.name}`}
    >
      {production ? `PRODUCTION · ${environment.name}` : environment.name}
    </span>
  );
}
