export * from './errors.ts';
export * from './lang.ts';
export * from './permissions.ts';
