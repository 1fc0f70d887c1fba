// All tables, by area. drizzle-kit reads this file to generate migrations.
export * from './core';
export * from './audience';
export * from './channels';
export * from './identity';
export * from './stats';
export * from './ledgers';
export * from './domains';
export * from './webhooks';
export * from './forms';
export * from './privacy';
