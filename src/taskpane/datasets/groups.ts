import type { Dataset } from '../../catalog';

export interface DatasetGroup {
  area: string;
  datasets: Dataset[];
}

function matches(d: Dataset, words: string[]): boolean {
  const haystack = `${d.id} ${d.title} ${d.description} ${d.area} ${d.path}`.toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/**
 * The catalogue's datasets by area, filtered by every word of the query. Within an area a dataset that
 * another one supersedes (the old v1 risk dataset) goes last, so the v3 risk dataset is what one finds first.
 */
export function groupDatasets(datasets: readonly Dataset[], query: string): DatasetGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, Dataset[]>();
  for (const d of datasets) {
    if (!matches(d, words)) continue;
    const list = groups.get(d.area) ?? [];
    list.push(d);
    groups.set(d.area, list);
  }
  return [...groups].map(([area, list]) => ({
    area,
    datasets: list
      .map((d, i) => ({ d, i }))
      .sort((a, b) => Number(!!a.d.supersededBy) - Number(!!b.d.supersededBy) || a.i - b.i)
      .map(({ d }) => d),
  }));
}

/** Datasets whose path has a `{guid}` need one from the user (a form, a test plan). */
export function needsGuid(d: Dataset): boolean {
  return d.path.includes('{guid}');
}
