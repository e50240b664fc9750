export * from './errors.ts';
export * from './lang.ts';
export * from './permissions.ts';
export * from './schemas/account.schema.ts';
export * from './validation.ts';
