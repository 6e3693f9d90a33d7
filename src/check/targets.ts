import { pathSource, type Catalog } from '../catalog';
import type { CheckTarget } from './run';

/** The datasets of an environment's catalogue, as the check sees them. */
export function targetsOf(catalog: Catalog): CheckTarget[] {
  return catalog.datasets.map((d) => ({
    id: d.id,
    title: d.title,
    path: d.path,
    pathSource: pathSource(d),
    ...(d.notInFile ? { notInFile: true } : {}),
    access: d.access,
    ...(d.unavailable ? { unavailable: d.unavailable } : {}),
  }));
}
