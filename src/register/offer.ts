import type { Catalog, Dataset } from '../catalog';
import { registerEntry } from './open';
import { REGISTERS, datasetsRead, registerOf } from './registers';

/**
 * The datasets an environment offers for loading: the catalogue's, then one register per area whose
 * datasets the catalogue has. A register one of whose datasets this environment lacks is listed as not
 * available, naming that dataset. The Datasets screen and `grc-sheets load --list` show this list.
 */
export function offeredDatasets(catalog: Catalog): Dataset[] {
  const registers = REGISTERS.flatMap((r) => {
    const main = catalog.datasets.find((d) => d.id === r.main);
    if (!main) return [];
    const entry = registerEntry(r, main);
    const missing = datasetsRead(r)
      .map((id) => ({ id, d: catalog.datasets.find((x) => x.id === id) }))
      .find(({ d }) => !d || d.unavailable);
    if (!missing) return [entry];
    return [{ ...entry, unavailable: { reason: 'missing' as const, message: `${r.title}: it reads ${missing.d?.title ?? missing.id} (${missing.id}), which this environment does not offer.` } }];
  });
  return [...catalog.datasets, ...registers];
}

/** A dataset or register by id (`register:risks+invisible` finds the risk register's entry), or undefined. */
export function datasetFor(catalog: Catalog, id: string): Dataset | undefined {
  const found = registerOf(id);
  if (!found) return catalog.datasets.find((d) => d.id === id);
  return offeredDatasets(catalog).find((d) => d.id === found.register.id);
}

/**
 * Whether a person may load a dataset, from whether the relay's policy gives them a dataset: a register
 * needs every dataset it reads (the relay refuses the others anyway; this keeps the list honest).
 */
export function mayLoad(allowed: (datasetId: string) => boolean): (datasetId: string) => boolean {
  return (id) => {
    const found = registerOf(id);
    return found ? datasetsRead(found.register).every(allowed) : allowed(id);
  };
}
