/**
 * The one error shape of the API: `{"error": message}` with the original's status codes
 * (400 bad input, 403 access, 440 session, 429 a rate limit, 503 a service did not answer). Domain code throws
 * these; the HTTP kit renders them; RPC carries them between services unchanged.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as `Retry-After` (whole seconds): when the caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(message: string): ApiError {
    return new ApiError(400, message);
  }

  static forbidden(message = 'Invalid access'): ApiError {
    return new ApiError(403, message);
  }

  static sessionExpired(message = 'Session expired'): ApiError {
    return new ApiError(440, message);
  }

  static unavailable(message = 'Service unavailable'): ApiError {
    return new ApiError(503, message);
  }

  /** A rate limit is spent (docs/security.md#limits); at least a second, so a client never retries at once. */
  static tooManyRequests(retryAfterMs: number, message = 'Too many requests, try again later'): ApiError {
    return new ApiError(429, message, Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export { assertStorable, MAX_NESTING } from './storable.ts';
