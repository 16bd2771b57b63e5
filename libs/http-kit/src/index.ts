export { answerParserErrors, createHttpApp } from './app.ts';
export { addressKey, normalAddress } from './client-address.ts';
export * from './listing.ts';
export { type ApiInfo, openApiDocument, openApiPaths, withOpenApi } from './openapi.ts';
export { DEFAULT_MAX_LENGTH } from './params.ts';
export * from './types.ts';
