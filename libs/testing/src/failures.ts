// What a call refuses with, for a test to assert on: the test fails when the call does not refuse.

/** What `promise` rejects with. */
export async function rejected<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a rejection');
}
