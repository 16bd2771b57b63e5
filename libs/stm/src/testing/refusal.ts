// What the STM parsers' tests share: a refused document is a StmFormatError answered with 400.

import { expect } from 'vitest';
import { StmFormatError } from '../errors.ts';

/** Runs fn, expects it to throw a StmFormatError with status 400, and gives that error. */
export function refusal(fn: () => unknown): StmFormatError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StmFormatError);
    expect((error as StmFormatError).status).toBe(400);
    return error as StmFormatError;
  }
  throw new Error('expected a StmFormatError');
}
