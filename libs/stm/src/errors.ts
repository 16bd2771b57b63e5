import { ApiError } from '@pcas/errors';

/**
 * STM XML that cannot be used: not well-formed, the wrong root element or namespace, or a required part missing
 * or invalid. An ApiError with status 400, so a route or command handler that lets it through answers
 * `400 {"error": message}` and stores nothing; `instanceof StmFormatError` tells it apart from other 400s.
 */
export class StmFormatError extends ApiError {
  constructor(message: string) {
    super(400, message);
    this.name = 'StmFormatError';
  }
}
