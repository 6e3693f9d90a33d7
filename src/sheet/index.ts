export * from './columns';
export * from './cells';
export * from './serial';
