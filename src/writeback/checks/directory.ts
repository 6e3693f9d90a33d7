/**
 * Standing data of names the service takes as text but only from its own lists: organizations, people,
 * dimensions. The spec shows no dataset for them, so their paths are assumed (documented: false in the
 * catalogue): an environment that answers 404 for one is read as "not available here", not as a failure.
 */
import { DIRECTORY_DATASETS } from '../../contracts/flows/description';

export { DIRECTORY_DATASETS };
export type DirectoryDataset = (typeof DIRECTORY_DATASETS)[number];

export const isDirectoryDataset = (id: string): id is DirectoryDataset =>
  (DIRECTORY_DATASETS as readonly string[]).includes(id);
