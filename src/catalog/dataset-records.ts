import type { DATASETS } from './datasets';
import type { RecordOf } from './records';

type CatalogueDataset = (typeof DATASETS)[number];

/** The id of a dataset the catalogue knows (a binding's extra datasets are untyped and not among them). */
export type DatasetId = CatalogueDataset['id'];

/** The record type of a catalogue dataset, from its zod schema (see RecordOf). */
export type DatasetRecord<D extends DatasetId> = RecordOf<Extract<CatalogueDataset, { id: D }>['record']>;
