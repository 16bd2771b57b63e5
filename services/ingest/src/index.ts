export { ensureSchema } from './adapters/schema.ts';
export { createIngestCommands, type IngestCommandHandlers, type PostTimestampReply } from './entry-points/commands.ts';
export { startIngest } from './entry-points/service.ts';
