export * from './schemas';
export * from './catalog';
export * from './params';
export * from './responses';
export * from './pricing';
export * from './cache-policy';
