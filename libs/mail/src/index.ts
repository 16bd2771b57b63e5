export * from './mailer.ts';
export { DEFAULT_RETRY, isTransient, type RetryPolicy } from './policy.ts';
