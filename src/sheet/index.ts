export * from './columns';
export * from './cells';
export * from './serial';
export * from './cell-types';
export * from './headers';
