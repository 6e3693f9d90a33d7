export * from './endpoint';
export * from './catalog';
export * from './paths';
export * from './fields';
export * from './lei';
export * as records from './records';
export * as bodies from './bodies';
export * from './json-body';
